"""Full engine states for hidden worlds: a drawn state shows its seat exactly the seat's view,
in the play and before it (every preset's random deals: ``test_knowledge.check_sample``)."""

from __future__ import annotations

import random

from tests.bots.test_knowledge import random_play
from twentynine.bots.worlds import sample_world
from twentynine.engine import STANDARD, Phase
from twentynine.engine.views import View, view


def test_sampling_is_repeatable_and_leaves_the_view_alone() -> None:
    rng = random.Random(5)
    states = [st for st in random_play(STANDARD, 3, rng) if st.phase is Phase.PLAY]
    st = states[len(states) // 2]
    v = view(st, 1)
    before = v.to_json()
    a = sample_world(v, random.Random(9))
    b = sample_world(v, random.Random(9))
    assert a.hands == b.hands and a.deck == b.deck and a.trump == b.trump
    assert v.to_json() == before


def test_views_of_earlier_phases_sample_too() -> None:
    rng = random.Random(4)
    phases: set[Phase] = set()
    for st in random_play(STANDARD, 60, rng):
        for seat in range(4):
            v: View = view(st, seat)
            world = sample_world(v, rng)
            assert view(world, seat) == v
        phases.add(st.phase)
    assert {Phase.AUCTION, Phase.TRUMP, Phase.DOUBLING, Phase.SINGLE_HAND} <= phases
