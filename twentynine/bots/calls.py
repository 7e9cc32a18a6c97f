"""The expert's calls by search: bids, trump, Double/Redouble/SetDouble, the seventh-card
Redouble and Single Hand.

For a call, the expert deals the cards it cannot see at random (``Deal``: every other seat's
eight cards and the rest of its own), weighs each deal by how likely the calls heard so far are
with the cards it gives their callers (``call_weight``: a bid says "my four cards are worth
about this much", a pass says they are not; a defender's Double says the same of its four
cards against the bid), and solves the sampled deals with the exact open-hand solver for each
contract the call could lead to: itself as bidder with each trump, or the player who holds the
bid now with the trump its four cards would name. The call with the best expected score wins:
the stake won or lost (Double and Redouble raise it; a deal with every point, with the rules'
all-tricks bonus, pays double), against what passing leaves: the holder's contract, or nothing
when nobody has bid.

The solver sees every card and plays trump as if shown from the first trick, so a contract's
points come out somewhat high for the side that would keep trump hidden; every call is judged
the same way, so the comparison between calls stays fair. A sample keeps its solved values for
the rest of the deal, so later calls of the same auction reuse and add to them.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from functools import lru_cache

from ..engine.actions import Act, Action
from ..engine.cards import mask_points
from ..engine.rules import Rules
from ..engine.state import REGULAR_STAKES, TrumpMode, partner, team_of
from ..engine.views import View
from .base import hand_of, pass_and_bids
from .callers import calls_in_turn
from .evaluate import best_trump, defenders_odds
from .solver import best_value, open_state

#: how sharply a call tells about the caller's cards: the spread, in expected points of its
#: four cards, over which a bid or a pass goes from unlikely to likely
CALL_SPREAD = 2.0
#: samples fewer than this leave the call to the rules of thumb
MIN_SAMPLES = 6
#: solved samples kept for one hand (a deal's auction rarely needs more)
MAX_SAMPLES = 160
#: a bid must beat passing by this much expected score (stake units): bidding on a coin flip
#: gives the opponents the lead and a known target
BID_MARGIN = 0.05
#: the points the exact solver's open-hand play gives the bidder's team beyond what it takes
#: at a table (every card seen, so no guessing where the Jacks are): over 200 random openings
#: the solved sampled deals gave the bidder 1.7 points more than the fitted model of deals
#: played out, and a bid the samples made on a coin flip was made far less often in play
#: (the searched calls measured 58% of their contracts made, the rules' 65%). The calibrated
#: expert counts a sample as made only with this many points to spare.
DD_BIAS = 2.0
#: a defender doubles when the bidder's chance is below this; the bidder redoubles above the
#: other (a Double invites a Redouble: keep a margin)
DOUBLE_BELOW = 0.38
REDOUBLE_ABOVE = 0.68


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


@dataclass
class Deal:
    """One sampled deal: four 8-card hands (masks), each seat's first four cards first."""

    first: tuple[int, int, int, int]
    hands: tuple[int, int, int, int]
    #: the sampling seat's seventh card (the third of its second four), when it was dealt
    seventh: int = -1
    #: solved points: key (bidder, trump) -> the bidder's team's points with best play
    points: dict[tuple[int, int], int] = field(default_factory=dict)

    def solved(self, rules: Rules, first_hand: int, bidder: int, trump: int) -> int:
        """The bidder's team's points with ``trump`` (-1: the suit the bidder's first four
        cards in this sample would name)."""
        if trump < 0:
            trump = likely_trump(self.first[bidder])
        key = (bidder, trump)
        got = self.points.get(key)
        if got is None:
            st = open_state(self.hands, trump, first_hand, _played_out(rules), bidder)
            value = best_value(st)
            total = 28 + rules.last_trick_point
            got = value if team_of(first_hand) == team_of(bidder) else total - value
            self.points[key] = got
        return got


def _played_out(rules: Rules) -> Rules:
    return rules.with_options(early_finish=False) if rules.early_finish else rules


def deal_sample(known_first: int, known: int, seat: int, rng: random.Random) -> Deal:
    """A deal giving ``seat`` its ``known`` cards (``known_first`` of them its first four);
    the other cards at random."""
    rest = [c for c in range(32) if not known >> c & 1]
    rng.shuffle(rest)
    first = [0, 0, 0, 0]
    hands = [0, 0, 0, 0]
    seventh = -1
    i = 0
    for s in range(4):
        if s == seat:
            own_first = known_first
            need_first = 4 - known_first.bit_count()
            for c in rest[i : i + need_first]:
                own_first |= 1 << c
            i += need_first
            first[s] = own_first
            hand = known | own_first
            need = 8 - hand.bit_count()
            if need == 4:
                seventh = rest[i + 2]
            for c in rest[i : i + need]:
                hand |= 1 << c
            i += need
            hands[s] = hand
            continue
        f = 0
        for c in rest[i : i + 4]:
            f |= 1 << c
        h = f
        for c in rest[i + 4 : i + 8]:
            h |= 1 << c
        i += 8
        first[s], hands[s] = f, h
    return Deal(
        (first[0], first[1], first[2], first[3]), (hands[0], hands[1], hands[2], hands[3]), seventh
    )


# -- inference: how likely are the calls heard, given the cards a sample deals ----------------
@lru_cache(maxsize=1 << 16)
def _worth(first: int) -> float:
    """What four cards are worth to their holder as bidder: the expected points of the best
    trump (the fitted model of ``evaluate.py``). Kept: the same fours come up again and again
    in the samples of a deal, and the play weighs every sampled deal by them."""
    return best_trump(first)[1]


@lru_cache(maxsize=1 << 16)
def likely_trump(first: int) -> int:
    """The suit these four cards would name as trump (the fitted model)."""
    return best_trump(first)[0]


def call_weight(
    calls: tuple[tuple[int, int], ...], first: tuple[int, int, int, int], me: int, rules: Rules
) -> float:
    """The likelihood of the other players' ``calls`` (seat, bid; 0 = pass) when their first
    four cards are ``first``: a bid of ``b`` is likely when the caller's cards are worth about
    ``b`` or more, a pass when they are not worth what it would have had to bid."""
    weight = 1.0
    worth: dict[int, float] = {}
    for n, (seat, value, need, holder) in enumerate(calls_in_turn(calls, rules)):
        # the first hand's opening at the minimum says nothing where it may not pass
        forced = n == 0 and (
            rules.auction == "first_forced" or (rules.first_bid_required and value == rules.min_bid)
        )
        if seat == me or forced:
            continue
        w = worth.get(seat)
        if w is None:
            w = worth[seat] = _worth(first[seat])
        if value:
            weight *= _sigmoid((w - (value - 0.5)) / CALL_SPREAD)
        else:
            if holder >= 0 and seat == partner(holder):
                need += 2  # nobody outbids a partner without real strength
            weight *= 1.0 - _sigmoid((w - (need - 0.5)) / CALL_SPREAD)
    return weight


# -- the search ---------------------------------------------------------------------------------
class CallSearch:
    """Samples and their solved values, kept for the hand (and so for one deal's calls)."""

    def __init__(
        self, rng: random.Random, max_samples: int = MAX_SAMPLES, bias: float = 0.0
    ) -> None:
        self.rng = rng
        #: the most samples kept and solved for one hand
        self.max_samples = max_samples
        #: points a contract must make beyond its target in a solved sample to count as made
        #: there (``DD_BIAS``: the solver's open-hand play flatters the bidder)
        self.bias = bias
        self._key: tuple[int, int, int] | None = None
        self.deals: list[Deal] = []

    def _deals_for(self, v: View, seat: int, hand: int) -> list[Deal]:
        key = (seat, hand, v.dealer)
        if key != self._key:
            self._key = key
            self.deals = []
        return self.deals

    def run(
        self,
        v: View,
        seat: int,
        deadline: float,
        jobs: list[tuple[int, int]],
    ) -> list[Deal]:
        """Samples solved for every (bidder, trump) of ``jobs`` (trump -1: the bidder's likely
        suit in each sample), until ``deadline`` (a ``time.perf_counter()``) or
        ``max_samples``. Samples kept from earlier calls count (and cost little)."""
        hand = _held(v, seat)
        deals = self._deals_for(v, seat, hand)
        first = hand if hand.bit_count() <= 4 else _first_four(v, seat, hand)
        i = 0
        clock = time.perf_counter
        while i < self.max_samples and clock() < deadline:
            if i >= len(deals):
                deals.append(deal_sample(first, hand, seat, self.rng))
            d = deals[i]
            for bidder, trump in jobs:
                if clock() >= deadline:  # a sample half solved waits for the next call
                    return deals[:i]
                d.solved(v.rules, v.first_hand, bidder, trump)
            i += 1
        return deals[:i]


def _held(v: View, seat: int) -> int:
    """Every card the seat holds, the face-down seventh card included (its bidder sees it)."""
    hand = hand_of(v, seat)
    if v.indicator is not None and v.bidder == seat:
        hand |= 1 << v.indicator
    return hand


def _first_four(v: View, seat: int, hand: int) -> int:
    """The seat's first four cards, when it holds eight: the ones it held in the auction are
    not told apart in the view, so any four of the eight (the first four listed) stand in."""
    cards = v.hands[seat] or ()
    if len(cards) <= 4:
        return hand
    four = 0
    for c in sorted(cards)[:4]:
        four |= 1 << c
    return four


def _weights(deals: list[Deal], v: View, seat: int) -> list[float]:
    ws = [call_weight(v.calls, d.first, seat, v.rules) for d in deals]
    total = sum(ws)
    if total <= 0:
        return [1.0] * len(deals)
    return ws


def contract_odds(
    deals: list[Deal],
    weights: list[float],
    v: View,
    bidder: int,
    trump: int | None,
    bid: int,
    bias: float = 0.0,
) -> tuple[float, float]:
    """(P(the bidder's team makes ``bid``), P(it takes every point)) over the samples, with
    ``trump`` (None: the trump the bidder's first four would name in each sample); a sample
    counts as made with ``bias`` points to spare."""
    total = sum(weights) or 1.0
    made = every = 0.0
    top = 28 + v.rules.last_trick_point
    for d, w in zip(deals, weights, strict=True):
        pts = d.solved(v.rules, v.first_hand, bidder, -1 if trump is None else trump)
        if pts >= bid + bias:
            made += w
            every += w * (pts == top)
    return made / total, every / total


def _ev(p_make: float, p_every: float, stake: int, rules: Rules) -> float:
    """Expected score for the bidder's team (stake units)."""
    bonus = p_every * stake if rules.all_tricks_bonus and stake == 1 else 0.0
    return stake * (2 * p_make - 1) + bonus


def bid_by_search(v: View, search: CallSearch, deadline: float) -> Action | None:
    """The expert's auction call, or None when too few samples were solved in time."""
    seat = v.viewer
    assert seat is not None
    passing, bids = pass_and_bids(v.legal)
    if not bids:
        return passing
    # the one bid worth weighing: the lowest legal one (a holder matches: also the lowest)
    low = bids[0]
    # the contract passing leaves: the holder's, or the challenger's when we hold
    other = v.holder if v.holder != seat else _last_bidder(v, seat)
    suits = _candidate_suits(v, seat)
    jobs = [(seat, t) for t in suits]
    if other is not None:
        jobs.append((other, -1))
    deals = search.run(v, seat, deadline, jobs)
    if len(deals) < MIN_SAMPLES:
        return None
    weights = _weights(deals, v, seat)
    rules = v.rules
    total = sum(weights) or 1.0
    best_make = -1.0
    best_every = 0.0
    need = low.arg + search.bias
    for t in suits:
        made = sum(w for d, w in zip(deals, weights, strict=True) if d.points[(seat, t)] >= need)
        if made > best_make:
            top = 28 + rules.last_trick_point
            best_make = made
            best_every = sum(
                w for d, w in zip(deals, weights, strict=True) if d.points[(seat, t)] == top
            )
    p_make, p_every = best_make / total, best_every / total
    stake = REGULAR_STAKES[0]
    ev_bid = _ev(p_make, p_every, stake, rules)
    if passing is None:
        return low
    ev_pass = 0.0  # nobody has bid: a redeal, or someone else's contract, unknown
    if other is not None:
        p_other, p_other_every = contract_odds(deals, weights, v, other, None, v.bid, search.bias)
        ev_other = _ev(p_other, p_other_every, stake, rules)
        ev_pass = ev_other if team_of(other) == team_of(seat) else -ev_other
    return low if ev_bid > ev_pass + BID_MARGIN else passing


def _candidate_suits(v: View, seat: int, n: int = 2) -> list[int]:
    """The ``n`` suits the fitted model rates best as trump for the seat's four cards (the
    others are not worth a solve)."""
    from .evaluate import expected_points

    first = _first_four(v, seat, hand_of(v, seat))
    return sorted(range(4), key=lambda t: -expected_points(first, t))[:n]


def _last_bidder(v: View, seat: int) -> int | None:
    """The last seat other than ``seat`` that bid (the challenger a holder answers)."""
    return next((s for s, b in reversed(v.calls) if b and s != seat), None)


def trump_by_search(v: View, search: CallSearch, deadline: float) -> Action | None:
    """The bidder's trump: the suit (or the seventh card) most likely to make the target."""
    seat = v.viewer
    assert seat is not None
    target = (v.target if v.target is not None else v.bid) + search.bias
    suits = _candidate_suits(v, seat, 3)
    seventh = any(a.act is Act.TRUMP_SEVENTH for a in v.legal)
    jobs = [(seat, t) for t in (range(4) if seventh else suits)]
    deals = search.run(v, seat, deadline, jobs)
    if len(deals) < MIN_SAMPLES:
        return None
    weights = _weights(deals, v, seat)
    total = sum(weights) or 1.0
    scored: list[tuple[float, float, Action]] = []
    for a in v.legal:
        if a.act is Act.TRUMP_SUIT and a.arg in suits:
            made = sum(
                w for d, w in zip(deals, weights, strict=True) if d.points[(seat, a.arg)] >= target
            )
            mean = sum(w * d.points[(seat, a.arg)] for d, w in zip(deals, weights, strict=True))
            scored.append((made / total, mean / total, a))
        elif a.act is Act.TRUMP_SEVENTH:
            # the trump is the suit of the seventh card: the third of the second four
            made = mean = 0.0
            for d, w in zip(deals, weights, strict=True):
                suit = d.seventh >> 3 if d.seventh >= 0 else likely_trump(d.first[seat])
                pts = d.points[(seat, suit)]
                made += w * (pts >= target)
                mean += w * pts
            # the seventh card stays hidden (and out of play) until shown: a small discount
            scored.append((made / total - 0.03, mean / total, a))
    if not scored:
        return None
    return max(scored, key=lambda x: (x[0], x[1]))[2]


def doubling_by_search(v: View, search: CallSearch, deadline: float) -> Action | None:
    """Double (or SetDouble) as a defender, Redouble as the bidder, by the contract's odds."""
    seat = v.viewer
    assert seat is not None
    bidder = v.bidder
    passing = next((a for a in v.legal if a.act is Act.PASS), None)
    call = next((a for a in v.legal if a.act is not Act.PASS), None)
    if bidder is None or passing is None or call is None:
        return None
    target = v.target if v.target is not None else v.bid
    trump = v.trump  # known to the bidder only
    if team_of(seat) == team_of(bidder) and (seat != bidder or trump is None):
        return passing  # the bidder's partner leaves it to the bidder
    jobs = [(bidder, -1 if trump is None else trump)]
    deals = search.run(v, seat, deadline, jobs)
    if len(deals) < MIN_SAMPLES:
        return None
    weights = _weights(deals, v, seat)
    p_make, _ = contract_odds(deals, weights, v, bidder, trump, target, search.bias)
    if team_of(seat) != team_of(bidder):
        # the rules of thumb know what a bid says of the bidder; blend it in
        hand = hand_of(v, seat)
        prior = defenders_odds(hand, v.bid, target, v.rules.min_bid)
        p = 0.5 * p_make + 0.5 * prior
        return call if p < DOUBLE_BELOW else passing
    return call if p_make > REDOUBLE_ABOVE else passing


def seventh_redouble_by_search(v: View, search: CallSearch, deadline: float) -> Action | None:
    """The bidder who named the seventh card, doubled, redoubles when its eight cards (the
    seventh now seen) make the target likely enough in the sampled deals."""
    seat = v.viewer
    assert seat is not None
    passing = next((a for a in v.legal if a.act is Act.PASS), None)
    call = next((a for a in v.legal if a.act is Act.REDOUBLE), None)
    if v.indicator is None or passing is None or call is None:
        return None
    trump = v.indicator >> 3
    target = v.target if v.target is not None else v.bid
    deals = search.run(v, seat, deadline, [(seat, trump)])
    if len(deals) < MIN_SAMPLES:
        return None
    weights = _weights(deals, v, seat)
    p_make, _ = contract_odds(deals, weights, v, seat, trump, target, search.bias)
    return call if p_make > REDOUBLE_ABOVE else passing


#: the chance of taking every trick needed to call Single Hand (it replaces a contract whose
#: value is not known here: only a near-certain Single Hand is worth it)
SINGLE_HAND_ODDS = 0.8


def single_hand_odds(deals: list[Deal], caller: int, rules: Rules, deadline: float) -> float:
    """The share of the sampled deals in which ``caller``, alone on lead with no trump, takes
    every trick (solved exactly; at least ``MIN_SAMPLES`` deals, then until ``deadline``)."""
    won = n = 0
    for d in deals:
        if n >= MIN_SAMPLES and time.perf_counter() >= deadline:
            break
        st = open_state(d.hands, 0, caller, _played_out(rules), caller)
        st.caller = caller  # the partner sits out (the solver leaves its cards aside)
        st.trump = -1
        st.trump_mode = TrumpMode.NONE
        st.trump_shown = False
        st.target = 0
        # every point in play (the partner's cards sit out) is the caller's only when it
        # takes every trick: a lost trick ends the deal, the points still out going to nobody
        in_play = 28 + rules.last_trick_point - mask_points(d.hands[partner(caller)])
        won += best_value(st) >= in_play
        n += 1
    return won / n if n else 0.0


def single_hand_by_search(v: View, search: CallSearch, deadline: float) -> Action | None:
    """Call Single Hand when the exact solver takes every trick in enough sampled deals."""
    seat = v.viewer
    assert seat is not None
    passing = next((a for a in v.legal if a.act is Act.PASS), None)
    call = next((a for a in v.legal if a.act is Act.SINGLE_HAND), None)
    if passing is None or call is None:
        return None
    deals = search.run(v, seat, deadline, [])
    if len(deals) < MIN_SAMPLES:
        return None
    odds = single_hand_odds(deals, seat, v.rules, deadline)
    return call if odds >= SINGLE_HAND_ODDS else passing


__all__ = [
    "CallSearch",
    "Deal",
    "bid_by_search",
    "call_weight",
    "contract_odds",
    "deal_sample",
    "doubling_by_search",
    "seventh_redouble_by_search",
    "single_hand_by_search",
    "single_hand_odds",
    "trump_by_search",
]
