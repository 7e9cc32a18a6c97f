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


#: variants kept for measuring (the arena, the Bhoos server), not offered at tables
VARIANTS: dict[str, Callable[[int | None], Bot]] = {
    # the expert before its calls were searched and its sampled deals weighed
    "expert-rules": lambda seed: ExpertBot(seed, calls="rules", inference=False),
    # the expert without inference alone (calls by search, every sampled deal alike)
    "expert-noinfer": lambda seed: ExpertBot(seed, inference=False),
}


def make_bot(level: str, seed: int | None = None) -> Bot:
    """A bot of ``level`` (see ``LEVELS``, and ``VARIANTS`` for measuring); ``seed`` makes its
    choices repeatable."""
    factory = LEVELS.get(level) or VARIANTS.get(level)
    if factory is None:
        raise ValueError(f"unknown bot level {level!r}; choose one of: {', '.join(LEVELS)}")
    return factory(seed)


__all__ = ["LEVELS", "VARIANTS", "Bot", "RandomBot", "make_bot"]
