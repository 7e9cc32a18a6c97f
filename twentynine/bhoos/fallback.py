"""An answer from the request itself, for a history our engine cannot replay.

Other bots' game servers send histories our rules do not produce: an auction that does not fit
our duel, trump shown by a player we did not expect, tricks out of order or repeated, points
that do not add up. A bot that refuses such a request forfeits its move, so when
``rebuild.reconstruct`` finds no engine state for a well-formed request, the server answers from
what the request says directly: the cards in our hand, the cards on the table, the bid state,
the trump if we know it and who asked for it. The answer is legal by the protocol's own rules
(``shared/BHOOS-PROTOCOL.md``), which is all the game server checks:

* bid: the first bidder bids the minimum or its hand's limit; a challenger bids one more than
  the defender when its hand supports it, a defender matches the challenger when its hand
  supports that, and otherwise they pass;
* chooseTrump: the suit the hand-evaluation model rates best;
* play: follow the suit led when we can; the player who asked for trump in this trick plays a
  trump, beating an opponent's winning trump when it can; otherwise any card. Among the legal
  cards: give points to a partner who is winning, win cheaply when we can, else throw the
  cheapest.
"""

from __future__ import annotations

from ..bots.evaluate import best_trump, bid_limit
from ..engine.actions import BIDS, PLAYS, SIMPLE_ACTIONS, TRUMP_SUITS, Act, Action
from ..engine.cards import Card, card_points, mask_of
from ..engine.rules import Rules
from .payload import PayloadError, Request

MIN_BID, MAX_BID = 16, 28


def fallback_action(req: Request, rules: Rules) -> Action:
    """A legal answer to ``req`` worked out from the request alone (see the module text)."""
    if not req.cards:
        raise PayloadError("cards: an empty hand cannot answer")
    if req.endpoint == "bid":
        return _bid(req, rules)
    if req.endpoint == "chooseTrump":
        suit, _ = best_trump(mask_of(req.cards[:4]))
        return TRUMP_SUITS[req.seat][suit]
    return _play(req)


# -- the auction ------------------------------------------------------------------------------
def _bid(req: Request, rules: Rules) -> Action:
    me = req.seat
    low, high = rules.min_bid, rules.max_bid
    limit = bid_limit(mask_of(req.cards[:4]), low, high)
    passing = SIMPLE_ACTIONS[me][Act.PASS]
    state = req.bid_state
    history = req.bid_history or ()
    if state is None or state.defender_bid == state.challenger_bid == 0:
        # nobody has bid yet: the first bidder of the Bhoos rules must open
        must = rules.first_bid_required and not any(value for _, value in history)
        return BIDS[me][low] if must or limit >= low else passing
    if me == state.defender:  # match the challenger, never more
        value = state.challenger_bid  # a bid state out of the rules' range: pass
        return BIDS[me][value] if low <= value <= min(limit, high) else passing
    value = max(state.defender_bid, state.challenger_bid, low - 1) + 1
    return BIDS[me][value] if value <= min(limit, high) else passing


# -- the play ---------------------------------------------------------------------------------
def _strength(card: Card, lead: int, trump: int | None) -> int:
    """How strong ``card`` is in a trick led in ``lead`` (trump counts once shown)."""
    if trump is not None and card >> 3 == trump:
        return 16 + (card & 7)
    if card >> 3 == lead:
        return 8 + (card & 7)
    return -1


def _cheap(card: Card) -> tuple[int, int]:
    return (card_points(card), card & 7)


def _play(req: Request) -> Action:
    me = req.seat
    hand = list(req.cards)
    played = list(req.played[:3])
    current = len(req.hands_history) + 1
    revealed = req.trump_revealed
    trump_counts = req.trump_suit if revealed is not None else None
    if not played:  # our lead: a master Jack if we hold one, else the cheapest card
        jacks = [
            c for c in hand if c & 7 == 7 and (trump_counts is None or c >> 3 != req.trump_suit)
        ]
        card = jacks[0] if jacks else min(hand, key=_cheap)
        return PLAYS[me][card]
    lead = played[0] >> 3
    strengths = [_strength(c, lead, trump_counts) for c in played]
    best_i = max(range(len(played)), key=lambda i: strengths[i])
    # the player who played played[i] sits len(played) - i seats before us
    partner_winning = len(played) - best_i == 2
    follow = [c for c in hand if c >> 3 == lead]
    if follow:
        allowed = follow
    elif revealed == (current, me) and req.trump_suit is not None:
        trumps = [c for c in hand if c >> 3 == req.trump_suit]
        allowed = trumps or hand
        best = played[best_i]
        if trumps and not partner_winning and best >> 3 == req.trump_suit:
            higher = [c for c in trumps if c & 7 > best & 7]
            allowed = higher or trumps
    else:
        allowed = hand
    if partner_winning:
        card = max(allowed, key=lambda c: (card_points(c), -(c & 7)))
        return PLAYS[me][card]
    top = strengths[best_i]
    winners = [c for c in allowed if _strength(c, lead, trump_counts) > top]
    card = min(winners or allowed, key=_cheap)
    return PLAYS[me][card]
