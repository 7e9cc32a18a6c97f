"""The random bot: any legal action, uniformly (for tests and as a floor)."""

from __future__ import annotations

import random

from ..engine.actions import Action
from ..engine.views import View


class RandomBot:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError("no legal action in this view: it is not this seat's turn")
        return legal[self.rng.randrange(len(legal))]
