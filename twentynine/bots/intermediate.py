"""The intermediate bot: hand evaluation for the contract, card counting for the play.

Bidding and doubling use the fitted model of ``evaluate.py``. In the play it keeps track of the
cards that are out and of who is void where (``knowledge.py``), and scores each legal card by
what the trick is worth to its team (the chance of winning it times the points it will hold)
against what the card would be worth kept for later: it gives points to a partner who is sure
to win, does not overtake them, cashes its master cards, draws trumps when that pays, and asks
for trump only when that wins points.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..engine.actions import Act, Action
from ..engine.cards import SUIT_MASKS, Card, card_points, mask_of
from ..engine.rules import Rules
from ..engine.state import Phase, partner, team_of
from ..engine.views import View
from .base import obvious
from .beginner import find, trump_action
from .evaluate import (
    above,
    beats,
    best_trump,
    can_call_single_hand,
    contest_gain,
    expected_points,
    forced_challenge_gain,
    limit_for_value,
    make_probability,
    seventh_value,
    should_double,
    trick_winner,
)
from .knowledge import Knowledge, World

#: points the other three add, on average, to a trick won later with a card kept now
FUTURE_TRICK = 1.2
#: points a trump kept for later wins, on average (it ruffs a trick worth having)
TRUMP_FUTURE = 4.0
#: the bidder's cost of showing its trump (the defenders learn it)
SHOW_COST = 0.6
#: the defenders' gain from making the bidder's trump known
SHOW_GAIN = 0.3
#: the chance a side-suit master kept for later still wins a trick (trumps come out)
MASTER_KEEP = 0.45
#: the share of a kept card's points expected to be lost when it does not win a trick
LOSS_RISK = 0.25
#: the bidder's team's chance of making it below which a defender doubles (sets double)
DOUBLE_ODDS = 0.3
SETDOUBLE_ODDS = 0.2
#: the chance above which the bidder redoubles
REDOUBLE_ODDS = 0.75
#: what a defenders' Double says about their cards, in the bidder's expected points
DOUBLED_DISCOUNT = 1.5
#: hidden deals drawn for each decision in the play
WORLDS = 12
#: the value of leading trump for the bidder's side while the defenders may hold some
DRAW_BONUS = 0.0
#: the bidder's cost of leading its hidden trump suit
HIDE_BONUS = 2.0
#: leading back a suit the partner led
PARTNER_SUIT_BONUS = 0.5
#: the chance of taking all eight tricks needed to call Single Hand (the estimate is cautious)
SINGLE_HAND_ODDS = 0.8
#: the value of showing trump (or not) once the result is settled and a deal without trump
#: shown would not count
DECIDED = 20.0
SINGLE_HAND_REDOUBLE_ODDS = 0.97
#: what a trick is worth in a Single Hand (losing one loses the round)
SINGLE_TRICK = 10
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
            return _Play(view, self.rng).choose()
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
        seat = _seat(view)
        bids = [a for a in legal if a.act is Act.BID]
        passing = find(legal, Act.PASS)
        if passing is None:
            return min(bids, key=lambda a: a.arg)
        if not bids:
            return passing
        hand = _hand(view, seat)
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
        hand = _hand(view, _seat(view))
        suit, value = best_trump(hand)
        seventh = find(view.legal, Act.TRUMP_SEVENTH)
        if seventh is not None and seventh_value(hand) > value + 0.3:
            return seventh
        return trump_action(view, suit)

    # -- doubling -------------------------------------------------------------------------------
    def _doubling(self, view: View) -> Action:
        seat = _seat(view)
        passing = find(view.legal, Act.PASS)
        call = next((a for a in view.legal if a.act is not Act.PASS), None)
        if passing is None or call is None:
            return view.legal[0]
        bidder = view.bidder if view.bidder is not None else seat
        hand = _hand(view, seat)
        target = view.target if view.target is not None else view.bid
        if team_of(seat) != team_of(bidder):
            limit = DOUBLE_ODDS if call.act is Act.DOUBLE else SETDOUBLE_ODDS
            double = should_double(hand, view.bid, target, view.rules.min_bid, limit)
            return call if double else passing
        p = bidder_view_of_contract(view, hand, seat, target)
        return call if p > REDOUBLE_ODDS else passing

    def _seventh_redouble(self, view: View) -> Action:
        seat = _seat(view)
        hand = _hand(view, seat)
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
        hand = _hand(view, _seat(view))
        if view.indicator is not None:
            hand |= 1 << view.indicator
        return call if can_call_single_hand(hand, SINGLE_HAND_ODDS) else passing

    def _single_hand_doubling(self, view: View) -> Action:
        seat = _seat(view)
        passing = find(view.legal, Act.PASS)
        redouble = find(view.legal, Act.REDOUBLE)
        if passing is None:
            return view.legal[0]
        sure = view.caller == seat and can_call_single_hand(
            _hand(view, seat), SINGLE_HAND_REDOUBLE_ODDS
        )
        return redouble if redouble is not None and sure else passing


# -- contract estimates -----------------------------------------------------------------------


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


# -- the play ---------------------------------------------------------------------------------


def _seat(view: View) -> int:
    if view.viewer is None:
        raise ValueError("a bot needs a seat's view")
    return view.viewer


def _hand(view: View, seat: int) -> int:
    return mask_of(view.hands[seat] or ())


@dataclass
class _Option:
    action: Action
    value: float


class _Play:
    """One decision in the play: each legal card (and asking for trump) is tried in a few
    hidden deals drawn from what this seat knows; the rest of the trick is played out by a
    simple policy that sees those cards; a card scores the trick's points (won or lost) less
    what it would be worth kept for later."""

    def __init__(self, view: View, rng: random.Random, worlds: int = 0) -> None:
        self.v = view
        self.rules = view.rules
        self.seat = _seat(view)
        self.k = Knowledge.from_view(view)
        self.hand = _hand(view, self.seat)
        self.trump = view.trump if view.trump is not None else -1
        self.shown = view.trump_shown
        self.single = view.caller is not None
        self.bidder = view.bidder if view.bidder is not None else -1
        self.seventh = view.trump_mode == "seventh"
        self.cards = [a for a in view.legal if a.act is Act.PLAY]
        self.reveal = find(view.legal, Act.REVEAL)
        self.trick = view.trick
        self.order = self._order()
        me = self.order.index(self.seat) if self.seat in self.order else 0
        self.later = self.order[me + 1 :]
        self.tricks_left = 8 - len(view.tricks)
        self.rng = rng
        self.n_worlds = worlds or WORLDS
        self.mate = partner(self.seat)
        #: the suits the partner has led (its strength, or where it wants the lead back)
        self.partner_suits = {
            t.plays[0][1] >> 3 for t in view.tricks if t.plays[0][0] == self.mate
        } - {self.trump if self.shown else -1}
        self._worlds: list[World] | None = None

    @property
    def worlds(self) -> list[World]:
        if self._worlds is None:
            self._worlds = [self.k.sample_hidden(self.rng) for _ in range(self.n_worlds)]
        return self._worlds

    def _order(self) -> list[int]:
        v = self.v
        leader = v.trick[0][0] if v.trick else (v.turn if v.turn is not None else self.seat)
        out = []
        for i in range(4):
            s = (leader + i) & 3
            if v.sits_out is not None and s == v.sits_out:
                continue
            out.append(s)
        return out

    def is_opp(self, s: int) -> bool:
        return (s - self.seat) & 1 == 1

    def _opponents(self) -> list[int]:
        return [s for s in range(4) if self.is_opp(s) and s != self.v.sits_out]

    # -- what a card is worth kept --------------------------------------------------------------
    def keep_value(self, c: Card) -> float:
        """What ``c`` is worth kept for a later trick: its chance to win one then (with the
        points that come with it), less the risk of losing its own points."""
        suit = c >> 3
        higher = self.k.unseen & above(c)
        n_higher = higher.bit_count()
        mine_below = (self.hand & SUIT_MASKS[suit] & ~above(c) & ~(1 << c)).bit_count()
        is_trump = suit == self.trump and not self.single
        if is_trump:
            q = 0.95 if n_higher == 0 else max(0.15, 0.75 - 0.2 * n_higher)
            if not self.shown:
                q *= 0.85
        elif n_higher == 0:
            q = MASTER_KEEP
            ruffers = [s for s in self._opponents() if self.k.is_void(s, suit)]
            if ruffers and not self.single:
                q = 0.35
        elif n_higher == 1:
            q = 0.5 if mine_below >= 1 else 0.2
        elif n_higher == 2:
            q = 0.35 if mine_below >= 2 else 0.25 if mine_below == 1 else 0.1
        else:
            q = 0.05
        if self.tricks_left <= 1:
            q = 0.0
        pts = card_points(c)
        future = TRUMP_FUTURE if is_trump else FUTURE_TRICK
        # a card that does not win may still fall on a partner's trick: a small risk only
        return q * (pts + future) - (1 - q) * pts * LOSS_RISK

    # -- choosing -------------------------------------------------------------------------------
    def choose(self) -> Action:
        if not self.cards:
            return self.reveal if self.reveal is not None else self.v.legal[0]
        if len(self.cards) == 1 and self.reveal is None:
            return self.cards[0]
        counts = self.trump if self.shown and not self.single else -1
        options = [self._card_option(a, counts) for a in self.cards]
        if self.reveal is not None:
            options.append(self._reveal_option())
        best = max(options, key=lambda o: (o.value, -_rank_key(o.action)))
        return best.action

    def _card_option(self, a: Action, counts: int) -> _Option:
        c = a.arg
        total = 0.0
        for w in self.worlds:
            total += self._outcome(w, c, counts)
        keep = self.keep_value(c)
        if self.single:
            keep *= 0.1  # every trick decides a Single Hand: later tricks only break ties
        value = total / len(self.worlds) - keep
        if not self.trick:
            value += self._lead_bonus(c, counts)
        return _Option(a, value)

    def _reveal_option(self) -> _Option:
        """Ask for trump: it is shown, this trick counts trumps, and this seat must then trump
        if it can (it chooses its card knowing the suit)."""
        assert self.reveal is not None
        must = self.rules.must_trump_after_reveal
        total = 0.0
        for w in self.worlds:
            t = w.trump
            hand = self.hand
            if self.seat == self.bidder and w.indicator >= 0:
                hand |= 1 << w.indicator
            trumps = hand & SUIT_MASKS[t] if t >= 0 else 0
            pool = trumps if (trumps and must) else hand
            saved = self.trump
            self.trump = t
            best = max(self._outcome(w, c, t) - self.keep_value(c) for c in _cards(pool))
            self.trump = saved
            total += best
        value = total / len(self.worlds)
        on_bidder_side = not self.single and not self.is_opp(self.bidder)
        value += -SHOW_COST if on_bidder_side else SHOW_GAIN
        settled = self._settled()
        if settled and self.rules.invalid_trump_never_shown:
            # a deal whose trump is never shown does not count: the side that has lost keeps
            # it hidden, the side that has won wants it shown
            bidder_made = settled > 0
            value += DECIDED if bidder_made == on_bidder_side else -DECIDED
        return _Option(self.reveal, value)

    def _settled(self) -> int:
        """+1 if the bidder's team has already reached its target, -1 if it can no longer
        reach it, 0 while it is open (regular rounds)."""
        v = self.v
        if self.single or v.target is None or self.bidder < 0:
            return 0
        team = self.bidder & 1
        have = v.points[team]
        if have >= v.target:
            return 1
        out = 28 - v.points[0] - v.points[1] + (1 if self.rules.last_trick_point else 0)
        return -1 if have + out < v.target else 0

    def _lead_bonus(self, c: Card, counts: int) -> float:
        suit = c >> 3
        bonus = 0.0
        if counts >= 0 and suit == counts and not self.is_opp(self.bidder):
            # drawing trumps with the master trump clears the way for the side suits' masters
            left = self.k.unseen & SUIT_MASKS[counts]
            if left and not left & above(c):
                bonus += DRAW_BONUS
        if self.trump >= 0 and not self.shown and suit == self.trump and not self.single:
            bonus -= HIDE_BONUS  # a bidder keeps a hidden trump suit out of sight
        if suit in self.partner_suits and not self.k.is_void(self.mate, suit):
            bonus += PARTNER_SUIT_BONUS  # back to the suit the partner chose to lead
        return bonus

    # -- the rest of the trick in one hidden deal ---------------------------------------------
    def _outcome(self, w: World, c: Card, counts: int) -> float:
        """Points this trick brings this seat's team (won minus lost) in world ``w`` when this
        seat plays ``c`` now and the later players follow the policy."""
        plays = [*self.trick, (self.seat, c)]
        if self.seat == self.bidder and c == w.indicator and not self.shown:
            counts = w.trump  # playing the face-down card shows trump
        for x in self.later:
            card, counts = self._policy(w, x, plays, counts)
            plays.append((x, card))
        winner, _ = trick_winner(plays, counts)
        points = sum(card_points(p) for _, p in plays)
        if len(self.v.tricks) == 7 and self.rules.last_trick_point:
            points += 1
        if self.single:
            points = SINGLE_TRICK
        return points if not self.is_opp(winner) else -points

    def _policy(
        self, w: World, x: int, plays: list[tuple[int, Card]], counts: int
    ) -> tuple[Card, int]:
        """The card ``x`` plays (seeing world ``w``), and the trump that counts after it."""
        hand = w.hands[x]
        mine = {c for _, c in plays}
        for _, c in plays:
            hand &= ~(1 << c)
        lead = plays[0][1] >> 3
        follow = hand & SUIT_MASKS[lead]
        t = w.trump
        best_seat, best = trick_winner(plays, counts)
        partner_wins = (best_seat - x) & 1 == 0
        opts = follow
        if not follow:
            opts = hand
            if counts < 0 and t >= 0 and not self.single:
                ind = w.indicator if x == self.bidder and not self.shown else -1
                if (
                    ind >= 0
                    and ind not in mine
                    and (not hand or (self.seventh and ind >> 3 == lead))
                ):
                    return ind, t  # the face-down card must be played, and shows trump
                mode = self.rules.trump_reveal
                points = sum(card_points(p) for _, p in plays)
                ask = mode != "on_request" or (
                    not partner_wins and (points >= 2 or (x == self.bidder and points >= 1))
                )
                if ask:
                    counts = t
                    if ind >= 0 and ind not in mine:
                        hand |= 1 << ind
                    trumps = hand & SUIT_MASKS[t]
                    opts = trumps if trumps and self.rules.must_trump_after_reveal else hand
                    best_seat, best = trick_winner(plays, counts)
                    partner_wins = (best_seat - x) & 1 == 0
            if not opts:
                opts = hand
        if not opts:  # nothing left in this world (cannot happen in a consistent deal)
            return plays[0][1], counts
        rest = self._after(x)
        threats = [y for y in rest if (y - x) & 1]
        if partner_wins:
            if not self._threatened(w, best, lead, counts, threats, plays):
                return _give(opts, counts), counts
            return _throw(opts, counts), counts
        beaters = [c for c in _cards(opts) if beats(c, best, lead, counts)]
        if beaters:
            safe = [c for c in beaters if not self._threatened(w, c, lead, counts, threats, plays)]
            if safe:
                return min(safe, key=_cost), counts
            if not threats:
                return min(beaters, key=_cost), counts
            points = sum(card_points(p) for _, p in plays)
            if points >= 2:
                return max(beaters), counts  # the best chance to keep what is there
        return _throw(opts, counts), counts

    def _after(self, x: int) -> list[int]:
        i = self.order.index(x)
        return self.order[i + 1 :]

    def _threatened(
        self,
        w: World,
        card: Card,
        lead: int,
        counts: int,
        threats: list[int],
        plays: list[tuple[int, Card]],
    ) -> bool:
        """Could one of ``threats`` (still to play) beat ``card`` in world ``w``?"""
        t = w.trump if not self.single else -1
        for y in threats:
            hand = w.hands[y]
            for _, c in plays:
                hand &= ~(1 << c)
            follow = hand & SUIT_MASKS[lead]
            if follow:
                if card >> 3 == lead and lead != counts and follow & above(card):
                    return True
                if card >> 3 == lead == counts and follow & above(card):
                    return True
                continue
            if t < 0 or lead == t:
                continue
            trumps = hand & SUIT_MASKS[t]
            if y == self.bidder and not self.shown and w.indicator >= 0:
                trumps |= 1 << w.indicator
            if card >> 3 == t and card >> 3 != lead:
                trumps &= above(card)
            if trumps:
                return True
        return False


def _give(opts: int, counts: int) -> Card:
    """A card for a partner who wins: the most points, not a trump if avoidable."""
    plain = opts & ~SUIT_MASKS[counts] if counts >= 0 else opts
    pool = plain or opts
    best = max(_cards(pool), key=lambda c: (card_points(c) if c & 7 != 7 else 0, -(c & 7)))
    return best


def _throw(opts: int, counts: int) -> Card:
    """The cheapest card to lose: no trump if avoidable, fewest points, lowest rank."""
    plain = opts & ~SUIT_MASKS[counts] if counts >= 0 else opts
    return min(_cards(plain or opts), key=_cost)


def _cost(c: Card) -> tuple[int, int]:
    return (card_points(c), c & 7)


def _cards(mask: int) -> list[Card]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _rank_key(a: Action) -> int:
    """Among equal options, play the lowest card (and prefer a card to asking)."""
    if a.act is Act.PLAY:
        return a.arg & 7
    return 9


__all__ = ["IntermediateBot"]
