"""Translation between the Bhoos 2023 bot protocol (``shared/BHOOS-PROTOCOL.md``) and our engine.

Players ``A1 B1 A2 B2`` (``playerIds`` in turn order) are engine seats counted from the first
hand: with dealer 3, as the server always deals, ``A1`` is seat 0 (the first hand, who bids and
leads first), ``B1`` seat 1, ``A2`` seat 2 and ``B2`` seat 3. Cards are rank then suit with
``1`` for the Ace; the suit letters are ours.

Server direction: ``parse_request`` reads a request body (every field checked, a clear
``PayloadError`` otherwise) and ``reconstruct`` builds an engine ``RoundState`` consistent with
it: our own cards exact, the other seats' unseen cards and, when we may not know it, the hidden
trump filled in by a consistent guess. The auction, the trump, the tricks, any reveal and the
trick in progress are all replayed through the engine's ``apply``, so anything the engine finds
illegal is reported as an inconsistent payload. ``answer_json`` turns our action into the answer.

Client direction: ``view_request`` turns our seat's ``View`` into the endpoint and body to send to
a Bhoos bot; ``parse_answer`` reads its answer back as our ``Action`` (checked against the legal
actions of the view).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..engine.actions import BIDS, PLAYS, SIMPLE_ACTIONS, TRUMP_SUITS, Act, Action
from ..engine.cards import ALL_CARDS, SUIT_MASKS, SUITS, Card, card_points
from ..engine.errors import IllegalAction
from ..engine.round import apply, start_round
from ..engine.rules import Rules
from ..engine.state import Phase, RoundState, team_of
from ..engine.tricks import trick_leader_now
from ..engine.views import View

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


class AnswerError(ValueError):
    """A Bhoos bot's answer that is malformed or not legal now."""


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


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _need(obj: dict[str, Any], name: str) -> Any:
    if name not in obj:
        raise PayloadError(f"missing field {name!r}")
    return obj[name]


def _list(v: object, where: str) -> list[Any]:
    if not isinstance(v, list):
        raise PayloadError(f"{where} must be a list, not {v!r}")
    return v


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
            if not _is_int(e[1]) or e[1] < 0:
                raise PayloadError(f"{where}: the bid must be a whole number (0 = pass): {e[1]!r}")
            entries.append((s, int(e[1])))
        history = tuple(entries)

    bid_state: BidState | None = None
    if ep == "bid" or ("bidState" in body and body["bidState"] is not None):
        bs = _need(body, "bidState")
        if not isinstance(bs, dict):
            raise PayloadError(f"bidState must be an object, not {bs!r}")
        nums = []
        for name in ("defenderBid", "challengerBid"):
            v = _need(bs, name)
            if not _is_int(v) or v < 0:
                raise PayloadError(f"bidState.{name} must be a whole number, not {v!r}")
            nums.append(int(v))
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
        if not _is_int(hand) or not 1 <= hand <= 8:
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
        nums = []
        for name in ("bid", "won"):
            n = _need(t, name)
            if not _is_int(n) or n < 0:
                raise PayloadError(f"{where}.{name} must be a whole number, not {n!r}")
            nums.append(int(n))
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


def synthesize_auction(
    bidder: int, bid: int, rules: Rules, first_hand: int = FIRST_HAND
) -> tuple[tuple[int, int], ...]:
    """A legal duel in which ``bidder`` wins at ``bid`` (when the real calls are not sent)."""
    if bidder == first_hand:
        return ((first_hand, bid), *(((first_hand + k) & 3, 0) for k in (1, 2, 3)))
    if bid <= rules.min_bid:
        raise PayloadError(
            f"only the first hand can win the auction at {bid}; send bidHistory to say how"
        )
    calls: list[tuple[int, int]] = [(first_hand, rules.min_bid)]
    for k in (1, 2, 3):
        s = (first_hand + k) & 3
        calls.extend([(s, bid), (first_hand, 0)] if s == bidder else [(s, 0)])
    return tuple(calls)


# -- rebuilding a consistent engine state -----------------------------------------------------
def _replay_calls(st: RoundState, calls: Sequence[tuple[int, int]], req: Request) -> RoundState:
    for i, (seat, value) in enumerate(calls):
        if st.phase is not Phase.AUCTION:
            raise PayloadError(f"bidHistory[{i}]: the auction was already over")
        if value == 0:
            action = SIMPLE_ACTIONS[seat][Act.PASS]
        elif value < len(BIDS[seat]):
            action = BIDS[seat][value]
        else:
            raise PayloadError(f"bidHistory[{i}]: {req.pid(seat)} bid {value}, out of range")
        try:
            st, _ = apply(st, action)
        except IllegalAction as e:
            raise PayloadError(
                f"bidHistory[{i}]: {req.pid(seat)} {'passes' if value == 0 else value}: {e.message}"
            ) from None
    return st


def _deck(hands: Sequence[Sequence[Card]]) -> tuple[Card, ...]:
    """A deck in the engine's deal order for ``DEALER`` giving each seat its cards.

    A seat's first four cards (the first deal) are the first four listed."""
    first: list[list[Card]] = []
    second: list[list[Card]] = []
    for k in range(4):
        cards = list(hands[(FIRST_HAND + k) & 3])
        first.append(cards[:4])
        second.append(cards[4:])
    deck = [c for batch in first for c in batch] + [c for batch in second for c in batch]
    if sorted(deck) != list(ALL_CARDS):  # pragma: no cover - guarded by the callers
        raise PayloadError("internal: the cards do not make a whole pack")
    return tuple(deck)


def _assign(
    unknown: list[Card], need: dict[int, int], forbidden: Sequence[int], rng: random.Random
) -> dict[int, list[Card]] | None:
    """Give each seat ``need[seat]`` of the ``unknown`` cards, none it is known not to hold.

    A bipartite matching (cards to seat places) by augmenting paths, in a random order: it
    finds an assignment whenever one exists."""
    slots = [s for s, n in need.items() for _ in range(n)]
    if len(slots) != len(unknown):
        return None
    rng.shuffle(slots)
    order = list(unknown)
    rng.shuffle(order)
    held_by: list[int] = [-1] * len(slots)  # slot -> index in order

    def place(ci: int, seen: list[bool]) -> bool:
        card = order[ci]
        for j, s in enumerate(slots):
            if seen[j] or forbidden[s] >> card & 1:
                continue
            seen[j] = True
            if held_by[j] < 0 or place(held_by[j], seen):
                held_by[j] = ci
                return True
        return False

    for ci in range(len(order)):
        if not place(ci, [False] * len(slots)):
            return None
    out: dict[int, list[Card]] = {s: [] for s in need}
    for j, ci in enumerate(held_by):
        out[slots[j]].append(order[ci])
    return out


def reconstruct(req: Request, rules: Rules, rng: random.Random) -> RoundState:
    """An engine state consistent with ``req`` in which it is our seat's turn.

    Our cards are exact; every other seat's unseen cards are a random assignment that respects
    what the play has shown (a seat that did not follow suit is void in it, a seat that asked
    for trump and then did not trump, or did not beat an opponent's trump, holds no trump, or
    no higher one). Raises ``PayloadError`` when no such state exists."""
    if req.endpoint == "play":
        return _reconstruct_play(req, rules, rng)
    me = req.seat
    if len(req.cards) != 4:
        raise PayloadError(
            f"cards: expected the 4 cards of the first deal, not {len(req.cards)} cards"
        )
    calls = req.bid_history
    if calls is None:  # chooseTrump without the calls: we won, at the lowest bid we could
        calls = synthesize_auction(
            me, rules.min_bid if me == FIRST_HAND else rules.min_bid + 1, rules
        )
    rest = [c for c in ALL_CARDS if c not in req.cards]
    rng.shuffle(rest)  # 28 cards: 8 for each other seat, then our second four
    others = [s for s in range(4) if s != me]
    hands: list[list[Card]] = [[], [], [], []]
    for k, s in enumerate(others):
        hands[s] = rest[8 * k : 8 * k + 8]
    hands[me] = list(req.cards) + rest[24:28]
    st, _ = start_round(rules, DEALER, _deck(hands))
    st = _replay_calls(st, calls, req)
    if req.endpoint == "bid":
        if st.phase is not Phase.AUCTION:
            raise PayloadError("bidHistory: the auction is already over")
        if st.speaker != me:
            raise PayloadError(f"not our turn to bid: {req.pid(st.speaker)} is to speak")
        _check_bid_state(req, calls)
    else:
        if st.phase is not Phase.TRUMP:
            raise PayloadError("bidHistory: the auction is not over yet")
        if st.bidder != me:
            raise PayloadError(f"we did not win the auction: {req.pid(st.bidder)} did")
    return st


def _check_bid_state(req: Request, calls: Sequence[tuple[int, int]]) -> None:
    got = req.bid_state
    if got is None or not calls:
        return  # before the first call the protocol's names are a convention only
    want = duel_state(calls)
    if (got.defender, got.challenger) != (want.defender, want.challenger):
        raise PayloadError(
            f"bidState: defender {req.pid(got.defender)}, challenger {req.pid(got.challenger)}, "
            f"but bidHistory gives defender {req.pid(want.defender)}, "
            f"challenger {req.pid(want.challenger)}"
        )
    if req.seat == want.defender and got.challenger_bid != want.challenger_bid:
        raise PayloadError(
            f"bidState.challengerBid is {got.challenger_bid}, "
            f"but bidHistory gives {want.challenger_bid}"
        )
    if req.seat == want.challenger and got.defender_bid != want.defender_bid:
        raise PayloadError(
            f"bidState.defenderBid is {got.defender_bid}, but bidHistory gives {want.defender_bid}"
        )


def _play_calls(req: Request, rules: Rules) -> tuple[tuple[int, int], ...]:
    if req.bid_history is not None:
        return req.bid_history
    teams = req.teams or ()
    bidding = [t for t in teams if t.bid > 0]
    if len(bidding) != 1:
        raise PayloadError("teams: exactly one team must carry the winning bid")
    team = bidding[0]
    me = req.seat
    # who bid? The bidder alone knows trump before it is shown; the first hand alone can win
    # at the lowest bid. Otherwise we cannot tell, and any choice is consistent.
    candidates = sorted(team.seats)
    if req.trump_revealed is None:
        if req.trump_suit is not None:
            candidates = [me]
        elif me in candidates:
            candidates = [s for s in candidates if s != me]
    if team.bid <= rules.min_bid:
        candidates = [s for s in candidates if s == FIRST_HAND]
    if not candidates or candidates[0] not in team.seats:
        raise PayloadError("teams and trumpSuit do not agree on who won the auction")
    return synthesize_auction(candidates[0], team.bid, rules)


def _reconstruct_play(req: Request, rules: Rules, rng: random.Random) -> RoundState:
    me = req.seat
    pid = req.pid
    if len(req.hands_history) > 7:
        raise PayloadError("handsHistory: all 8 tricks are over; there is nothing to play")
    if len(req.played) > 3:
        raise PayloadError("played: the trick in progress holds at most 3 cards before ours")

    # who played what, trick by trick (the trick in progress last)
    tricks: list[tuple[int, tuple[Card, ...]]] = []
    leader = FIRST_HAND
    for n, t in enumerate(req.hands_history):
        if t.leader != leader:
            raise PayloadError(
                f"handsHistory[{n}]: {pid(t.leader)} leads, but "
                + (f"{pid(leader)} won the trick before" if n else f"{pid(leader)} leads first")
            )
        tricks.append((t.leader, t.cards))
        leader = t.winner
    tricks.append((leader, req.played))
    current = len(tricks)  # 1-based number of the trick in progress
    turn = (leader + len(req.played)) & 3
    if turn != me:
        raise PayloadError(f"not our turn to play: {pid(turn)} is to play")

    played_by: list[list[Card]] = [[], [], [], []]
    where_played: dict[Card, str] = {}
    for n, (lead_seat, cards) in enumerate(tricks, 1):
        for i, c in enumerate(cards):
            here = f"trick {n}" if n < current else "played"
            if c in where_played:
                raise PayloadError(
                    f"{card_to_bhoos(c)} is played twice ({where_played[c]}, {here})"
                )
            where_played[c] = here
            played_by[(lead_seat + i) & 3].append(c)
    for c in req.cards:
        if c in where_played:
            raise PayloadError(
                f"cards: {card_to_bhoos(c)} is in our hand but was played ({where_played[c]})"
            )
    mine_left = 8 - len(played_by[me])
    if len(req.cards) != mine_left:
        raise PayloadError(
            f"cards: we have played {len(played_by[me])} cards, so we hold {mine_left}, "
            f"not {len(req.cards)}"
        )

    # the auction (cards do not matter to it): who bid, and at what
    calls = _play_calls(req, rules)
    probe, _ = start_round(rules, DEALER, ALL_CARDS)
    probe = _replay_calls(probe, calls, req)
    if probe.phase is not Phase.TRUMP:
        raise PayloadError("bidHistory: the auction is not over")
    bidder = probe.bidder

    revealed = req.trump_revealed
    trump = req.trump_suit
    if revealed is not None:
        if trump is None:
            raise PayloadError("trumpRevealed is set but trumpSuit is not")
        hand, asker = revealed
        if hand > current:
            raise PayloadError(f"trumpRevealed.hand {hand} is after the trick in progress")
        if (
            hand == current
            and asker != me
            and asker not in {(leader + i) & 3 for i in range(len(req.played))}
        ):
            raise PayloadError(f"trumpRevealed: {pid(asker)} has not played in trick {hand} yet")
    elif trump is not None and bidder != me:
        raise PayloadError(
            f"trumpSuit is sent before trump is revealed, but {pid(bidder)} is the bidder, not us"
        )
    elif trump is None and bidder == me:
        raise PayloadError("trumpSuit: we are the bidder, so it must name our trump")

    # what the play shows each seat does not hold
    forbidden = [0, 0, 0, 0]
    must = -1
    for n, (lead_seat, cards) in enumerate(tricks, 1):
        plays: list[tuple[int, Card]] = []
        for i, c in enumerate(cards):
            s = (lead_seat + i) & 3
            if revealed == (n, s) and rules.must_trump_after_reveal:
                must = s
            if plays and c >> 3 != cards[0] >> 3:
                lead = cards[0] >> 3
                forbidden[s] |= SUIT_MASKS[lead]
                if s == must and trump is not None:
                    if c >> 3 != trump:
                        forbidden[s] |= SUIT_MASKS[trump]
                    elif rules.overtrump_after_reveal:
                        w, wc = trick_leader_now(tuple(plays), lead, trump)
                        if wc >> 3 == trump and team_of(w) != team_of(s) and c < wc:
                            forbidden[s] |= SUIT_MASKS[trump] & ~((2 << wc) - 1)
            if s == must:
                must = -1
            plays.append((s, c))

    known = set(where_played) | set(req.cards)
    unknown = [c for c in ALL_CARDS if c not in known]
    need = {s: 8 - len(played_by[s]) for s in range(4) if s != me}
    if any(n < 0 for n in need.values()) or sum(need.values()) != len(unknown):
        raise PayloadError("the cards played do not add up to four hands of eight")
    assigned = _assign(unknown, need, forbidden, rng)
    if assigned is None:
        raise PayloadError(
            "no deal fits the play: the cards left cannot be shared out without giving a "
            "player a suit it has shown it lacks"
        )
    hands: list[list[Card]] = []
    for s in range(4):
        full = played_by[s] + (list(req.cards) if s == me else assigned[s])
        rng.shuffle(full)
        hands.append(full)
    if trump is None:
        # hidden from us: any suit is consistent (trumps count for nothing until shown); take
        # one the bidder holds, as a bidder would
        held = sorted({c >> 3 for c in hands[bidder]})
        trump = rng.choice(held)

    st, _ = start_round(rules, DEALER, _deck(hands))
    st = _replay_calls(st, calls, req)
    if st.phase is not Phase.TRUMP:  # pragma: no cover - the probe saw the same auction
        raise PayloadError("bidHistory: the auction is not over")
    st, _ = apply(st, TRUMP_SUITS[bidder][trump])
    if st.phase is not Phase.PLAY:
        raise PayloadError(f"the deal did not reach the play ({st.reason or st.phase.name})")

    for n, (lead_seat, cards) in enumerate(tricks, 1):
        here = f"handsHistory[{n - 1}]" if n < current else "played"
        for i, c in enumerate(cards):
            s = (lead_seat + i) & 3
            if revealed == (n, s):
                st = _apply(st, SIMPLE_ACTIONS[s][Act.REVEAL], f"{here}: {pid(s)} asks for trump")
            st = _apply(st, PLAYS[s][c], f"{here}: {pid(s)} plays {card_to_bhoos(c)}")
        if n < current:
            t = req.hands_history[n - 1]
            got = st.tricks[-1].winner
            if got != t.winner:
                raise PayloadError(
                    f"{here}: the winner is {pid(got)}, not {pid(t.winner)} "
                    f"(trump {'shown' if st.trump_shown else 'hidden'})"
                )
    if revealed == (current, me):
        st = _apply(st, SIMPLE_ACTIONS[me][Act.REVEAL], f"trumpRevealed: {pid(me)} asks for trump")
    if st.phase is not Phase.PLAY or st.turn != me:  # pragma: no cover - checked above
        raise PayloadError("not our turn to play")

    for team in req.teams or ():
        side = team_of(min(team.seats))
        bid = st.bid if team_of(bidder) == side else 0
        if team.bid != bid:
            raise PayloadError(
                f"teams: {'+'.join(pid(s) for s in sorted(team.seats))} bid {team.bid}, "
                f"but the auction gives {bid}"
            )
        if team.won != st.points[side]:
            raise PayloadError(
                f"teams: {'+'.join(pid(s) for s in sorted(team.seats))} won {team.won} points, "
                f"but the tricks give {st.points[side]}"
            )
    return st


def _apply(st: RoundState, action: Action, where: str) -> RoundState:
    try:
        st, _ = apply(st, action)
    except IllegalAction as e:
        raise PayloadError(f"{where}: not legal: {e.message}") from None
    return st


# -- our action as an answer ------------------------------------------------------------------
def answer_json(action: Action) -> dict[str, Any]:
    """Our engine action as the protocol's answer."""
    act = action.act
    if act is Act.BID:
        return {"bid": action.arg}
    if act is Act.PASS:
        return {"bid": 0}
    if act is Act.TRUMP_SUIT:
        return {"suit": SUITS[action.arg]}
    if act is Act.PLAY:
        return {"card": card_to_bhoos(action.arg)}
    if act is Act.REVEAL:
        return {"revealTrump": True}
    raise ValueError(f"the Bhoos protocol has no answer for {action}")


def quick_choice(v: View) -> Action:
    """A legal action found at once, for when there is no time to ask the bot: pass or the
    lowest bid, the longest suit as trump, the cheapest card."""
    legal = v.legal
    if not legal:
        raise ValueError("no legal action in this view")
    acts = {a.act for a in legal}
    if Act.PASS in acts:
        return next(a for a in legal if a.act is Act.PASS)
    if Act.BID in acts:
        return min((a for a in legal if a.act is Act.BID), key=lambda a: a.arg)
    if Act.TRUMP_SUIT in acts:
        hand = v.hands[v.viewer] if v.viewer is not None else None
        held = hand or ()
        return max(
            (a for a in legal if a.act is Act.TRUMP_SUIT),
            key=lambda a: (sum(1 for c in held if c >> 3 == a.arg), -a.arg),
        )
    if Act.PLAY in acts:
        return min(
            (a for a in legal if a.act is Act.PLAY),
            key=lambda a: (card_points(a.arg), a.arg & 7, a.arg),
        )
    return legal[0]


# -- client direction: our view as a request, the answer as our action -----------------------
def view_request(
    v: View, time_remaining_ms: float, player_ids: Sequence[str] = PLAYER_IDS
) -> tuple[Endpoint, dict[str, Any]]:
    """The endpoint and request body that ask a Bhoos bot to act for ``v``'s seat."""
    seat = v.viewer
    if seat is None:
        raise ValueError("a spectator's view cannot be sent to a bot")
    fh = v.first_hand

    def pid(s: int) -> str:
        return player_ids[(s - fh) & 3]

    hand = v.hands[seat] or ()
    bs = duel_state(v.calls, fh)
    body: dict[str, Any] = {
        "playerId": pid(seat),
        "playerIds": list(player_ids),
        "timeRemaining": max(0, round(time_remaining_ms)),
        "cards": codes(hand),
        "bidHistory": [[pid(s), b] for s, b in v.calls],
        "bidState": {
            "defenderId": pid(bs.defender),
            "challengerId": pid(bs.challenger),
            "defenderBid": bs.defender_bid,
            "challengerBid": bs.challenger_bid,
        },
    }
    if v.phase is Phase.AUCTION:
        return "bid", body
    if v.phase is Phase.TRUMP:
        return "chooseTrump", body
    if v.phase is not Phase.PLAY:
        raise ValueError(f"the Bhoos protocol has no request for the {v.phase.name} phase")
    teams = []
    for k in (0, 1):
        a, b = (fh + k) & 3, (fh + k + 2) & 3
        t = team_of(a)
        on_bid = v.bidder is not None and team_of(v.bidder) == t
        teams.append(
            {"players": [pid(a), pid(b)], "bid": v.bid if on_bid else 0, "won": v.points[t]}
        )
    body.update(
        teams=teams,
        played=codes([c for _, c in v.trick]),
        handsHistory=[
            [pid(t.leader), codes([c for _, c in t.plays]), pid(t.winner)] for t in v.tricks
        ],
        trumpSuit=SUITS[v.trump] if v.trump is not None else False,
        trumpRevealed=(
            {"hand": v.shown_in_trick, "playerId": pid(v.shown_by)}
            if v.trump_shown and v.shown_by is not None
            else False
        ),
    )
    return "play", body


def _legal_text(legal: Sequence[Action], show: Callable[[Action], str]) -> str:
    return ", ".join(show(a) for a in legal) or "nothing"


def _answer_word(a: Action) -> str:
    if a.act is Act.REVEAL:
        return "revealTrump"
    out = answer_json(a)
    return str(next(iter(out.values())))


def parse_answer(endpoint: Endpoint, answer: object, v: View) -> tuple[Action, Card | None]:
    """Our action for a Bhoos bot's ``answer`` to ``endpoint``, checked against ``v.legal``.

    Returns (action, card to play next): the card is set when a bidder answered
    ``{"revealTrump": true, "card": …}`` in one go. Raises ``AnswerError``."""
    seat = v.viewer
    if seat is None:
        raise ValueError("a spectator's view has no legal actions")
    legal = v.legal
    legal_words = _legal_text(legal, _answer_word)
    if not isinstance(answer, dict):
        raise AnswerError(f"the answer must be a JSON object, not {answer!r}")
    if endpoint == "bid":
        value = answer.get("bid")
        if not _is_int(value):
            raise AnswerError(f'expected {{"bid": number}}, got {answer!r}')
        assert isinstance(value, int)
        if value == 0:
            action = SIMPLE_ACTIONS[seat][Act.PASS]
        elif 0 < value < len(BIDS[seat]):
            action = BIDS[seat][value]
        else:
            raise AnswerError(f"bid {value} is out of range (legal: {legal_words})")
        if action not in legal:
            raise AnswerError(f"bid {value} is not allowed now (legal: {legal_words})")
        return action, None
    if endpoint == "chooseTrump":
        suit = answer.get("suit")
        try:
            s = parse_bhoos_suit(suit, "suit")
        except PayloadError:
            raise AnswerError(f'expected {{"suit": S|H|C|D}}, got {answer!r}') from None
        action = TRUMP_SUITS[seat][s]
        if action not in legal:
            raise AnswerError(f"trump {SUITS[s]} is not allowed now (legal: {legal_words})")
        return action, None
    reveal = answer.get("revealTrump", False)
    if not isinstance(reveal, bool):
        raise AnswerError(f"revealTrump must be true or false, got {reveal!r}")
    card: Card | None = None
    if answer.get("card") is not None:
        try:
            card = parse_bhoos_card(answer["card"], "card")
        except PayloadError as e:
            raise AnswerError(str(e)) from None
        hand = v.hands[seat] or ()
        if card not in hand:
            raise AnswerError(
                f"card {card_to_bhoos(card)} is not in the hand ({' '.join(codes(hand))})"
            )
    if reveal:
        action = SIMPLE_ACTIONS[seat][Act.REVEAL]
        if action not in legal:
            raise AnswerError(f"revealTrump is not allowed now (legal: {legal_words})")
        return action, card
    if card is None:
        raise AnswerError(f'expected {{"card": …}} or {{"revealTrump": true}}, got {answer!r}')
    action = PLAYS[seat][card]
    if action not in legal:
        raise AnswerError(f"card {card_to_bhoos(card)} is not legal now (legal: {legal_words})")
    return action, None
