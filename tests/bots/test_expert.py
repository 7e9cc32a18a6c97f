"""The expert: legal under every preset, blind to hidden cards, and better than intermediate."""

from __future__ import annotations

import random

import pytest

from twentynine.bots import make_bot
from twentynine.bots.expert import ExpertBot
from twentynine.engine import PRESETS, STANDARD, apply, legal_actions, start_round
from twentynine.engine.round import to_act
from twentynine.engine.views import view

from .test_bots import play_deal


@pytest.mark.parametrize("name", list(PRESETS))
def test_expert_finishes_deals_under_every_preset(name: str) -> None:
    rules = PRESETS[name].rules
    rng = random.Random(f"expert-{name}")
    for n in range(3):
        deck = list(range(32))
        rng.shuffle(deck)
        bots = [
            ExpertBot(n * 4 + s, worlds=2) if s % 2 == n % 2 else make_bot("random", s)
            for s in range(4)
        ]
        assert play_deal(rules, rng.randrange(4), deck, bots).is_over


def test_expert_decision_ignores_cards_it_cannot_see() -> None:
    """Two deals that differ only in two cards swapped between the other seats' hidden hands
    give the expert equal views, and it decides the same in both."""
    rules = STANDARD.with_options(single_hand=False, doubling="none")
    rng = random.Random(5)
    checked = 0
    for _ in range(60):
        deck = list(range(32))
        rng.shuffle(deck)
        st, _ = start_round(rules, 3, deck)
        while not st.is_over and st.phase.name != "PLAY":
            st, _ = apply(st, rng.choice(legal_actions(st)))
        if st.is_over:
            continue
        seat = to_act(st)[0]
        others = [s for s in range(4) if s != seat]
        a, b = others[0], others[1]
        ca = next((c for c in range(32) if st.hands[a] >> c & 1), None)
        cb = next((c for c in range(32) if st.hands[b] >> c & 1), None)
        if ca is None or cb is None:
            continue
        twin = st.copy()
        hands = list(twin.hands)
        hands[a] ^= (1 << ca) | (1 << cb)
        hands[b] ^= (1 << ca) | (1 << cb)
        twin.hands = (hands[0], hands[1], hands[2], hands[3])
        v1, v2 = view(st, seat), view(twin, seat)
        if v1 != v2:
            continue  # the swap showed in the view (a void): not a hidden-only difference
        d1 = ExpertBot(11, worlds=3).choose(v1)
        d2 = ExpertBot(11, worlds=3).choose(v2)
        assert d1 == d2
        checked += 1
        if checked >= 5:
            break
    assert checked >= 3


def test_the_expert_level_solves_more_sampled_deals_than_expert_rules() -> None:
    expert, before = make_bot("expert", 1), make_bot("expert-rules", 1)
    assert isinstance(expert, ExpertBot) and isinstance(before, ExpertBot)
    assert expert.max_worlds == 96 > before.max_worlds
    assert not expert.calls_by_search and not expert.inference and not expert.play_inference
