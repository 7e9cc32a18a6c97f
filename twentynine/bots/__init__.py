"""Computer players, from random to expert. Each plays from its seat's view only."""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot
from .beginner import BeginnerBot
from .expert import ExpertBot
from .intermediate import IntermediateBot
from .random_bot import RandomBot

LEVELS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "beginner": BeginnerBot,
    "intermediate": IntermediateBot,
    "expert": ExpertBot,
}


def make_bot(level: str, seed: int | None = None) -> Bot:
    """A bot of ``level`` (see ``LEVELS``); ``seed`` makes its choices repeatable."""
    try:
        factory = LEVELS[level]
    except KeyError:
        raise ValueError(
            f"unknown bot level {level!r}; choose one of: {', '.join(LEVELS)}"
        ) from None
    return factory(seed)


__all__ = ["LEVELS", "Bot", "RandomBot", "make_bot"]
