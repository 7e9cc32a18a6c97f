"""The intermediate bot: hand evaluation for the calls, card counting for the play.

Bidding and doubling use the fitted model of ``evaluate.py`` and what the auction says
(``bidding.py``); the play is ``cardplay.TrickPlay``: it keeps track of the cards that are out
and of who is void where (``knowledge.py``) and scores each legal card by the trick it wins or
loses against what the card would be worth kept for later.
"""

from __future__ import annotations

import random

from ..engine.actions import Act, Action
from ..engine.state import Phase, partner, team_of
from ..engine.views import View
from .base import hand_of, obvious, seat_of
from .beginner import find, trump_action
from .bidding import (
    bid_limit_for,
    bidder_view_of_contract,
    contest_role,
    contested,
    forced_opening,
    real_partner_bid,
)
from .cardplay import TrickPlay
from .evaluate import (
    best_trump,
    can_call_single_hand,
    contest_gain,
    expected_points,
    forced_challenge_gain,
    make_probability,
    seventh_value,
    should_double,
)

#: the bidder's team's chance of making it below which a defender doubles (sets double)
DOUBLE_ODDS = 0.3
SETDOUBLE_ODDS = 0.2
#: the chance above which the bidder redoubles
REDOUBLE_ODDS = 0.75
#: the chance of taking all eight tricks needed to call Single Hand (the estimate is cautious)
SINGLE_HAND_ODDS = 0.8
SINGLE_HAND_REDOUBLE_ODDS = 0.97


class IntermediateBot:
    name = "intermediate"
    #: added to the chance of making a bid that the auction asks for (negative: bolder)
    bid_shift = 0.0
    #: read a partner's opening that the rules forced (``forced_opening``) as saying nothing
    #: of its cards, and take the contract over from it as from nobody
    read_forced_opening = False
    #: read every bid for what it says (``bid_limit_for``): an opponent's as strength we lack
    #: (``OPP_BID_VALUE``), the forced opening as nothing wherever it stands
    read_bids = False
    #: the chance of making its bid a challenger needs to bid over an opponent's opening that
    #: the rules forced (``forced_opening``); None: the usual 0.45 against any opponent's bid
    forced_challenge_odds: float | None = None
    #: the chance of making its bid needed to bid on against an opponent's real bid (any bid
    #: of the other side but the opening the rules forced: ``contested``); None: the usual 0.45
    contest_odds: float | None = None
    #: a holder whose partner challenges it lets the partner play (passes) unless its own
    #: hand supports 3 more than the bid, as a challenger does when its partner holds
    yield_to_partner = False
    #: bid over an opponent's forced opening when that wins the deal more often than letting
    #: it stand (``evaluate.forced_challenge_gain``), not by the chance of making it alone
    challenge_by_gain = False
    #: in a contest (``contest_role``), bid on when the fitted model of the gain says so
    #: (``evaluate.contest_gain`` with these weights), not by the chance of making it alone
    contest_weights: dict[str, float] | None = None

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        sure = obvious(view)
        if sure is not None:
            return sure
        phase = view.phase
        if phase is Phase.PLAY:
            return TrickPlay(view, self.rng).choose()
        if phase is Phase.AUCTION:
            return self._auction(view)
        if phase is Phase.TRUMP:
            return self._trump(view)
        if phase is Phase.DOUBLING:
            return self._doubling(view)
        if phase is Phase.SEVENTH_REDOUBLE:
            return self._seventh_redouble(view)
        if phase is Phase.SINGLE_HAND:
            return self._single_hand(view)
        if phase is Phase.SINGLE_HAND_DOUBLING:
            return self._single_hand_doubling(view)
        passing = find(view.legal, Act.PASS)
        return passing if passing is not None else view.legal[0]

    # -- the auction ----------------------------------------------------------------------------
    def _auction(self, view: View) -> Action:
        legal = view.legal
        seat = seat_of(view)
        bids = [a for a in legal if a.act is Act.BID]
        passing = find(legal, Act.PASS)
        if passing is None:
            return min(bids, key=lambda a: a.arg)
        if not bids:
            return passing
        hand = hand_of(view, seat)
        holder = view.holder
        partner_holds = holder is not None and holder == partner(seat)
        forced = self.read_forced_opening and partner_holds and forced_opening(view)
        opponent_holds = holder is not None and (holder - seat) & 1 == 1
        if self.challenge_by_gain and opponent_holds and forced_opening(view):
            low = min(bids, key=lambda a: a.arg)
            return low if forced_challenge_gain(hand) > 0 else passing
        if self.contest_weights is not None and contest_role(view, seat) is not None:
            low = min(bids, key=lambda a: a.arg)
            gain = contest_gain(
                hand, holder == seat, low.arg, real_partner_bid(view, seat), self.contest_weights
            )
            return low if gain > 0 else passing
        odds = None
        if self.forced_challenge_odds is not None and opponent_holds and forced_opening(view):
            odds = self.forced_challenge_odds
        elif self.contest_odds is not None and contested(view, seat):
            odds = self.contest_odds
        limit = bid_limit_for(
            view, hand, seat, self.bid_shift, forced, read_bids=self.read_bids, confidence=odds
        )
        if partner_holds and not forced and limit < view.bid + 3:
            return passing  # the partner plays it; raising only raises our own target
        if self.yield_to_partner and holder == seat and limit < view.bid + 3:
            challenger = next((s for s, b in reversed(view.calls) if b and s != seat), None)
            if challenger == partner(seat):
                return passing  # answering it only sets the partner raising our target
        affordable = [a for a in bids if a.arg <= limit]
        return min(affordable, key=lambda a: a.arg) if affordable else passing

    def _trump(self, view: View) -> Action:
        hand = hand_of(view, seat_of(view))
        suit, value = best_trump(hand)
        seventh = find(view.legal, Act.TRUMP_SEVENTH)
        if seventh is not None and seventh_value(hand) > value + 0.3:
            return seventh
        return trump_action(view, suit)

    # -- doubling -------------------------------------------------------------------------------
    def _doubling(self, view: View) -> Action:
        seat = seat_of(view)
        passing = find(view.legal, Act.PASS)
        call = next((a for a in view.legal if a.act is not Act.PASS), None)
        if passing is None or call is None:
            return view.legal[0]
        bidder = view.bidder if view.bidder is not None else seat
        hand = hand_of(view, seat)
        target = view.target if view.target is not None else view.bid
        if team_of(seat) != team_of(bidder):
            limit = DOUBLE_ODDS if call.act is Act.DOUBLE else SETDOUBLE_ODDS
            double = should_double(hand, view.bid, target, view.rules.min_bid, limit)
            return call if double else passing
        p = bidder_view_of_contract(view, hand, seat, target)
        return call if p > REDOUBLE_ODDS else passing

    def _seventh_redouble(self, view: View) -> Action:
        seat = seat_of(view)
        hand = hand_of(view, seat)
        ind = view.indicator
        passing = find(view.legal, Act.PASS)
        call = find(view.legal, Act.REDOUBLE)
        if ind is None or passing is None or call is None:
            return view.legal[0]
        value = expected_points(hand | (1 << ind), ind >> 3)
        target = view.target if view.target is not None else view.bid
        return call if make_probability(value, target) > REDOUBLE_ODDS else passing

    def _single_hand(self, view: View) -> Action:
        call = find(view.legal, Act.SINGLE_HAND)
        passing = find(view.legal, Act.PASS)
        if call is None or passing is None:
            return view.legal[0]
        hand = hand_of(view, seat_of(view))
        if view.indicator is not None:
            hand |= 1 << view.indicator
        return call if can_call_single_hand(hand, SINGLE_HAND_ODDS) else passing

    def _single_hand_doubling(self, view: View) -> Action:
        seat = seat_of(view)
        passing = find(view.legal, Act.PASS)
        redouble = find(view.legal, Act.REDOUBLE)
        if passing is None:
            return view.legal[0]
        sure = view.caller == seat and can_call_single_hand(
            hand_of(view, seat), SINGLE_HAND_REDOUBLE_ODDS
        )
        return redouble if redouble is not None and sure else passing


__all__ = ["IntermediateBot"]
