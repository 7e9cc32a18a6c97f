"""Full engine states for the hidden worlds a seat's ``Knowledge`` allows.

``sample_world(view, rng)`` deals the hidden cards at random, consistently with everything the seat
knows, and returns a full engine ``RoundState`` in which the seat's own cards are its real cards:
the view of that state for the seat equals the input view, so its legal actions are the same. In
the play a world drawn by ``Knowledge.sample_hidden`` is laid out as a pack that deals it and the
public fields are copied from the view (``build_play_state``); before the play a pack is dealt
and the calls heard are replayed on it until the replay's view is the seat's.
"""

from __future__ import annotations

import random
from functools import lru_cache

from ..engine.actions import SIMPLE_ACTIONS, TRUMP_CARDS, TRUMP_SUITS, Act, Action
from ..engine.cards import POINT_CARDS, SUIT_MASKS, Card, card_list
from ..engine.contract import has_risk_card, single_hand_speaker
from ..engine.round import apply, start_round, to_act
from ..engine.rules import Rules
from ..engine.state import Phase, RoundState, TrumpMode, new_state, partner
from ..engine.views import View, view
from .knowledge import (
    MAX_TRIES,
    Knowledge,
    World,
    highest_bit,
    seventh_mark,
    trump_choice_weights,
)

_MODES = {
    "none": TrumpMode.NONE,
    "suit": TrumpMode.SUIT,
    "seventh": TrumpMode.SEVENTH,
    "hand_card": TrumpMode.HAND_CARD,
}


# -- building states --------------------------------------------------------------------------
def sample_world(v: View, rng: random.Random, knowledge: Knowledge | None = None) -> RoundState:
    """A full engine state consistent with ``v``: the seat's own cards are real, the others are
    a random deal consistent with everything the seat knows; ``view(state, seat) == v``."""
    k = knowledge if knowledge is not None else Knowledge.from_view(v)
    if v.phase is Phase.PLAY:
        return build_play_state(k, k.sample_hidden(rng), rng)
    if v.phase is Phase.OVER:
        raise ValueError("the round is over: there is nothing hidden to sample")
    return _sample_by_replay(k, rng)


def build_play_state(k: Knowledge, world: World, rng: random.Random) -> RoundState:
    """The PLAY-phase state of ``world``, with every public field taken from the view."""
    v = k.view
    rules = v.rules
    deck = _deck(k, world, rng)
    st = new_state(rules, v.dealer, deck)
    challenger, heard, out = _auction_leftovers(rules, v.dealer, v.calls)
    st.phase = Phase.PLAY
    st.hands = world.hands
    st.calls = v.calls
    st.holder = v.holder if v.holder is not None else -1
    st.bid = v.bid
    st.speaker = -1
    st.challenger, st.challengers_heard, st.out = challenger, heard, out
    st.bidder = k.bidder
    st.trump_mode = _MODES[v.trump_mode or "none"]
    st.trump = world.trump
    st.indicator = world.indicator if v.has_indicator else -1
    st.trump_shown = v.trump_shown
    st.shown_by = v.shown_by if v.shown_by is not None else -1
    st.shown_in_trick = v.shown_in_trick if v.shown_in_trick is not None else -1
    st.target = v.target if v.target is not None else 0
    st.double_level = v.double_level
    st.caller = k.caller
    st.single_hand_level = v.single_hand_level
    if rules.single_hand:
        st.single_hand_turn = (k.caller - v.first_hand) & 3 if k.caller >= 0 else 4
    st.leader = v.leader if v.leader is not None else -1
    st.turn = v.turn if v.turn is not None else -1
    st.lead_suit = v.lead_suit if v.lead_suit is not None else -1
    st.trick = v.trick
    st.tricks = v.tricks
    st.points = v.points
    st.tricks_won = v.tricks_won
    st.must_trump = v.must_trump if v.must_trump is not None else -1
    st.pair_by = v.pair_by if v.pair_by is not None else -1
    if world.trump >= 0 and k.caller < 0:
        leads = [t.plays[0][1] for t in v.tricks] + ([v.trick[0][1]] if v.trick else [])
        st.trump_led = any(c >> 3 == world.trump for c in leads)
    st.pair_window = _pair_window(st)
    return st


def _pair_window(st: RoundState) -> int:
    from ..engine.scoring import holds_pair

    if (
        st.rules.pair_timing != "after_trick_won"
        or st.pair_by >= 0
        or not st.trump_shown
        or st.trick
        or not st.tricks
        or st.caller >= 0
    ):
        return -1
    winner = st.tricks[-1].winner
    window = -1
    for s in (winner, partner(winner)):
        if holds_pair(st.hands[s], st.trump):
            window = s
    return window


def _deck(k: Knowledge, world: World, rng: random.Random) -> tuple[Card, ...]:
    """A pack order that deals ``world``: the bidder's 7th card or hand card where it must be,
    and a point card in the first hand's first four where the rules need one."""
    v = k.view
    full = k.full_hands(world)
    fh = v.first_hand
    regular = k.caller < 0
    mode = v.trump_mode
    deck: list[Card] = [0] * 32
    for n in range(4):
        s = (fh + n) & 3
        cards = card_list(full[s])
        rng.shuffle(cards)
        first: list[Card] = []
        seventh = -1
        if regular and s == k.bidder and world.trump >= 0 and mode in ("seventh", "hand_card"):
            mark = seventh_mark(full[s], world)
            if mark >= 0:
                if mode == "seventh":
                    seventh = mark
                else:
                    first.append(mark)
        if (
            s == fh
            and v.rules.first_hand_no_points_redeal
            and not any(POINT_CARDS >> c & 1 for c in first)
        ):
            point = next((c for c in cards if POINT_CARDS >> c & 1 and c != seventh), -1)
            if point >= 0:
                first.append(point)
        rest = [c for c in cards if c not in first and c != seventh]
        while len(first) < 4 and rest:
            first.append(rest.pop())
        second = rest
        if seventh >= 0:
            second.insert(2, seventh)
        deck[4 * n : 4 * n + 4] = first
        deck[16 + 4 * n : 20 + 4 * n] = second
    return tuple(deck)


#: a pack whose first deal passes every first-deal check (first hand gets JS 9S AS TS)
_SAFE_DECK = tuple(range(31, -1, -1))


@lru_cache(maxsize=512)
def _auction_leftovers(
    rules: Rules, dealer: int, calls: tuple[tuple[int, int], ...]
) -> tuple[int, int, int]:
    """The auction's bookkeeping fields after ``calls`` (they do not depend on the cards)."""
    st, _ = start_round(rules, dealer, _SAFE_DECK)
    st = _replay_auction(st, calls)
    return st.challenger, st.challengers_heard, st.out


def _replay_auction(st: RoundState, calls: tuple[tuple[int, int], ...]) -> RoundState:
    while st.phase is Phase.AUCTION and len(st.calls) < len(calls):
        seat, bid = calls[len(st.calls)]
        action = Action(seat, Act.BID, bid) if bid else SIMPLE_ACTIONS[seat][Act.PASS]
        st, _ = apply(st, action)
    return st


# -- before the play: deal and replay ----------------------------------------------------------
def _sample_by_replay(k: Knowledge, rng: random.Random) -> RoundState:
    v = k.view
    for _ in range(20 * MAX_TRIES):
        st = _replay(k, _preplay_deck(k, rng), rng)
        if st is not None and view(st, k.seat) == v:
            return st
    raise RuntimeError(f"no consistent deal found for seat {k.seat} in phase {v.phase.name}")


def _preplay_deck(k: Knowledge, rng: random.Random) -> list[Card]:
    """A random pack with this seat's own cards where they were dealt."""
    v = k.view
    seat = k.seat
    fh = v.first_hand
    me = (seat - fh) & 3
    pool = card_list(k.unseen)
    rng.shuffle(pool)
    own = card_list(k.known[seat])
    rng.shuffle(own)
    deck: list[Card | None] = [None] * 32
    second_dealt = v.phase >= Phase.SEVENTH_REDOUBLE
    first_pos = list(range(4 * me, 4 * me + 4))
    second_pos = list(range(16 + 4 * me, 20 + 4 * me))
    if v.phase is Phase.SEVENTH_REDOUBLE and seat == k.bidder:
        # the bidder sees its first four and its 7th card only
        for p, c in zip(first_pos, own, strict=True):
            deck[p] = c
        deck[second_pos[2]] = k.own_indicator
    else:
        mine = own + ([k.own_indicator] if k.own_indicator >= 0 else [])
        fixed_first: list[Card] = []
        fixed_seventh = -1
        if k.own_indicator >= 0 and seat == k.bidder:
            if v.trump_mode == "seventh":
                fixed_seventh = k.own_indicator
            else:
                fixed_first.append(k.own_indicator)
        needs_point = seat == fh and v.rules.first_hand_no_points_redeal and second_dealt
        if needs_point and not any(POINT_CARDS >> c & 1 for c in fixed_first):
            pts = [c for c in mine if POINT_CARDS >> c & 1 and c != fixed_seventh]
            if pts:
                fixed_first.append(pts[0])
        rest = [c for c in mine if c not in fixed_first and c != fixed_seventh]
        first = fixed_first + rest[: 4 - len(fixed_first)]
        rest = rest[4 - len(fixed_first) :]
        for p, c in zip(first_pos, first, strict=False):
            deck[p] = c
        if second_dealt:
            if fixed_seventh >= 0:
                rest.insert(2, fixed_seventh)
            for p, c in zip(second_pos, rest, strict=False):
                deck[p] = c
    it = iter(pool)
    return [c if c is not None else next(it) for c in deck]


def _replay(k: Knowledge, deck: list[Card], rng: random.Random) -> RoundState | None:
    """Deal ``deck`` and replay the public history up to the view's phase (None: it could not
    happen with this deck)."""
    v = k.view
    st, _ = start_round(v.rules, v.dealer, deck)
    st = _replay_auction(st, v.calls)
    if st.phase is not Phase.TRUMP or v.phase is Phase.AUCTION:
        return st if st.phase is v.phase else None
    if v.phase is Phase.TRUMP:
        return st
    st, _ = apply(st, _trump_action(k, st, rng))
    st = _replay_doubling(st, v.double_level, v, Phase.DOUBLING)
    if st.phase is Phase.OVER or v.phase is Phase.DOUBLING:
        return st
    if st.phase is Phase.SEVENTH_REDOUBLE and v.phase is not Phase.SEVENTH_REDOUBLE:
        st, _ = apply(st, SIMPLE_ACTIONS[st.bidder][Act.PASS])
    if st.phase is not Phase.SINGLE_HAND or v.phase is Phase.SEVENTH_REDOUBLE:
        return st
    if v.phase is Phase.SINGLE_HAND:
        while single_hand_speaker(st) != v.to_act[0]:
            st, _ = apply(st, SIMPLE_ACTIONS[single_hand_speaker(st)][Act.PASS])
        return st
    if k.caller < 0:
        return None
    while single_hand_speaker(st) != k.caller:
        st, _ = apply(st, SIMPLE_ACTIONS[single_hand_speaker(st)][Act.PASS])
    action = SIMPLE_ACTIONS[k.caller][Act.SINGLE_HAND]
    if not has_risk_card(st.seat_cards(k.caller)):
        return None
    st, _ = apply(st, action)
    return _replay_doubling(st, v.single_hand_level, v, Phase.SINGLE_HAND_DOUBLING)


def _trump_action(k: Knowledge, st: RoundState, rng: random.Random) -> Action:
    """The bidder's trump choice: the known one, else one drawn as bidders choose."""
    v = k.view
    b = st.bidder
    mode = v.trump_mode
    if mode == "seventh":
        return SIMPLE_ACTIONS[b][Act.TRUMP_SEVENTH]
    if mode == "suit" and v.trump is not None:
        return TRUMP_SUITS[b][v.trump]
    if mode == "hand_card" and b == k.seat and k.own_indicator >= 0:
        return TRUMP_CARDS[b][k.own_indicator]
    # hidden (or forgotten after a Single Hand): drawn from the bidder's first four cards
    cards = st.hands[b]
    weights = trump_choice_weights(cards)
    suit = rng.choices(range(4), weights=weights)[0]
    if v.rules.trump_indicator == "outside_card":
        return TRUMP_SUITS[b][suit]
    mine = cards & SUIT_MASKS[suit]
    pick = mine & -mine if mine else cards & -cards
    return TRUMP_CARDS[b][highest_bit(pick)]


def _replay_doubling(st: RoundState, level: int, v: View, phase: Phase) -> RoundState:
    """Raise the stake to ``level``, then pass as the view shows (or to the end)."""
    while st.phase is phase and _stake_level(st, phase) < level:
        seat = to_act(st)[0]
        act = (Act.PASS, Act.DOUBLE, Act.REDOUBLE, Act.SETDOUBLE)[st.doubling_step]
        st, _ = apply(st, SIMPLE_ACTIONS[seat][act])
    if st.phase is not phase:
        return st
    if v.phase is phase:
        for seat in to_act(st):
            if seat not in v.to_act:
                st, _ = apply(st, SIMPLE_ACTIONS[seat][Act.PASS])
        return st
    while st.phase is phase:
        st, _ = apply(st, SIMPLE_ACTIONS[to_act(st)[0]][Act.PASS])
    return st


def _stake_level(st: RoundState, phase: Phase) -> int:
    return st.double_level if phase is Phase.DOUBLING else st.single_hand_level
