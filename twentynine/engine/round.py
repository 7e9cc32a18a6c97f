"""The round's public API: start a round, who may act, the legal actions, and ``apply``."""

from __future__ import annotations

from collections.abc import Sequence

from . import auction, contract, tricks
from .actions import Act, Action, action_text
from .cards import ALL_CARDS, Card, card_code
from .errors import IllegalAction
from .events import Event
from .rules import Rules
from .state import Phase, RoundState, new_state

# Enum members bound once: looking one up on its Enum class is slow in Python 3.11,
# and these are read on every action.
ACT_BID = Act.BID
ACT_PLAY = Act.PLAY
PH_AUCTION = Phase.AUCTION
PH_DOUBLING = Phase.DOUBLING
PH_OVER = Phase.OVER
PH_PLAY = Phase.PLAY
PH_SEVENTH_REDOUBLE = Phase.SEVENTH_REDOUBLE
PH_SINGLE_HAND = Phase.SINGLE_HAND
PH_SINGLE_HAND_DOUBLING = Phase.SINGLE_HAND_DOUBLING
PH_TRUMP = Phase.TRUMP


def start_round(rules: Rules, dealer: int, deck: Sequence[Card]) -> tuple[RoundState, list[Event]]:
    """Deal the first four cards each from ``deck`` (the order cards leave the pack)."""
    if not 0 <= dealer <= 3:
        raise IllegalAction("bad_dealer", f"the dealer must be seat 0-3, not {dealer}")
    deck_t = tuple(deck)
    if sorted(deck_t) != list(ALL_CARDS):
        raise IllegalAction("bad_deck", "the deck must hold each of the 32 cards exactly once")
    st = new_state(rules, dealer, deck_t)
    ev: list[Event] = []
    if contract.deal_first(st, ev):
        auction.start(st, ev)
    return st, ev


def to_act(st: RoundState) -> tuple[int, ...]:
    """The seats that have at least one legal action now."""
    phase = st.phase
    if phase is PH_AUCTION:
        return (st.speaker,)
    if phase is PH_PLAY:
        if st.pair_window >= 0 and st.pair_window != st.turn:
            return tuple(sorted((st.turn, st.pair_window)))
        return (st.turn,)
    if phase is PH_TRUMP or phase is PH_SEVENTH_REDOUBLE:
        return (st.bidder,)
    if phase is PH_SINGLE_HAND:
        return (contract.single_hand_speaker(st),)
    if phase is PH_DOUBLING or phase is PH_SINGLE_HAND_DOUBLING:
        team = st.doubling_team
        return tuple(s for s in (team, team + 2) if not st.doubling_passed >> s & 1)
    return ()


def legal_actions(st: RoundState, seat: int | None = None) -> list[Action]:
    """Every legal action of ``seat``, or of every seat that may act when ``seat`` is None."""
    if seat is None:
        return _all_legal(st)[:]  # a copy: the cached list stays as it is
    return _legal_for(st, seat)


def _all_legal(st: RoundState) -> list[Action]:
    cached: list[Action] | None = st.legal_cache
    if cached is None:
        phase = st.phase
        if phase is PH_AUCTION:
            cached = auction.legal(st, st.speaker)
        elif phase is PH_PLAY and st.pair_window < 0:
            cached = tricks.legal(st, st.turn)
        elif phase is PH_DOUBLING or phase is PH_SINGLE_HAND_DOUBLING:
            team = st.doubling_team
            cached = contract.legal_doubling(st, team) + contract.legal_doubling(st, team + 2)
        elif phase is PH_SINGLE_HAND:
            cached = contract.legal_single_hand(st, contract.single_hand_speaker(st))
        elif phase is PH_TRUMP:
            cached = contract.legal_trump(st, st.bidder)
        else:
            cached = [a for s in to_act(st) for a in _legal_for(st, s)]
        st.legal_cache = cached
    return cached


def _legal_for(st: RoundState, seat: int) -> list[Action]:
    phase = st.phase
    if phase is PH_PLAY:
        return tricks.legal(st, seat)
    if phase is PH_AUCTION:
        return auction.legal(st, seat)
    if phase is PH_TRUMP:
        return contract.legal_trump(st, seat)
    if phase is PH_DOUBLING or phase is PH_SINGLE_HAND_DOUBLING:
        return contract.legal_doubling(st, seat)
    if phase is PH_SEVENTH_REDOUBLE:
        return contract.legal_seventh_redouble(st, seat)
    if phase is PH_SINGLE_HAND:
        return contract.legal_single_hand(st, seat)
    return []


def is_legal(st: RoundState, action: Action) -> bool:
    cached = st.legal_cache
    if cached is not None:  # someone asked for the legal actions here already
        return action in cached
    phase = st.phase
    if phase is PH_PLAY:
        return tricks.is_legal(st, action)
    if phase is PH_AUCTION:
        return auction.is_legal(st, action)
    return action in _all_legal(st)


_HANDLERS = {
    PH_AUCTION: auction.apply,
    PH_TRUMP: contract.apply_trump,
    PH_DOUBLING: contract.apply_doubling,
    PH_SINGLE_HAND_DOUBLING: contract.apply_doubling,
    PH_SEVENTH_REDOUBLE: contract.apply_seventh_redouble,
    PH_SINGLE_HAND: contract.apply_single_hand,
    PH_PLAY: tricks.apply,
}


def apply(st: RoundState, action: Action) -> tuple[RoundState, list[Event]]:
    """The state after ``action`` and the events it caused; ``st`` itself never changes.

    Raises ``IllegalAction`` (with the reason) when the action is not legal now.
    """
    if type(action) is not Action or type(action.act) is not Act or not is_legal(st, action):
        raise explain(st, action)
    new = st.copy()
    ev: list[Event] = []
    _HANDLERS[st.phase](new, action, ev)
    return new, ev


def explain(st: RoundState, action: object) -> IllegalAction:
    """The reason an action is illegal (only called on the slow, failing path)."""
    if not isinstance(action, Action):
        return IllegalAction("malformed", f"not an action: {action!r}")
    seat = action.seat
    if not isinstance(seat, int) or not 0 <= seat <= 3:
        return IllegalAction("bad_seat", f"there is no seat {seat!r}; seats are 0-3")
    text = _safe_text(action)
    if st.phase is PH_OVER:
        return IllegalAction("round_over", f"the round is over; seat {seat} cannot {text}")
    mine = _legal_for(st, seat)
    if not mine:
        return IllegalAction(
            "not_your_turn",
            f"seat {seat} cannot act now (waiting for seat(s) "
            f"{', '.join(map(str, to_act(st)))}); tried {text!r}",
        )
    if st.phase is PH_PLAY and action.act is ACT_PLAY:
        return _explain_card(st, action, mine)
    if st.phase is PH_AUCTION and action.act is ACT_BID:
        bids = [a.arg for a in mine if a.act is ACT_BID]
        if bids:
            return IllegalAction(
                "bad_bid", f"seat {seat} may bid {bids[0]}-{bids[-1]}, not {action.arg}"
            )
    allowed = ", ".join(action_text(a) for a in mine)
    return IllegalAction("not_allowed", f"seat {seat} cannot {text} now; legal: {allowed}")


def _explain_card(st: RoundState, action: Action, mine: list[Action]) -> IllegalAction:
    seat, card = action.seat, action.arg
    if not 0 <= card < 32:
        return IllegalAction("malformed", f"no such card: {card!r}")
    allowed = ", ".join(action_text(a) for a in mine)
    code = card_code(card)
    if not st.seat_cards(seat) >> card & 1:
        return IllegalAction("not_in_hand", f"seat {seat} does not hold {code}; legal: {allowed}")
    if st.trick and st.hands[seat] & (0xFF << (8 * st.lead_suit)) and card >> 3 != st.lead_suit:
        return IllegalAction("must_follow_suit", f"seat {seat} must follow suit; legal: {allowed}")
    if card == st.indicator:
        return IllegalAction(
            "indicator_hidden",
            f"the face-down trump card {code} cannot be played yet; legal: {allowed}",
        )
    return IllegalAction("not_allowed", f"seat {seat} cannot play {code} now; legal: {allowed}")


def _safe_text(action: Action) -> str:
    try:
        return action_text(action)
    except (IndexError, KeyError, TypeError, ValueError):
        return repr(action)
