"""The expert: legal under every preset, blind to hidden cards, and better than intermediate."""

from __future__ import annotations

import random

import pytest

from twentynine.bots import make_bot
from twentynine.bots.expert import ExpertBot
from twentynine.engine import PRESETS, STANDARD, apply, legal_actions, start_round
from twentynine.engine.round import to_act
from twentynine.engine.views import View, view

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


def _play_views(rules_name: str, seed: int, count: int) -> list[View]:
    """Views of seats to play (several cards in hand, more than one legal card) from random
    deals played at random under ``rules_name``."""
    rules = PRESETS[rules_name].rules
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        deck = list(range(32))
        rng.shuffle(deck)
        st, _ = start_round(rules, rng.randrange(4), deck)
        while not st.is_over:
            seat = to_act(st)[0]
            legal = legal_actions(st)
            if st.phase.name == "PLAY" and st.caller < 0 and len(legal) > 1 and rng.random() < 0.3:
                out.append(view(st, seat))
                break
            st, _ = apply(st, rng.choice(legal))
    return out


@pytest.mark.parametrize("name", ["bhoos", "standard"])
def test_tests_from_counts_the_same_deals_made_as_the_values(name: str) -> None:
    """With ``tests_from`` the expert searches each sampled deal only for whether each card
    makes (or beats) the contract: on the same sampled deals (the same seed) it counts, for
    every card, exactly the deals the exact values count."""
    compared = bounds = 0
    for v in _play_views(name, 3, 8):
        exact = ExpertBot(5, worlds=4, calls="rules", inference=False)._tally(v)
        tested = ExpertBot(5, worlds=4, calls="rules", inference=False, tests_from=1)._tally(v)
        assert exact is not None and tested is not None
        assert exact[0] == tested[0]
        compared += 1
        bounds += exact[1] != tested[1]  # the tests' points are bounds, not the values
    assert compared == 8 and bounds > 0


def test_expert_tests_variant_tests_the_first_cards() -> None:
    bot = make_bot("expert-tests", 1)
    assert isinstance(bot, ExpertBot) and bot.tests_from == 6
    assert make_bot("expert", 1).tests_from == 0  # type: ignore[attr-defined]
