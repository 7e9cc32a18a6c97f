"""Actions: what a seat may do, with a one-line text form and a JSON form that round-trip.

Text forms: ``bid 17``, ``pass``, ``trump H``, ``trump seventh``, ``trump 7H`` (a hand card laid
face down as the indicator), ``double``, ``redouble``, ``setdouble``, ``single_hand``, ``reveal``,
``play JS``, ``pair``. The seat is not part of the text; records keep it beside the action.
"""

from __future__ import annotations

import enum
from typing import Any, NamedTuple

from .cards import SUITS, card_code, parse_card, parse_suit
from .errors import NotationError


class Act(enum.IntEnum):
    BID = 0
    PASS = 1
    TRUMP_SUIT = 2
    TRUMP_SEVENTH = 3
    TRUMP_CARD = 4
    DOUBLE = 5
    REDOUBLE = 6
    SETDOUBLE = 7
    SINGLE_HAND = 8
    REVEAL = 9
    PLAY = 10
    PAIR = 11


_NO_ARG = -1


class Action(NamedTuple):
    """One seat's action. ``arg`` is the bid, the suit, or the card, where the act has one."""

    seat: int
    act: Act
    arg: int = _NO_ARG

    @property
    def text(self) -> str:
        return action_text(self)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, **action_json(self)}

    def __str__(self) -> str:
        return f"{self.seat}: {action_text(self)}"


_SIMPLE: dict[Act, str] = {
    Act.PASS: "pass",
    Act.DOUBLE: "double",
    Act.REDOUBLE: "redouble",
    Act.SETDOUBLE: "setdouble",
    Act.SINGLE_HAND: "single_hand",
    Act.REVEAL: "reveal",
    Act.PAIR: "pair",
}
_SIMPLE_BY_NAME = {v: k for k, v in _SIMPLE.items()}


def action_text(a: Action) -> str:
    act = a.act
    if act is Act.BID:
        return f"bid {a.arg}"
    if act is Act.PLAY:
        return f"play {card_code(a.arg)}"
    if act is Act.TRUMP_SUIT:
        return f"trump {SUITS[a.arg]}"
    if act is Act.TRUMP_SEVENTH:
        return "trump seventh"
    if act is Act.TRUMP_CARD:
        return f"trump {card_code(a.arg)}"
    return _SIMPLE[act]


def parse_action(text: str, seat: int) -> Action:
    """Read a text form (``bid 17``, ``play JS`` …) as the action of ``seat``."""
    words = text.strip().split()
    if not words:
        raise NotationError("empty action")
    head = words[0].lower()
    rest = words[1:]
    if head in _SIMPLE_BY_NAME:
        if rest:
            raise NotationError(f"{head!r} takes nothing after it: {text!r}")
        return Action(seat, _SIMPLE_BY_NAME[head])
    if len(rest) != 1:
        raise NotationError(f"cannot read action {text!r}")
    arg = rest[0]
    if head == "bid":
        if not arg.isdigit():
            raise NotationError(f"a bid is a whole number: {text!r}")
        return Action(seat, Act.BID, int(arg))
    if head == "play":
        return Action(seat, Act.PLAY, parse_card(arg))
    if head == "trump":
        if arg.lower() == "seventh":
            return Action(seat, Act.TRUMP_SEVENTH)
        if len(arg) == 1:
            return Action(seat, Act.TRUMP_SUIT, parse_suit(arg))
        return Action(seat, Act.TRUMP_CARD, parse_card(arg))
    raise NotationError(f"unknown action {text!r}")


def action_json(a: Action) -> dict[str, Any]:
    """The record form without the seat: ``{"act": "bid", "value": 17}`` and so on."""
    act = a.act
    if act is Act.BID:
        return {"act": "bid", "value": a.arg}
    if act is Act.PLAY:
        return {"act": "play", "card": card_code(a.arg)}
    if act is Act.TRUMP_SUIT:
        return {"act": "trump", "suit": SUITS[a.arg]}
    if act is Act.TRUMP_SEVENTH:
        return {"act": "trump", "suit": "seventh"}
    if act is Act.TRUMP_CARD:
        return {"act": "trump", "card": card_code(a.arg)}
    return {"act": _SIMPLE[act]}


def action_from_json(obj: Any, seat: int | None = None) -> Action:
    """Read ``{"seat": 1, "act": "bid", "value": 17}`` (seat may be given separately)."""
    if not isinstance(obj, dict):
        raise NotationError(f"an action is a JSON object, not {obj!r}")
    if seat is None:
        s = obj.get("seat")
        if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s <= 3:
            raise NotationError(f"action seat must be 0-3: {obj!r}")
        seat = s
    name = obj.get("act")
    if not isinstance(name, str):
        raise NotationError(f"action without an 'act': {obj!r}")
    allowed = {"seat", "act"}
    if name in _SIMPLE_BY_NAME:
        act = Action(seat, _SIMPLE_BY_NAME[name])
    elif name == "bid":
        value = obj.get("value")
        if not isinstance(value, int) or isinstance(value, bool):
            raise NotationError(f"a bid needs a whole-number 'value': {obj!r}")
        act, allowed = Action(seat, Act.BID, value), allowed | {"value"}
    elif name == "play":
        code = obj.get("card")
        if not isinstance(code, str):
            raise NotationError(f"a play needs a 'card': {obj!r}")
        act, allowed = Action(seat, Act.PLAY, parse_card(code)), allowed | {"card"}
    elif name == "trump":
        if "card" in obj:
            code = obj["card"]
            if not isinstance(code, str):
                raise NotationError(f"trump 'card' must be a card code: {obj!r}")
            act, allowed = Action(seat, Act.TRUMP_CARD, parse_card(code)), allowed | {"card"}
        else:
            suit = obj.get("suit")
            if not isinstance(suit, str):
                raise NotationError(f"trump needs a 'suit' or a 'card': {obj!r}")
            if suit == "seventh":
                act = Action(seat, Act.TRUMP_SEVENTH)
            else:
                act = Action(seat, Act.TRUMP_SUIT, parse_suit(suit))
            allowed = allowed | {"suit"}
    else:
        raise NotationError(f"unknown act {name!r}")
    extra = sorted(set(obj) - allowed)
    if extra:
        raise NotationError(f"unexpected field(s) {', '.join(extra)} in action {obj!r}")
    return act


# -- interned actions ------------------------------------------------------------------------
# Actions are immutable values; the legal-action generators hand out these shared instances so
# that search and random play do not build the same small tuples again and again.
BIDS: tuple[tuple[Action, ...], ...] = tuple(
    tuple(Action(seat, Act.BID, v) for v in range(30)) for seat in range(4)
)
PLAYS: tuple[tuple[Action, ...], ...] = tuple(
    tuple(Action(seat, Act.PLAY, c) for c in range(32)) for seat in range(4)
)
TRUMP_CARDS: tuple[tuple[Action, ...], ...] = tuple(
    tuple(Action(seat, Act.TRUMP_CARD, c) for c in range(32)) for seat in range(4)
)
TRUMP_SUITS: tuple[tuple[Action, ...], ...] = tuple(
    tuple(Action(seat, Act.TRUMP_SUIT, s) for s in range(4)) for seat in range(4)
)
#: SIMPLE_ACTIONS[seat][act] for the acts without an argument (and TRUMP_SEVENTH)
SIMPLE_ACTIONS: tuple[dict[Act, Action], ...] = tuple(
    {act: Action(seat, act) for act in (*_SIMPLE, Act.TRUMP_SEVENTH)} for seat in range(4)
)
