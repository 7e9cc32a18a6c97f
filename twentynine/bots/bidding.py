"""What the auction says, as the rules-based bots read it: whether the first hand's opening
was forced on it (and so says nothing), whether the other side contests the contract, and the
highest bid a four-card hand is worth given the calls heard so far."""

from __future__ import annotations

from ..engine.actions import Act
from ..engine.rules import Rules
from ..engine.state import partner
from ..engine.views import View
from .evaluate import best_trump, expected_points, limit_for_value, make_probability

#: what a defenders' Double says about their cards, in the bidder's expected points
DOUBLED_DISCOUNT = 1.5
#: what an opponent's bid (one the rules did not force) takes from our four cards' expected
#: points, at the minimum bid and for each point above it, up to the cap: the strength it
#: shows is strength we do not hold. Fitted on 26,821 random deals solved open-handed (our
#: seat as bidder with the trump its four cards name; the points it takes against what its
#: four cards' worth, ``best_trump``, predicts): an opponent whose four cards are worth the
#: bid of 16, 17 or 18 (at least 15.5, 16.5, 17.5) leaves us 1.6, 1.9 and 2.9 points fewer,
#: a partner's as strong 2.0, 2.5 and 3.7 more; scaled about as the partner's +1.5 here is
#: to those (open-handed play exaggerates both)
OPP_BID_VALUE = 1.0
OPP_BID_STEP = 0.25
OPP_BID_CAP = 2.0


def forced_opening(view: View) -> bool:
    """Is the only bid so far the first hand's opening at the minimum, which the rules made
    it bid (``_forced_call``: it may not pass, or it opens without being asked)? Then it says
    nothing of the first hand's cards."""
    if not view.calls:
        return False
    first_seat, first_bid = view.calls[0]
    later = any(b > 0 for _, b in view.calls[1:])
    return first_seat == view.first_hand and _forced_call(view.rules, 0, first_bid) and not later


def contested(view: View, seat: int) -> bool:
    """Has the other side of ``seat`` made a bid in this auction that the rules did not force
    (``_forced_call``)? Then bidding on is a contest with a side that has shown strength."""
    rules = view.rules
    return any(
        b > 0 and (s - seat) & 1 and not _forced_call(rules, n, b)
        for n, (s, b) in enumerate(view.calls)
    )


def contest_role(view: View, seat: int) -> str | None:
    """``seat``'s part in a contest with the other side (``contested``), when it may bid on
    or pass: "challenger" (an opponent holds the bid) or "holder" (it holds the bid and an
    opponent challenged it); None otherwise (no contest, no such choice, or its partner
    holds the bid)."""
    legal = view.legal
    if not any(a.act is Act.PASS for a in legal) or not any(a.act is Act.BID for a in legal):
        return None
    if view.holder is None or not contested(view, seat):
        return None
    if (view.holder - seat) & 1:
        return "challenger"
    return "holder" if view.holder == seat else None


def real_partner_bid(view: View, seat: int) -> int:
    """The highest bid of ``seat``'s partner that the rules did not force (0: it passed and
    made no such bid; -1: it has not spoken)."""
    mate = partner(seat)
    rules = view.rules
    return max(
        (b for n, (s, b) in enumerate(view.calls) if s == mate and not _forced_call(rules, n, b)),
        default=-1,
    )


def bid_limit_for(
    view: View,
    hand: int,
    seat: int,
    shift: float = 0.0,
    forced: bool = False,
    *,
    read_bids: bool = False,
    confidence: float | None = None,
) -> int:
    """The highest bid worth making with this 4-card hand, given what the auction has shown
    (``shift`` is added to the chance of making it that a bid needs; ``forced``: the
    partner's bid is a forced opening and tells nothing; ``read_bids``: the opening the rules
    forced says nothing wherever it stands, so a partner who made it and passed later only
    passed, and an opponent's bid lowers what our cards are worth, ``opponent_bid_cost``;
    ``confidence``: the chance of making it that a bid needs, instead of the usual, before
    ``shift``)."""
    rules = view.rules
    _, value = best_trump(hand)
    if rules.last_trick_point:
        value += 0.6
    mate = partner(seat)
    calls = view.calls
    if read_bids:
        calls = tuple(c for n, c in enumerate(calls) if not _forced_call(rules, n, c[1]))
        value -= opponent_bid_cost(view, seat)
    spoke = {s for s, _ in calls}
    partner_bid = max((b for s, b in calls if s == mate), default=-1)
    if forced:
        partner_bid, spoke = -1, set()  # as if the partner had not spoken
    opp_bid = max((b for s, b in view.calls if s != seat and (s - seat) & 1), default=0)
    if partner_bid > 0:
        value += 1.5
    elif partner_bid == 0:
        value -= 0.4
    elif mate not in spoke:
        value += 0.2
    if confidence is None:
        confidence = 0.45 if opp_bid else 0.5  # letting them play is not free either
    return limit_for_value(value, rules.min_bid, rules.max_bid, confidence + shift)


def _forced_call(rules: Rules, n: int, bid: int) -> bool:
    """Is the ``n``-th call of the auction, ``bid``, the first hand's opening at the minimum
    that the rules made it bid? (It says nothing of its cards.)"""
    forcing = rules.auction == "first_forced" or rules.first_bid_required
    return n == 0 and forcing and bid == rules.min_bid


def opponent_bid_cost(view: View, seat: int) -> float:
    """The expected points an opponent's highest bid takes from ``seat``'s own estimate
    (``OPP_BID_VALUE``); 0 when no opponent bid, or its only bid was the opening the rules
    forced on the first hand: it says nothing of its cards."""
    rules = view.rules
    informative = [
        b
        for n, (s, b) in enumerate(view.calls)
        if b > 0 and (s - seat) & 1 and not _forced_call(rules, n, b)
    ]
    if not informative:
        return 0.0
    step = OPP_BID_STEP * (max(informative) - rules.min_bid)
    return min(OPP_BID_CAP, OPP_BID_VALUE + step)


def bidder_view_of_contract(view: View, hand: int, seat: int, target: int) -> float:
    """The bidder's team's chance of making ``target``, as a member of that team sees it
    after the defenders doubled (a double shows strength). Only the bidder, who knows the
    trump, trusts its estimate; its partner leaves the call to it."""
    if seat != view.bidder or view.trump is None:
        return 0.0
    value = expected_points(hand, view.trump) - DOUBLED_DISCOUNT
    return make_probability(value, target)
