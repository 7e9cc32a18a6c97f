"""Fixed-deck helpers shared by the engine tests.

A deal is written as four 8-card hands, one string of card codes per seat. The first four codes
of a seat are its first batch, the last four its second batch, so the seat's 7th card (the one
``trump seventh`` uses) is the 7th code written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pytest

from twentynine.engine import (
    Act,
    Action,
    IllegalAction,
    Phase,
    RoundState,
    Rules,
    apply,
    legal_actions,
    parse_action,
    parse_card,
    start_round,
    to_act,
)
from twentynine.engine.cards import card_code, mask_of
from twentynine.engine.events import Event


def cards(codes: str) -> list[int]:
    """``"JS 9S AS"`` as card ints, in the order written."""
    return [parse_card(c) for c in codes.split()]


def mask(codes: str) -> int:
    """``"JS 9S AS"`` as a card mask."""
    return mask_of(cards(codes))


def deck_from_hands(dealer: int, hands: Mapping[int, str]) -> list[int]:
    """The pack order that deals ``hands`` (seat -> 8 card codes) with ``dealer`` dealing.

    Each seat's first four codes go into its first batch and the last four into its second,
    in the order written.
    """
    if sorted(hands) != [0, 1, 2, 3]:
        raise ValueError(f"need a hand for each seat 0-3, got seats {sorted(hands)}")
    deck: list[int | None] = [None] * 32
    first_hand = (dealer + 1) % 4
    for seat, text in hands.items():
        held = cards(text)
        if len(held) != 8:
            raise ValueError(f"seat {seat} needs 8 cards, got {len(held)}: {text!r}")
        k = (seat - first_hand) % 4
        deck[4 * k : 4 * k + 4] = held[:4]
        deck[16 + 4 * k : 20 + 4 * k] = held[4:]
    if sorted(c for c in deck if c is not None) != list(range(32)):
        raise ValueError("the hands must hold each of the 32 cards exactly once")
    return [c for c in deck if c is not None]


def start(rules: Rules, dealer: int, hands: Mapping[int, str]) -> tuple[RoundState, list[Event]]:
    return start_round(rules, dealer, deck_from_hands(dealer, hands))


def _lines(script: str | Iterable[str]) -> list[str]:
    if isinstance(script, str):
        script = script.replace(";", "\n").splitlines()
    return [line.strip() for line in script if line.strip()]


def step(st: RoundState, line: str) -> tuple[RoundState, list[Event]]:
    """Apply one ``"seat: action"`` line, e.g. ``"2: play JS"``."""
    seat, _, text = line.partition(":")
    return apply(st, parse_action(text, int(seat)))


def run(st: RoundState, script: str | Iterable[str]) -> tuple[RoundState, list[Event]]:
    """Apply ``"seat: action"`` lines in order (newline- or ``;``-separated); all the events."""
    events: list[Event] = []
    for line in _lines(script):
        try:
            st, ev = step(st, line)
        except IllegalAction as exc:  # name the line that failed, for a readable test failure
            raise AssertionError(f"{line!r} was refused: {exc.reason}: {exc}") from exc
        events.extend(ev)
    return st, events


def play(rules: Rules, dealer: int, hands: Mapping[int, str], script: str | Iterable[str] = ""):
    """Start the round and run ``script``: (state, every event since the deal)."""
    st, ev = start(rules, dealer, hands)
    st, more = run(st, script)
    return st, ev + more


def texts(actions: Iterable[Action]) -> set[str]:
    """Action texts, for comparing legal-action sets."""
    return {a.text for a in actions}


def legal(st: RoundState, seat: int | None = None) -> set[str]:
    return texts(legal_actions(st, seat))


def playable(st: RoundState, seat: int) -> set[str]:
    """The codes of the cards ``seat`` may play now."""
    return {card_code(a.arg) for a in legal_actions(st, seat) if a.act is Act.PLAY}


#: memo fields that hold no game state (filled in on demand, even by a refused action)
_MEMO_FIELDS = frozenset({"legal_cache"})


def snapshot(st: RoundState) -> dict[str, Any]:
    """Every field of the state's ``__dict__`` except on-demand memo fields."""
    return {k: v for k, v in st.__dict__.items() if k not in _MEMO_FIELDS}


def assert_illegal(st: RoundState, line: str, reason: str | None = None) -> IllegalAction:
    """``line`` raises IllegalAction (with ``reason`` if given) and leaves ``st`` unchanged."""
    before = snapshot(st)
    with pytest.raises(IllegalAction) as info:
        step(st, line)
    assert snapshot(st) == before
    if reason is not None:
        assert info.value.reason == reason, str(info.value)
    assert str(info.value)
    return info.value


def hand_codes(st: RoundState, seat: int) -> set[str]:
    """The codes of the cards in ``seat``'s playable hand (not the face-down indicator)."""
    return {card_code(c) for c in range(32) if st.hands[seat] >> c & 1}


def kinds(events: Iterable[Event]) -> list[str]:
    return [type(e).__name__ for e in events]


def to_play(
    rules: Rules,
    dealer: int,
    hands: Mapping[int, str],
    bidder: int,
    bid: int,
    trump: str,
) -> tuple[RoundState, list[Event]]:
    """Deal, let ``bidder`` win the auction at ``bid`` (everyone else passing where they may),
    choose ``trump`` (``"H"``, ``"seventh"``, ``"7H"``), pass every doubling and Single Hand
    call: the state at the first lead (or wherever the round ended) and every event."""
    st, events = start(rules, dealer, hands)
    while st.phase is Phase.AUCTION:
        seat = st.speaker
        options = legal_actions(st, seat)
        if seat == bidder and Action(seat, Act.BID, bid) in options:
            action = Action(seat, Act.BID, bid)
        elif Action(seat, Act.PASS) in options:
            action = Action(seat, Act.PASS)
        else:
            action = options[0]
        st, ev = apply(st, action)
        events.extend(ev)
    if st.phase is Phase.TRUMP:
        assert st.bidder == bidder and st.bid == bid, (st.bidder, st.bid)
        st, ev = step(st, f"{bidder}: trump {trump}")
        events.extend(ev)
    while st.phase in (Phase.DOUBLING, Phase.SEVENTH_REDOUBLE, Phase.SINGLE_HAND):
        st, ev = apply(st, Action(to_act(st)[0], Act.PASS))
        events.extend(ev)
    return st, events


def autoplay(
    st: RoundState, until: Callable[[RoundState], bool] | None = None
) -> tuple[RoundState, list[Event]]:
    """Play on with a fixed policy (the lowest legal card; ask for trump only when nothing
    else is legal; never declare a pair) until the round is over or ``until(state)``."""
    events: list[Event] = []
    while st.phase is Phase.PLAY and not (until is not None and until(st)):
        options = legal_actions(st, st.turn)
        plays = [a for a in options if a.act is Act.PLAY]
        action = min(plays, key=lambda a: a.arg) if plays else Action(st.turn, Act.REVEAL)
        st, ev = apply(st, action)
        events.extend(ev)
    return st, events
