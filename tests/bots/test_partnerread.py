"""Reading a partner's hand from its cards (``partnerread.py``): past positions rebuilt from a
deal of now are the positions the deal really passed through, and a deal in which the
partner's card threw the contract away is weighed down."""

from __future__ import annotations

import random

from twentynine.bots import make_bot
from twentynine.bots.need import points_needed
from twentynine.bots.partnerread import PartnerReading, position_before
from twentynine.bots.solver import solve
from twentynine.engine.actions import Act, Action
from twentynine.engine.round import apply, legal_actions, start_round, to_act
from twentynine.engine.rules import preset
from twentynine.engine.state import Phase, RoundState
from twentynine.engine.views import view

BHOOS = preset("bhoos")
FIELDS = ("hands", "trick", "tricks", "points", "tricks_won", "leader", "turn", "lead_suit")


def played_round(seed: int) -> tuple[list[tuple[RoundState, int, int]], RoundState]:
    """A deal of intermediate players under bhoos: the state before each card played (with the
    trick's index and the card's place in it), and the state at the last card of the deal."""
    rng = random.Random(seed)
    deck = list(range(32))
    rng.shuffle(deck)
    st, _ = start_round(BHOOS, seed % 4, deck)
    bots = [make_bot("intermediate", s) for s in range(4)]
    before: list[tuple[RoundState, int, int]] = []
    last = st
    while not st.is_over:
        seat = to_act(st)[0]
        action = bots[seat].choose(view(st, seat))
        if st.phase is Phase.PLAY and action.act is Act.PLAY:
            before.append((st, len(st.tricks), len(st.trick)))
            last = st
        st, _ = apply(st, action)
    return before, last


def test_a_rebuilt_position_is_the_one_the_deal_passed_through() -> None:
    rebuilt = skipped = 0
    for seed in range(12):
        before, last = played_round(seed)
        for true, trick, index in before[:-1]:
            got = position_before(last, trick, index)
            if got is None:
                # only where the trump was shown after it, or a seat must trump now
                assert (last.trump_shown and last.shown_in_trick > trick) or last.must_trump >= 0
                skipped += 1
                continue
            for name in FIELDS:
                assert getattr(got, name) == getattr(true, name), (seed, trick, index, name)
            assert set(legal_actions(got, got.turn)) == set(legal_actions(true, true.turn))
            rebuilt += 1
    assert rebuilt > 100 and skipped > 0


def test_a_deal_where_the_partners_card_dropped_the_contract_is_weighed_down() -> None:
    checked = {True: 0, False: 0}
    for seed in range(12):
        before, last = played_round(seed)
        seat = last.turn
        reading = PartnerReading(view(last, seat), limit=8)
        expected = 1.0
        partner = (seat + 2) % 4
        for true, _, _ in before[:-1]:
            if true.turn != partner:
                continue
            if position_before(last, len(true.tricks), len(true.trick)) is None:
                continue
            need, left = points_needed(true, partner)
            if not 0 < need <= left:
                continue
            values = solve(true)  # the exact values, not the reading's null-window test
            card = card_played(true, before, last)
            dropped = values_for(values, card) < need <= max(values.values())
            checked[dropped] += 1
            expected *= 0.5 if dropped else 1.0
        assert reading.weight(last, penalty=0.5) == expected
    assert checked[True] > 0 and checked[False] > 0


def values_for(values: dict[Action, int], card: int) -> int:
    return next(v for a, v in values.items() if a.act is Act.PLAY and a.arg == card)


def card_played(
    true: RoundState, before: list[tuple[RoundState, int, int]], last: RoundState
) -> int:
    """The card played from ``true``: the one the next recorded state has in its place."""
    i = [b[0] for b in before].index(true)
    after = before[i + 1][0] if i + 1 < len(before) else last
    plays = [p for t in after.tricks for p in t.plays] + list(after.trick)
    return plays[sum(len(t.plays) for t in true.tricks) + len(true.trick)][1]
