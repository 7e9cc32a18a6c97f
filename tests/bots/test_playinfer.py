"""Soft inference from the play: a point card given to a trick its side had lost makes the deals
where that seat held a cheaper card it could play the less likely."""

from __future__ import annotations

import random

import pytest

from twentynine.bots import make_bot
from twentynine.bots.expert import ExpertBot
from twentynine.bots.playinfer import (
    DISCARD_PENALTY,
    FOLLOW_PENALTY,
    RUFF_PENALTY,
    Observations,
    cheaper_cards,
)
from twentynine.engine import STANDARD, apply, start_round
from twentynine.engine.cards import POINT_CARDS, SUIT_MASKS, parse_card
from twentynine.engine.round import to_act
from twentynine.engine.state import Phase, RoundState
from twentynine.engine.views import View, view


def test_cheaper_cards() -> None:
    jack = parse_card("JS")
    assert cheaper_cards(jack, 1 << 3) == SUIT_MASKS[3] & ~(1 << jack)
    ace = parse_card("AS")
    low = cheaper_cards(ace, 1 << 3)
    assert low == SUIT_MASKS[3] & ~POINT_CARDS
    assert cheaper_cards(parse_card("7S"), 0xF) == 0


def _views(deals: int, seed: int) -> list[tuple[RoundState, View]]:
    """(state, view of the seat to play) at each card of deals played by intermediates."""
    rng = random.Random(seed)
    out: list[tuple[RoundState, View]] = []
    for d in range(deals):
        deck = list(range(32))
        rng.shuffle(deck)
        bots = [make_bot("intermediate", d * 4 + s) for s in range(4)]
        st, _ = start_round(STANDARD, d % 4, deck)
        while not st.is_over:
            seat = to_act(st)[0]
            v = view(st, seat)
            if v.phase is Phase.PLAY and v.caller is None:
                out.append((st, v))
            st, _ = apply(st, bots[seat].choose(v))
    return out


def _swap(st: RoundState, a: int, ca: int, b: int, cb: int) -> RoundState:
    twin = st.copy()
    hands = list(twin.hands)
    hands[a] ^= (1 << ca) | (1 << cb)
    hands[b] ^= (1 << ca) | (1 << cb)
    twin.hands = (hands[0], hands[1], hands[2], hands[3])
    return twin


def test_observations_are_point_cards_into_lost_tricks() -> None:
    found = 0
    for _, v in _views(20, 1):
        for ob in Observations.from_view(v).items:
            found += 1
            assert ob.seat != v.viewer
            assert POINT_CARDS >> ob.card & 1
            assert ob.follow == (ob.card >> 3 == ob.lead)
    assert found > 20


def test_a_cheaper_card_held_lowers_the_weight() -> None:
    """Giving the observed seat a cheaper card of the suit it followed (from a seat that is
    not the viewer) multiplies the deal's weight by the penalty."""
    checked = 0
    for st, v in _views(30, 2):
        obs = Observations.from_view(v)
        base = obs.weight(st)
        for ob in obs.items:
            if not ob.follow or base != 1.0:
                continue
            low = cheaper_cards(ob.card, 1 << ob.lead)
            others = [s for s in range(4) if s not in (ob.seat, v.viewer)]
            held = [(s, (st.hands[s] & low).bit_length() - 1) for s in others]
            give = next(((s, c) for s, c in held if c >= 0), None)
            mine = st.hands[ob.seat] & ~SUIT_MASKS[ob.lead]
            if give is None or not mine:
                continue
            s, c = give
            twin = _swap(st, s, c, ob.seat, mine.bit_length() - 1)
            assert twin.hands[ob.seat] >> c & 1
            assert obs.weight(twin) <= FOLLOW_PENALTY
            checked += 1
    assert checked > 3
    assert DISCARD_PENALTY > FOLLOW_PENALTY


def test_expert_weighs_by_the_play_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = Observations.weight

    def counting(self: Observations, world: RoundState) -> float:
        calls.append(1)
        return real(self, world)

    monkeypatch.setattr(Observations, "weight", counting)
    pairs = _views(2, 3)
    plain = ExpertBot(1, worlds=4, calls="rules", inference=False)
    for _, v in pairs[:10]:
        plain.choose(v)
    assert not calls
    weighing = make_bot("expert-play", 1)
    assert isinstance(weighing, ExpertBot)
    weighing.fixed_worlds = 4
    for _, v in pairs[:10]:
        weighing.choose(v)
    assert calls


def test_a_trump_that_would_have_won_lowers_the_weight_when_asked() -> None:
    """Off by default; asked for, a deal where a seat that threw a plain card into a lost trick
    worth points held a trump that would have won it weighs less."""
    assert RUFF_PENALTY == 1.0
    checked = 0
    for st, v in _views(40, 4):
        assert not any(ob.ruff for ob in Observations.from_view(v).items)
        obs = Observations.from_view(v, 1.0, 1.0, 0.4)
        for ob in obs.items:
            if not ob.ruff:
                continue
            assert not ob.follow and v.trump is not None
            assert ob.ruff & ~SUIT_MASKS[v.trump] == 0
            others = [s for s in range(4) if s not in (ob.seat, v.viewer)]
            held = [(s, (st.hands[s] & ob.ruff).bit_length() - 1) for s in others]
            give = next(((s, c) for s, c in held if c >= 0), None)
            mine = st.hands[ob.seat] & ~ob.ruff & ~SUIT_MASKS[ob.lead]
            if give is None or not mine or st.hands[ob.seat] & ob.ruff:
                continue
            s, c = give
            base = obs.weight(st)
            twin = _swap(st, s, c, ob.seat, mine.bit_length() - 1)
            assert obs.weight(twin) <= base * 0.4 + 1e-12
            checked += 1
    assert checked > 0
