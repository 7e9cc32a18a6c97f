"""Events: what happened, as ``apply`` reports it. Every event is public by construction —
none carries a card or a suit that some seat may not know at that moment — so an event can be
sent to every viewer as it is. Private knowledge reaches a viewer only through ``views``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .cards import SUITS, card_code


class Dealt(NamedTuple):
    batch: int  # 1: the first four cards each, 2: the second four


class BidMade(NamedTuple):
    seat: int
    bid: int


class Passed(NamedTuple):
    seat: int
    stage: str  # "auction", "double", "redouble", "setdouble", "single_hand"


class AuctionWon(NamedTuple):
    bidder: int
    bid: int
    forced: bool  # the dealer was forced to take the minimum bid


class TrumpChosen(NamedTuple):
    seat: int
    mode: str  # "suit" (in hand), "seventh", "hand_card": the suit itself stays hidden


class StakeRaised(NamedTuple):
    seat: int
    call: str  # "double", "redouble", "setdouble"
    stake: int


class SingleHandCalled(NamedTuple):
    seat: int


class TrumpShown(NamedTuple):
    seat: int  # who asked, or whose play or turn showed it
    suit: int
    trick: int  # 1-based trick in which it was shown
    indicator: int  # the face-down card that joined the bidder's hand, or -1


class PairDeclared(NamedTuple):
    seat: int
    target: int


class CardPlayed(NamedTuple):
    seat: int
    card: int


class TrickWon(NamedTuple):
    trick: int  # 1-based
    winner: int
    points: int


class RoundInvalid(NamedTuple):
    reason: str


class RoundEnded(NamedTuple):
    outcome: str  # "won", "lost" (by the bidder's team), "invalid"
    early: bool  # ended before all eight tricks were played
    score_delta: tuple[int, int]


Event = (
    Dealt
    | BidMade
    | Passed
    | AuctionWon
    | TrumpChosen
    | StakeRaised
    | SingleHandCalled
    | TrumpShown
    | PairDeclared
    | CardPlayed
    | TrickWon
    | RoundInvalid
    | RoundEnded
)

_KINDS: dict[type, str] = {
    Dealt: "dealt",
    BidMade: "bid",
    Passed: "pass",
    AuctionWon: "auction_won",
    TrumpChosen: "trump_chosen",
    StakeRaised: "stake_raised",
    SingleHandCalled: "single_hand",
    TrumpShown: "trump_shown",
    PairDeclared: "pair",
    CardPlayed: "card_played",
    TrickWon: "trick_won",
    RoundInvalid: "round_invalid",
    RoundEnded: "round_ended",
}


def event_kind(event: Event) -> str:
    return _KINDS[type(event)]


def event_json(event: Event) -> dict[str, Any]:
    out: dict[str, Any] = {"type": _KINDS[type(event)]}
    value: Any
    for name, value in zip(event._fields, event, strict=True):
        if name == "card" or (name == "indicator" and value >= 0):
            value = card_code(value)
        elif name == "indicator":
            value = None
        elif name == "suit":
            value = SUITS[value]
        elif isinstance(value, tuple):
            value = list(value)
        out[name] = value
    return out
