"""The Bhoos 2023 bot protocol's vocabulary (``shared/BHOOS-PROTOCOL.md``): its players, cards,
suits and time, and a request body read and checked into a typed ``Request``.

Players ``A1 B1 A2 B2`` (``playerIds`` in turn order) are engine seats counted from the first
hand: with dealer 3, as the server always deals, ``A1`` is seat 0 (the first hand, who bids and
leads first), ``B1`` seat 1, ``A2`` seat 2 and ``B2`` seat 3. Cards are rank then suit with
``1`` for the Ace; the suit letters are ours.

``parse_request`` reads a request body, every field checked, with a clear ``PayloadError``
otherwise; ``duel_state`` is the protocol's ``bidState`` after a list of calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..engine.cards import SUITS, Card

Endpoint = Literal["bid", "chooseTrump", "play"]
ENDPOINTS: tuple[Endpoint, ...] = ("bid", "chooseTrump", "play")

#: the protocol's player ids, in turn order from the first hand
PLAYER_IDS: tuple[str, str, str, str] = ("A1", "B1", "A2", "B2")
#: the dealer of every deal the server direction rebuilds (so ``A1`` is seat 0)
DEALER = 3
FIRST_HAND = (DEALER + 1) & 3
#: milliseconds a bot has for one whole deal
DEAL_TIME_MS = 1500
#: Bhoos rank letters indexed by our strength (7 lowest, J highest); ``1`` is the Ace
BHOOS_RANKS = "78QKT19J"


class PayloadError(ValueError):
    """A request body that is malformed or inconsistent; the message says what and where."""


# -- cards and suits -------------------------------------------------------------------------
def card_to_bhoos(card: Card) -> str:
    """``AH`` (our Ace of hearts) is ``1H``."""
    return BHOOS_RANKS[card & 7] + SUITS[card >> 3]


def parse_bhoos_card(value: object, where: str) -> Card:
    """A protocol card code (``1C``, ``TH``; ``A`` for the Ace and lower case are accepted)."""
    if isinstance(value, str) and len(value) == 2:
        rank, suit = value[0].upper(), value[1].upper()
        r = BHOOS_RANKS.find("1" if rank == "A" else rank)
        s = SUITS.find(suit)
        if r >= 0 and s >= 0:
            return s * 8 + r
    raise PayloadError(
        f"{where}: {value!r} is not a card (rank J 9 1 T K Q 8 7, then suit S H C D)"
    )


def parse_bhoos_suit(value: object, where: str) -> int:
    if isinstance(value, str) and len(value) == 1 and value.upper() in SUITS:
        return SUITS.index(value.upper())
    raise PayloadError(f"{where}: {value!r} is not a suit (S, H, C or D)")


def codes(cards: Sequence[Card]) -> list[str]:
    return [card_to_bhoos(c) for c in cards]


# -- the request, read and checked ------------------------------------------------------------
@dataclass(frozen=True)
class BidState:
    """The duel in progress: seats and their bids (0 = none yet)."""

    defender: int
    challenger: int
    defender_bid: int
    challenger_bid: int


@dataclass(frozen=True)
class TrickRecord:
    leader: int
    cards: tuple[Card, ...]
    winner: int


@dataclass(frozen=True)
class TeamRecord:
    seats: frozenset[int]
    bid: int
    won: int


@dataclass(frozen=True)
class Request:
    """A protocol request body, every field read and typed; seats are engine seats."""

    endpoint: Endpoint
    seat: int
    player_ids: tuple[str, ...]
    time_remaining: float
    cards: tuple[Card, ...]
    bid_history: tuple[tuple[int, int], ...] | None
    bid_state: BidState | None
    teams: tuple[TeamRecord, ...] | None = None
    played: tuple[Card, ...] = ()
    hands_history: tuple[TrickRecord, ...] = ()
    trump_suit: int | None = None
    trump_revealed: tuple[int, int] | None = None  # (1-based trick, seat)

    def pid(self, seat: int) -> str:
        return self.player_ids[seat]


def is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _need(obj: dict[str, Any], name: str) -> Any:
    if name not in obj:
        raise PayloadError(f"missing field {name!r}")
    return obj[name]


def _list(v: object, where: str) -> list[Any]:
    if not isinstance(v, list):
        raise PayloadError(f"{where} must be a list, not {v!r}")
    return v


def _whole_numbers(obj: dict[str, Any], names: Sequence[str], where: str) -> list[int]:
    """The fields ``names`` of ``obj``, each a whole number (0 or more)."""
    out = []
    for name in names:
        v = _need(obj, name)
        if not is_int(v) or v < 0:
            raise PayloadError(f"{where}.{name} must be a whole number, not {v!r}")
        out.append(int(v))
    return out


def _seat(v: object, ids: Sequence[str], where: str) -> int:
    if not isinstance(v, str) or v not in ids:
        raise PayloadError(f"{where}: {v!r} is not one of the players {', '.join(ids)}")
    return ids.index(v)


def _cards(v: object, where: str) -> tuple[Card, ...]:
    out = tuple(parse_bhoos_card(c, f"{where}[{i}]") for i, c in enumerate(_list(v, where)))
    seen: set[Card] = set()
    for c in out:
        if c in seen:
            raise PayloadError(f"{where}: {card_to_bhoos(c)} appears twice")
        seen.add(c)
    return out


def parse_request(endpoint: str, body: object) -> Request:
    """Read a request body for ``endpoint`` (``bid``, ``chooseTrump`` or ``play``)."""
    if endpoint not in ENDPOINTS:
        raise PayloadError(f"unknown endpoint {endpoint!r}")
    ep: Endpoint = endpoint
    if not isinstance(body, dict):
        raise PayloadError(f"the body must be a JSON object, not {type(body).__name__}")
    raw_ids = _list(_need(body, "playerIds"), "playerIds")
    if len(raw_ids) != 4 or not all(isinstance(p, str) and p for p in raw_ids):
        raise PayloadError(f"playerIds must be 4 player ids, not {raw_ids!r}")
    if len(set(raw_ids)) != 4:
        raise PayloadError(f"playerIds has a repeated id: {raw_ids!r}")
    ids = tuple(raw_ids)
    seat = _seat(_need(body, "playerId"), ids, "playerId")
    tr = _need(body, "timeRemaining")
    if not isinstance(tr, int | float) or isinstance(tr, bool) or tr != tr:
        raise PayloadError(f"timeRemaining must be a number of milliseconds, not {tr!r}")
    cards = _cards(_need(body, "cards"), "cards")

    history: tuple[tuple[int, int], ...] | None = None
    if ep == "bid" or "bidHistory" in body:
        entries = []
        for i, e in enumerate(_list(_need(body, "bidHistory"), "bidHistory")):
            where = f"bidHistory[{i}]"
            if not isinstance(e, list) or len(e) != 2:
                raise PayloadError(f"{where} must be [playerId, bid], not {e!r}")
            s = _seat(e[0], ids, where)
            if not is_int(e[1]) or e[1] < 0:
                raise PayloadError(f"{where}: the bid must be a whole number (0 = pass): {e[1]!r}")
            entries.append((s, int(e[1])))
        history = tuple(entries)

    bid_state: BidState | None = None
    if ep == "bid" or ("bidState" in body and body["bidState"] is not None):
        bs = _need(body, "bidState")
        if not isinstance(bs, dict):
            raise PayloadError(f"bidState must be an object, not {bs!r}")
        nums = _whole_numbers(bs, ("defenderBid", "challengerBid"), "bidState")
        bid_state = BidState(
            _seat(_need(bs, "defenderId"), ids, "bidState.defenderId"),
            _seat(_need(bs, "challengerId"), ids, "bidState.challengerId"),
            nums[0],
            nums[1],
        )

    if ep != "play":
        return Request(ep, seat, ids, float(tr), cards, history, bid_state)

    teams = _teams(_need(body, "teams"), ids)
    played = _cards(_need(body, "played"), "played")
    tricks = []
    for i, t in enumerate(_list(_need(body, "handsHistory"), "handsHistory")):
        where = f"handsHistory[{i}]"
        if not isinstance(t, list) or len(t) != 3:
            raise PayloadError(f"{where} must be [leader, [4 cards], winner], not {t!r}")
        trick_cards = _cards(t[1], f"{where} cards")
        if len(trick_cards) != 4:
            raise PayloadError(f"{where}: a finished trick has 4 cards, not {len(trick_cards)}")
        tricks.append(
            TrickRecord(_seat(t[0], ids, f"{where} leader"), trick_cards, _seat(t[2], ids, where))
        )
    ts = _need(body, "trumpSuit")
    trump = None if ts is False or ts is None else parse_bhoos_suit(ts, "trumpSuit")
    rv = _need(body, "trumpRevealed")
    revealed: tuple[int, int] | None = None
    if rv is not False and rv is not None:
        if not isinstance(rv, dict):
            raise PayloadError(f"trumpRevealed must be false or {{hand, playerId}}, not {rv!r}")
        hand = _need(rv, "hand")
        if not is_int(hand) or not 1 <= hand <= 8:
            raise PayloadError(f"trumpRevealed.hand must be a trick number 1-8, not {hand!r}")
        revealed = (int(hand), _seat(_need(rv, "playerId"), ids, "trumpRevealed.playerId"))
    return Request(
        ep,
        seat,
        ids,
        float(tr),
        cards,
        history,
        bid_state,
        teams,
        played,
        tuple(tricks),
        trump,
        revealed,
    )


def _teams(v: object, ids: Sequence[str]) -> tuple[TeamRecord, ...]:
    raw = _list(v, "teams")
    if len(raw) != 2:
        raise PayloadError(f"teams must list the 2 teams, not {len(raw)}")
    out = []
    for i, t in enumerate(raw):
        where = f"teams[{i}]"
        if not isinstance(t, dict):
            raise PayloadError(f"{where} must be an object {{players, bid, won}}, not {t!r}")
        players = _list(_need(t, "players"), f"{where}.players")
        seats = frozenset(_seat(p, ids, f"{where}.players") for p in players)
        if len(players) != 2 or seats not in (frozenset({0, 2}), frozenset({1, 3})):
            raise PayloadError(
                f"{where}.players must be partners ({ids[0]}+{ids[2]} or {ids[1]}+{ids[3]}), "
                f"not {players!r}"
            )
        nums = _whole_numbers(t, ("bid", "won"), where)
        out.append(TeamRecord(seats, nums[0], nums[1]))
    if out[0].seats == out[1].seats:
        raise PayloadError("teams lists the same team twice")
    return tuple(out)


# -- the duel auction, followed from the calls -------------------------------------------------
def duel_state(calls: Sequence[tuple[int, int]], first_hand: int = FIRST_HAND) -> BidState:
    """The protocol's ``bidState`` after ``calls`` (seat, bid; 0 = pass) of a duel auction.

    Before the first call the first hand is named the defender and the next seat the
    challenger, both at 0. Mirrors the engine's duel (``engine/auction.py``).
    """
    holder, hbid = -1, 0
    challenger, heard, cbid = first_hand, 1, 0

    def next_challenger() -> None:
        nonlocal challenger, heard, cbid
        if heard < 4:
            challenger = (first_hand + heard) & 3
            heard += 1
        cbid = 0

    for seat, value in calls:
        if seat == holder:
            if value:  # the defender matches
                hbid = value
            else:  # the defender gives up: the challenger holds the bid
                holder, hbid = challenger, cbid
                next_challenger()
        elif value and holder < 0:  # the opening bid
            holder, hbid = seat, value
            next_challenger()
        elif value:
            cbid = value
        else:
            next_challenger()
    if holder < 0:
        return BidState(first_hand, (first_hand + 1) & 3, 0, 0)
    return BidState(holder, challenger, hbid, cbid)
