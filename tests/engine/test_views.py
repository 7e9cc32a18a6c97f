"""Views hold exactly what their viewer may know: never a hidden card, never a hidden trump."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from twentynine.engine import Phase, RoundState, Rules, apply, legal_actions, start_round
from twentynine.engine.cards import card_code, parse_card
from twentynine.engine.state import partner
from twentynine.engine.views import View, seat_private_json, shared_json, spectator_view, view

from .kit import dealers, decks, rules_any


def allowed_cards(state: RoundState, seats: frozenset[int]) -> set[str]:
    """Card codes the viewer(s) may see, worked out from the rules, not from the view code."""
    played = {c for t in state.tricks for _, c in t.plays} | {c for _, c in state.trick}
    if state.is_over:
        return {card_code(c) for c in range(32)}
    ok = set(played)
    for seat in seats:
        if state.phase is Phase.SEVENTH_REDOUBLE and seat == state.bidder:
            ok |= {c for c in range(32) if state.first_batch(seat) >> c & 1}
            ok.add(state.seventh_card(seat))
            continue
        ok |= {c for c in range(32) if state.hands[seat] >> c & 1}
        if seat == state.bidder and state.indicator >= 0:
            ok.add(state.indicator)
        caller_played = bool(state.tricks) or any(s == seat for s, _ in state.trick)
        if state.caller == seat and caller_played:
            ok |= {c for c in range(32) if state.hands[partner(seat)] >> c & 1}
    return {card_code(c) for c in ok}


def codes_in(v: View) -> set[str]:
    data = v.to_json()
    found: set[str] = set()
    for hand in data["hands"]:
        found |= set(hand or [])
    if data["indicator"]:
        found.add(data["indicator"])
    found |= {c for _, c in data["trick"]}
    found |= {c for t in data["tricks"] for _, c in t["plays"]}
    for a in data["legal_json"]:
        if "card" in a:
            found.add(a["card"])
    return found


def check_view(state: RoundState, v: View, seats: frozenset[int]) -> None:
    assert codes_in(v) <= allowed_cards(state, seats)
    knows_trump = state.is_over or state.trump_shown or (state.bidder in seats)
    if v.trump is not None:
        assert knows_trump
    if not state.is_over:
        for s in range(4):
            if v.hands[s] is not None:
                assert s in seats or (state.caller in seats and s == partner(state.caller))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_any, dealer=dealers, deck=decks, seed=st.integers(0, 2**32))
def test_no_view_holds_a_hidden_card(rules: Rules, dealer: int, deck: list[int], seed: int) -> None:
    rng = random.Random(seed)
    state, _ = start_round(rules, dealer, deck)
    while True:
        for seat in range(4):
            check_view(state, view(state, seat), frozenset((seat,)))
        toggles = frozenset(s for s in range(4) if rng.random() < 0.4)
        check_view(state, spectator_view(state, toggles), toggles)
        if state.is_over:
            break
        legal = legal_actions(state)
        state, _ = apply(state, legal[rng.randrange(len(legal))])


def test_own_hand_and_legal_actions_in_view() -> None:
    rng = random.Random(7)
    deck = list(range(32))
    rng.shuffle(deck)
    from twentynine.engine import STANDARD

    state, _ = start_round(STANDARD, 0, deck)
    for seat in range(4):
        v = view(state, seat)
        assert v.hands[seat] is not None and len(v.hands[seat] or ()) == 4
        assert v.legal == tuple(legal_actions(state, seat))
        assert all(v.hands[s] is None for s in range(4) if s != seat)
    empty = spectator_view(state)
    assert all(h is None for h in empty.hands) and empty.legal == ()


def test_trump_hidden_from_all_but_bidder_until_shown() -> None:
    from twentynine.engine import house_rules, parse_action

    rules = house_rules("standard", {"single_hand": False, "doubling": "none"})
    rng = random.Random(11)
    for _ in range(50):
        deck = list(range(32))
        rng.shuffle(deck)
        state, _ = start_round(rules, 3, deck)
        if state.is_over:
            continue
        first = state.first_hand
        state, _ = apply(state, parse_action("bid 16", first))
        for seat in (1, 2, 3):
            state, _ = apply(state, parse_action("pass", (first + seat) % 4))
        state, _ = apply(state, parse_action("trump H", first))
        if state.is_over:
            continue
        for seat in range(4):
            v = view(state, seat)
            assert (v.trump == parse_card("JH") >> 3) == (seat == first)
        return
    raise AssertionError("no deal reached the play")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_any, dealer=dealers, deck=decks, seed=st.integers(0, 2**32))
def test_public_part_is_the_same_for_every_viewer(
    rules: Rules, dealer: int, deck: list[int], seed: int
) -> None:
    """What a server builds once per state and sends to everyone holds nothing private: it is
    the same in every seat's view and every spectator's, and the private part completes it."""
    from twentynine.engine.views import PRIVATE_FIELDS

    rng = random.Random(seed)
    state, _ = start_round(rules, dealer, deck)
    while True:
        views = [view(state, seat) for seat in range(4)]
        views += [spectator_view(state), spectator_view(state, {0, 1, 2, 3})]
        public = views[0].public_json()
        assert not set(public) & set(PRIVATE_FIELDS)
        assert shared_json(state) == public  # built straight from the state
        for seat in range(4):  # and a seat's private part, without the rest of its view
            assert seat_private_json(state, seat) == views[seat].private_json()
        for v in views:
            assert v.public_json() == public
            assert set(v.private_json()) == set(PRIVATE_FIELDS)
            assert v.to_json() == {**public, **v.private_json()}
        if state.is_over:
            break
        legal = legal_actions(state)
        state, _ = apply(state, legal[rng.randrange(len(legal))])
