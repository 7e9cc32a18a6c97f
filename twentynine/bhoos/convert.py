"""Our engine's actions and views in the Bhoos 2023 bot protocol (``shared/BHOOS-PROTOCOL.md``;
its vocabulary and the reading of a request are in ``payload.py``, the engine state rebuilt from
one in ``rebuild.py``).

Server direction: ``answer_json`` turns our action into the answer; ``quick_choice`` is a legal
action found at once when there is no time to think.

Client direction: ``view_request`` turns our seat's ``View`` into the endpoint and body to send to
a Bhoos bot; ``parse_answer`` reads its answer back as our ``Action`` (checked against the legal
actions of the view).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..engine.actions import BIDS, PLAYS, SIMPLE_ACTIONS, TRUMP_SUITS, Act, Action
from ..engine.cards import SUITS, Card, card_points
from ..engine.state import Phase, team_of
from ..engine.views import View
from .payload import (
    PLAYER_IDS,
    Endpoint,
    PayloadError,
    card_to_bhoos,
    codes,
    duel_state,
    is_int,
    parse_bhoos_card,
    parse_bhoos_suit,
)


class AnswerError(ValueError):
    """A Bhoos bot's answer that is malformed or not legal now."""


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
        if not is_int(value):
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
