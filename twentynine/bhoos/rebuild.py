"""An engine state rebuilt from a Bhoos request (the server direction).

``reconstruct`` builds an engine ``RoundState`` consistent with a checked ``Request``: our own
cards exact, the other seats' unseen cards and, when we may not know it, the hidden trump filled
in by a consistent guess. The auction, the trump, the tricks, any reveal and the trick in progress
are all replayed through the engine's ``apply``, so anything the engine finds illegal is reported
as an inconsistent payload (``PayloadError``); ``fallback.py`` answers such a request from what it
says itself.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..engine.actions import BIDS, PLAYS, SIMPLE_ACTIONS, TRUMP_SUITS, Act, Action
from ..engine.cards import ALL_CARDS, SUIT_MASKS, Card
from ..engine.errors import IllegalAction
from ..engine.round import apply, start_round
from ..engine.rules import Rules
from ..engine.state import Phase, RoundState, team_of
from ..engine.tricks import trick_leader_now
from .payload import DEALER, FIRST_HAND, PayloadError, Request, card_to_bhoos, duel_state


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
