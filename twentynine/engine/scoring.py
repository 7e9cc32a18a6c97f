"""Ending a round: invalid rounds, the result of a played round, and early finish (RULES.md §7)."""

from __future__ import annotations

from .cards import KING, QUEEN, SUIT_MASKS
from .events import Event, RoundEnded, RoundInvalid
from .state import REGULAR_STAKES, SINGLE_HAND_STAKES, Phase, RoundState, team_of

# Enum members bound once: looking one up on its Enum class is slow in Python 3.11,
# and these are read on every action.
PH_OVER = Phase.OVER


def end_invalid(st: RoundState, reason: str, ev: list[Event]) -> None:
    st.phase = PH_OVER
    st.outcome = "invalid"
    st.reason = reason
    st.stake = 0
    st.score_delta = (0, 0)
    st.pair_window = -1
    st.must_trump = -1
    ev.append(RoundInvalid(reason))
    ev.append(RoundEnded("invalid", False, (0, 0)))


def end_played(st: RoundState, ev: list[Event]) -> None:
    """Score a round whose result is known (all tricks played, settled early, or a lost
    Single Hand)."""
    rules = st.rules
    n_tricks = len(st.tricks)
    if st.caller >= 0:
        team = team_of(st.caller)
        made = st.tricks_won[team] == 8
        stake = SINGLE_HAND_STAKES[st.single_hand_level]
    else:
        if n_tricks == 8 and not st.trump_shown and rules.invalid_trump_never_shown:
            end_invalid(st, "trump_never_shown", ev)
            return
        team = team_of(st.bidder)
        made = st.points[team] >= st.target
        stake = REGULAR_STAKES[st.double_level]
        if rules.all_tricks_bonus and st.double_level == 0 and 8 in st.tricks_won:
            stake = 2
        if not made and rules.half_bid_penalty and 2 * st.points[team] < st.target:
            stake *= 2
    delta = stake if made else -stake
    st.phase = PH_OVER
    st.outcome = "won" if made else "lost"
    st.stake = stake
    st.score_delta = (delta, 0) if team == 0 else (0, delta)
    st.early = n_tricks < 8
    st.pair_window = -1
    st.must_trump = -1
    ev.append(RoundEnded(st.outcome, st.early, st.score_delta))


def pair_still_possible(st: RoundState) -> bool:
    """Could a royal pair still change the target? (A pair the min/max clamp cancels cannot.)"""
    rules = st.rules
    if st.pair_by >= 0 or rules.pair_timing != "after_trick_won":
        return False
    base = st.trump * 8
    kq = (1 << (base + KING)) | (1 << (base + QUEEN))
    bidders = team_of(st.bidder)
    for seat, hand in enumerate(st.hands):  # an open pair window means the holder has both
        if hand & kq == kq:
            if team_of(seat) == bidders:
                target = max(rules.min_bid, st.target - 4)
            else:
                target = min(rules.max_bid, st.target + 4)
            if target != st.target:
                return True
    return False


def settled(st: RoundState) -> bool:
    """Is a regular round's result decided (RULES.md §7, early finish)?"""
    if not st.trump_shown or st.caller >= 0:
        return False
    if st.rules.all_tricks_bonus and st.double_level == 0 and 0 in st.tricks_won:
        return False
    if pair_still_possible(st):
        return False
    team = team_of(st.bidder)
    have = st.points[team]
    if have >= st.target:
        return True
    out = 28 - st.points[0] - st.points[1]
    if st.rules.last_trick_point and len(st.tricks) < 8:
        out += 1
    return have + out < st.target


def holds_pair(hand: int, trump: int) -> bool:
    kq = SUIT_MASKS[trump] & ((1 << (trump * 8 + KING)) | (1 << (trump * 8 + QUEEN)))
    return hand & kq == kq
