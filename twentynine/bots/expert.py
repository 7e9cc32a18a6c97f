"""The expert: in the play, it samples the hidden hands consistently with everything public (the
auction, voids shown, reveals, the cards played) and solves each sampled deal exactly; it picks
the action that makes (or beats) the contract in most of them, then the one worth most points.
Before the play it bids, names trump and doubles like the intermediate player.

It plays from its seat's view only: the sampled deals are built from the view, never from the
real game.
"""

from __future__ import annotations

import random
import time

from ..engine.actions import Act, Action
from ..engine.state import Phase, RoundState
from ..engine.views import View
from .intermediate import IntermediateBot
from .knowledge import Knowledge, sample_world
from .solver import solve

DEFAULT_BUDGET_MS = 220
MAX_WORLDS = 48
MIN_WORLDS = 2


class ExpertBot(IntermediateBot):
    name = "expert"
    #: it searches with the compiled solver: warm it up (``solver.warm_up``) before serving
    uses_solver = True

    def __init__(
        self, seed: int | None = None, budget_ms: int = DEFAULT_BUDGET_MS, worlds: int = 0
    ) -> None:
        super().__init__(seed)
        self.rng = random.Random(seed)
        #: the time this bot may think about one decision (the Bhoos server may lower it)
        self.budget_ms = budget_ms
        #: solve exactly this many sampled deals, whatever the time (repeatable, for tests)
        self.fixed_worlds = worlds

    def choose(self, view: View) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if view.phase is Phase.PLAY and view.caller is None:
            pair = next((a for a in legal if a.act is Act.PAIR), None)
            if pair is not None:  # a pair always helps the team that declares it
                return pair
            choice = self._search(view)
            if choice is not None:
                return choice
        return super().choose(view)

    # -- the play ------------------------------------------------------------------------------
    def _search(self, view: View) -> Action | None:
        seat = view.viewer
        assert seat is not None
        deadline = time.perf_counter() + self.budget_ms / 1000 * 0.8
        knowledge = Knowledge.from_view(view)
        wins: dict[Action, float] = {}
        points: dict[Action, float] = {}
        worlds = 0
        fixed = self.fixed_worlds
        while (
            (worlds < fixed)
            if fixed
            else worlds < MAX_WORLDS and (worlds < MIN_WORLDS or time.perf_counter() < deadline)
        ):
            try:
                world = sample_world(view, self.rng, knowledge)
            except Exception:  # no consistent deal found: fall back on the heuristics
                break
            values = solve(world)
            worlds += 1
            for action, value in values.items():
                wins[action] = wins.get(action, 0.0) + self._makes(world, view, value)
                points[action] = points.get(action, 0.0) + value
            if not fixed and time.perf_counter() > deadline and worlds >= MIN_WORLDS:
                break
        if not worlds:
            return None
        legal = set(view.legal)
        scored = [a for a in wins if a in legal]
        if not scored:
            return None
        return max(scored, key=lambda a: (wins[a], points[a], -_order(a)))

    @staticmethod
    def _makes(world: RoundState, view: View, value: int) -> float:
        """1 if, with ``value`` more points to the mover's team, its side of the contract holds."""
        seat = view.viewer
        assert seat is not None
        mine = seat & 1
        bidders = world.bidder & 1
        taken = world.points
        left = 28 + world.rules.last_trick_point - taken[0] - taken[1]
        bidder_total = taken[bidders] + (value if mine == bidders else left - value)
        made = bidder_total >= world.target
        return 1.0 if made == (mine == bidders) else 0.0


def _order(a: Action) -> int:
    """A stable tie-break: keep low cards (play the cheaper of equal choices)."""
    return a.arg if a.act is Act.PLAY else 99
