"""The auction (RULES.md §3): duel, open and first-forced."""

from __future__ import annotations

from .actions import BIDS, SIMPLE_ACTIONS, Act, Action
from .events import AuctionWon, BidMade, Event, Passed
from .scoring import end_invalid
from .state import Phase, RoundState

# Enum members bound once: looking one up on its Enum class is slow in Python 3.11,
# and these are read on every action.
ACT_BID = Act.BID
ACT_PASS = Act.PASS
PH_AUCTION = Phase.AUCTION


def legal(st: RoundState, seat: int) -> list[Action]:
    if seat != st.speaker:
        return []
    rules = st.rules
    if rules.auction == "duel" and st.holder >= 0 and seat == st.holder:
        top = rules.max_bid if rules.defender_may_raise else st.bid
        return [*BIDS[seat][st.bid : top + 1], SIMPLE_ACTIONS[seat][ACT_PASS]]
    low = st.bid + 1 if st.holder >= 0 else rules.min_bid
    out = list(BIDS[seat][low : rules.max_bid + 1])
    if not (rules.first_bid_required and st.holder < 0 and seat == st.first_hand):
        out.append(SIMPLE_ACTIONS[seat][ACT_PASS])
    return out


def is_legal(st: RoundState, action: Action) -> bool:
    """The same answer as ``action in legal(st, action.seat)``, without building the list."""
    seat = action.seat
    if seat != st.speaker:
        return False
    rules = st.rules
    if action.act is ACT_PASS:
        return not (rules.first_bid_required and st.holder < 0 and seat == st.first_hand)
    if action.act is not ACT_BID:
        return False
    value = action.arg
    if rules.auction == "duel" and st.holder >= 0 and seat == st.holder:
        if rules.defender_may_raise:
            return type(value) is int and st.bid <= value <= rules.max_bid
        return value == st.bid
    low = st.bid + 1 if st.holder >= 0 else rules.min_bid
    return type(value) is int and low <= value <= rules.max_bid


def start(st: RoundState, ev: list[Event]) -> None:
    st.phase = PH_AUCTION
    st.speaker = st.first_hand
    if st.rules.auction == "first_forced":
        # the first hand opens at the minimum without being asked, and holds that bid
        _record_bid(st, st.first_hand, st.rules.min_bid, ev)
        st.holder = st.first_hand
        st.speaker = _next_in(st, st.first_hand)


def apply(st: RoundState, action: Action, ev: list[Event]) -> None:
    seat = action.seat
    if st.rules.auction == "duel":
        _duel(st, seat, action, ev)
    else:
        _open(st, seat, action, ev)


def _record_bid(st: RoundState, seat: int, value: int, ev: list[Event]) -> None:
    st.calls = (*st.calls, (seat, value))
    st.bid = value
    ev.append(BidMade(seat, value))


def _record_pass(st: RoundState, seat: int, ev: list[Event]) -> None:
    st.calls = (*st.calls, (seat, 0))
    st.out |= 1 << seat
    ev.append(Passed(seat, "auction"))


def _duel(st: RoundState, seat: int, action: Action, ev: list[Event]) -> None:
    if seat == st.holder:  # the holder answers a higher bid
        if action.act is ACT_BID:
            _record_bid(st, seat, action.arg, ev)
            st.speaker = st.challenger
        else:
            _record_pass(st, seat, ev)
            st.holder = st.challenger
            _next_challenger(st, ev)
        return
    if action.act is ACT_BID:
        _record_bid(st, seat, action.arg, ev)
        if st.holder < 0:
            st.holder = seat
            _next_challenger(st, ev)
        else:
            st.speaker = st.holder
    else:
        _record_pass(st, seat, ev)
        _next_challenger(st, ev)


def _next_challenger(st: RoundState, ev: list[Event]) -> None:
    if st.challengers_heard == 4:
        _close(st, ev)
        return
    st.challenger = (st.first_hand + st.challengers_heard) & 3
    st.challengers_heard += 1
    st.speaker = st.challenger


def _next_in(st: RoundState, seat: int) -> int:
    for k in range(1, 4):
        nxt = (seat + k) & 3
        if not st.out >> nxt & 1:
            return nxt
    return seat


def _open(st: RoundState, seat: int, action: Action, ev: list[Event]) -> None:
    rules = st.rules
    if action.act is ACT_BID:
        _record_bid(st, seat, action.arg, ev)
        st.holder = seat
        if action.arg == rules.max_bid:
            _close(st, ev)
            return
    else:
        _record_pass(st, seat, ev)
        passed = st.out.bit_count()
        if st.holder >= 0 and passed == 3:
            _close(st, ev)
            return
        if st.holder < 0 and passed == 3 and rules.all_pass == "dealer_forced_min":
            _close(st, ev)  # the dealer is forced to the minimum without speaking
            return
        if passed == 4:
            _close(st, ev)
            return
    st.speaker = _next_in(st, seat)


def _close(st: RoundState, ev: list[Event]) -> None:
    from .contract import start_trump

    forced = False
    if st.holder < 0:
        if st.rules.all_pass != "dealer_forced_min":
            end_invalid(st, "all_passed", ev)
            return
        _record_bid(st, st.dealer, st.rules.min_bid, ev)
        st.holder = st.dealer
        forced = True
    st.bidder = st.holder
    st.target = st.bid
    st.speaker = -1
    ev.append(AuctionWon(st.bidder, st.bid, forced))
    start_trump(st)
