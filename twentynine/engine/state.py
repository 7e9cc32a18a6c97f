"""The state of one round (one deal) and the small facts derived from it.

A ``RoundState`` is treated as immutable by everyone outside the engine: ``apply`` copies it
(one dict copy, cheap enough for search) and changes only the copy.
"""

from __future__ import annotations

import enum
from typing import Any, NamedTuple

from .cards import SUIT_MASKS, Card, mask_of
from .rules import Rules


class Phase(enum.IntEnum):
    AUCTION = 0
    TRUMP = 1
    DOUBLING = 2
    SEVENTH_REDOUBLE = 3
    SINGLE_HAND = 4
    SINGLE_HAND_DOUBLING = 5
    PLAY = 6
    OVER = 7


class TrumpMode(enum.IntEnum):
    NONE = 0  # not chosen yet, or a Single Hand (no trump)
    SUIT = 1  # named in hand, marked by an outside card
    SEVENTH = 2  # the suit of the bidder's 7th card
    HAND_CARD = 3  # a card from the bidder's hand laid face down


# Enum members bound once: looking one up on its Enum class is slow in Python 3.11,
# and these are read on every action.
PH_AUCTION = Phase.AUCTION
PH_OVER = Phase.OVER
TM_HAND_CARD = TrumpMode.HAND_CARD
TM_NONE = TrumpMode.NONE
TM_SEVENTH = TrumpMode.SEVENTH
TM_SUIT = TrumpMode.SUIT

TRUMP_MODE_NAMES = {
    TM_NONE: "none",
    TM_SUIT: "suit",
    TM_SEVENTH: "seventh",
    TM_HAND_CARD: "hand_card",
}

#: stake by doubling level: none, Double, Redouble, SetDouble
REGULAR_STAKES = (1, 2, 4, 6)
#: Single Hand stake by level: none, Double, Redouble
SINGLE_HAND_STAKES = (3, 6, 12)
DOUBLING_CALLS = ("", "double", "redouble", "setdouble")


class Trick(NamedTuple):
    leader: int
    plays: tuple[tuple[int, Card], ...]  # (seat, card) in the order played
    winner: int
    points: int  # card points, with the last-trick point where it counts


def partner(seat: int) -> int:
    return (seat + 2) & 3


def team_of(seat: int) -> int:
    return seat & 1


class RoundState:
    """One deal, from the first four cards to the result."""

    rules: Rules
    dealer: int
    deck: tuple[Card, ...]
    first_hand: int
    phase: Phase
    hands: tuple[int, int, int, int]  # masks of the cards each seat can play from
    # auction
    calls: tuple[tuple[int, int], ...]  # (seat, bid), 0 = pass
    holder: int
    bid: int
    speaker: int
    challenger: int
    challengers_heard: int  # duel: how many players have had their challenger turn
    out: int  # mask of seats out of the auction
    # contract
    bidder: int
    trump_mode: TrumpMode
    trump: int  # suit, or -1 while not chosen or unknown (seventh card before the deal)
    indicator: int  # the face-down card kept out of the bidder's hand, or -1
    trump_shown: bool
    shown_by: int
    shown_in_trick: int
    target: int
    double_level: int
    doubling_team: int
    doubling_step: int
    doubling_passed: int  # mask of seats who passed at the current step
    single_hand_turn: int  # offset from the first hand of the next Single Hand speaker
    caller: int  # Single Hand caller, or -1
    single_hand_level: int
    # play
    leader: int
    turn: int
    lead_suit: int
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]
    points: tuple[int, int]
    tricks_won: tuple[int, int]
    must_trump: int  # the seat that asked for trump and must trump with its next card
    trump_led: bool  # someone has led the trump suit (hidden or not)
    pair_by: int
    pair_window: int  # the seat that may declare the pair now, or -1
    # result
    outcome: str  # "", "won", "lost", "invalid"
    reason: str
    stake: int
    score_delta: tuple[int, int]
    early: bool
    #: every seat's legal actions, worked out once per state on demand
    legal_cache: list[Any] | None

    def copy(self) -> RoundState:
        new = _new_state(RoundState)
        d = self.__dict__.copy()
        d["legal_cache"] = None
        new.__dict__ = d
        return new

    # -- facts derived from the state -------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.phase is PH_OVER

    @property
    def is_single_hand(self) -> bool:
        return self.caller >= 0

    @property
    def contract(self) -> str:
        return "single_hand" if self.caller >= 0 else "regular"

    @property
    def current_stake(self) -> int:
        if self.caller >= 0:
            return SINGLE_HAND_STAKES[self.single_hand_level]
        return REGULAR_STAKES[self.double_level]

    def seat_cards(self, seat: int) -> int:
        """Every card the seat holds, the face-down indicator included."""
        held = self.hands[seat]
        if seat == self.bidder and self.indicator >= 0:
            held |= 1 << self.indicator
        return held

    def first_batch(self, seat: int) -> int:
        k = (seat - self.first_hand) & 3
        return mask_of(self.deck[4 * k : 4 * k + 4])

    def second_batch(self, seat: int) -> int:
        k = (seat - self.first_hand) & 3
        return mask_of(self.deck[16 + 4 * k : 20 + 4 * k])

    def seventh_card(self, seat: int) -> Card:
        return self.deck[16 + 4 * ((seat - self.first_hand) & 3) + 2]

    def trick_number(self) -> int:
        """1-based number of the trick in progress (or the last one, once over)."""
        return min(len(self.tricks) + 1, 8)

    def trump_mask(self) -> int:
        return SUIT_MASKS[self.trump] if self.trump >= 0 else 0

    def summary(self) -> dict[str, Any]:
        """The round's public result fields (for replays and logs)."""
        from .cards import SUITS

        over = self.phase is PH_OVER
        stake = self.stake if over else self.current_stake
        # an invalid deal in which nothing was staked (or no trick played) reports null, as a
        # deal without a contract does, rather than a 0 that reads like a figure
        void = over and self.outcome == "invalid"
        return {
            "complete": over,
            "outcome": self.outcome or None,
            "reason": self.reason or None,
            "bidder": self.bidder if self.bidder >= 0 else None,
            "bid": self.bid if self.bidder >= 0 else None,
            "contract": self.contract if self.bidder >= 0 else None,
            "caller": self.caller if self.caller >= 0 else None,
            "trump": SUITS[self.trump] if self.trump >= 0 else None,
            "trump_mode": TRUMP_MODE_NAMES[self.trump_mode] if self.bidder >= 0 else None,
            "trump_shown": self.trump_shown,
            "stake": None if self.bidder < 0 or (void and not stake) else stake,
            "target": self.target if self.bidder >= 0 and self.caller < 0 else None,
            "pair_by": self.pair_by if self.pair_by >= 0 else None,
            "points": list(self.points),
            "tricks_won": list(self.tricks_won),
            "score_delta": list(self.score_delta),
            "ended_after_trick": len(self.tricks) if over and self.tricks else None,
        }


_new_state = object.__new__


def new_state(rules: Rules, dealer: int, deck: tuple[Card, ...]) -> RoundState:
    st = RoundState.__new__(RoundState)
    st.rules = rules
    st.dealer = dealer
    st.deck = deck
    st.first_hand = (dealer + 1) & 3
    st.phase = PH_AUCTION
    st.hands = (0, 0, 0, 0)
    st.calls = ()
    st.holder = -1
    st.bid = 0
    st.speaker = st.first_hand
    st.challenger = st.first_hand
    st.challengers_heard = 1
    st.out = 0
    st.bidder = -1
    st.trump_mode = TM_NONE
    st.trump = -1
    st.indicator = -1
    st.trump_shown = False
    st.shown_by = -1
    st.shown_in_trick = -1
    st.target = 0
    st.double_level = 0
    st.doubling_team = -1
    st.doubling_step = 0
    st.doubling_passed = 0
    st.single_hand_turn = 0
    st.caller = -1
    st.single_hand_level = 0
    st.leader = -1
    st.turn = -1
    st.lead_suit = -1
    st.trick = ()
    st.tricks = ()
    st.points = (0, 0)
    st.tricks_won = (0, 0)
    st.must_trump = -1
    st.trump_led = False
    st.pair_by = -1
    st.pair_window = -1
    st.outcome = ""
    st.reason = ""
    st.stake = 0
    st.score_delta = (0, 0)
    st.early = False
    st.legal_cache = None
    return st
