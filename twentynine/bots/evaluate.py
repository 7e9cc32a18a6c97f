"""Hand evaluation and trick arithmetic shared by the bots.

All functions take card masks (``cards.py``): a hand is a 32-bit set, a suit an 8-bit slice.
The numbers in the bidding model were fitted on simulated deals played by the intermediate bot
(the bidder's team's card points against features of the bidder's first four cards).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from ..engine.cards import (
    ACE,
    JACK,
    JACKS,
    NINE,
    NINES,
    SUIT_MASKS,
    TEN,
    Card,
    card_points,
    mask_points,
)
from ..engine.contract import has_risk_card
from ..engine.tricks import trick_leader_now

# -- small card facts -------------------------------------------------------------------------


def low_card(mask: int) -> Card:
    """The lowest card of a mask."""
    return (mask & -mask).bit_length() - 1


def suit_cards(hand: int, suit: int) -> int:
    return hand & SUIT_MASKS[suit]


def above(card: Card) -> int:
    """Cards of the same suit stronger than ``card``."""
    return SUIT_MASKS[card >> 3] & ~((2 << card) - 1)


def has(mask: int, suit: int, strength: int) -> bool:
    return bool(mask >> (suit * 8 + strength) & 1)


def cheapest(mask: int) -> Card:
    """The card that costs least to give away: fewest points, then lowest rank."""
    best = -1
    key = (99, 99)
    m = mask
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        k = (card_points(c), c & 7)
        if k < key:
            key, best = k, c
    return best


def trick_winner(plays: Sequence[tuple[int, Card]], trump: int) -> tuple[int, Card]:
    """(seat, card) winning the trick so far, led by its first card; ``trump`` -1 when trumps
    do not count (the engine's rule)."""
    return trick_leader_now(plays, plays[0][1] >> 3, trump)


def beats(card: Card, best: Card, lead: int, trump: int) -> bool:
    """Does ``card`` beat the trick's best card ``best`` (``trump`` -1: trumps do not count)?"""
    suit = card >> 3
    if suit == trump:
        return best >> 3 != trump or card > best
    return suit == lead and best >> 3 == lead and card > best


# -- hand evaluation --------------------------------------------------------------------------

#: fitted weights of the bidding model: the bidder's first four cards (see the docstring)
_W4 = {
    "base": 9.6,
    "tJ": 2.1,
    "t9": 1.3,
    "tA": 0.2,
    "tT": 0.2,
    "tlen": 1.8,
    "sJ": 2.2,
    "s9": 0.7,
    "sA": 0.25,
    "sT": 0.25,
    "sJ9": 0.9,
}
#: the same fitted on the bidder's eight cards
_W8 = {
    "base": 6.0,
    "tJ": 2.3,
    "t9": 1.4,
    "tA": 0.3,
    "tT": 0.35,
    "tlen": 1.9,
    "sJ": 2.4,
    "s9": 0.4,
    "sA": 0.2,
    "sT": 0.15,
    "sJ9": 0.45,
}
#: spread of the team's points around the estimate (4 cards known; 8 cards known)
SPREAD = 5.2
SPREAD8 = 4.8


def trump_features(hand: int, trump: int) -> dict[str, float]:
    """The features of ``hand`` (any size) as a bidder with ``trump``."""
    t = suit_cards(hand, trump)
    f: dict[str, float] = {
        "tJ": float(has(hand, trump, JACK)),
        "t9": float(has(hand, trump, NINE)),
        "tA": float(has(hand, trump, ACE)),
        "tT": float(has(hand, trump, TEN)),
        "tlen": float(t.bit_count()),
        "sJ": 0.0,
        "s9": 0.0,
        "sA": 0.0,
        "sT": 0.0,
        "sJ9": 0.0,
    }
    for s in range(4):
        if s == trump:
            continue
        jack, nine = has(hand, s, JACK), has(hand, s, NINE)
        f["sJ"] += jack
        f["s9"] += nine
        f["sA"] += has(hand, s, ACE)
        f["sT"] += has(hand, s, TEN)
        f["sJ9"] += jack and nine
    return f


def expected_points(hand: int, trump: int) -> float:
    """The card points (of 28) the bidder's team can expect with ``trump`` when the bidder
    holds ``hand``: its first four cards (or five, with the seventh card), or all eight."""
    weights = _W8 if hand.bit_count() > 5 else _W4
    f = trump_features(hand, trump)
    return weights["base"] + sum(weights[k] * v for k, v in f.items())


def best_trump(hand: int) -> tuple[int, float]:
    """(suit, expected points) of the best trump for ``hand``; ties go to the longer suit."""
    best, value = 0, -1.0
    for s in range(4):
        v = expected_points(hand, s) + 0.01 * suit_cards(hand, s).bit_count()
        if v > value:
            best, value = s, v
    return best, value


#: Over an opponent's forced opening (the first hand's 16, which says nothing of its cards):
#: logistic models, in the features of a challenger's four cards with their best trump
#: (``trump_features``), of its team making 17 as bidder (``_CHALLENGE_MAKES``) and of the first
#: hand's team making its 16 with the trump the first hand's own four cards name
#: (``_FORCED_MAKES``). Fitted on 34,000 random deals, each solved open-handed both ways
#: (``benchmarks/forced_challenge.py``, trump shown from the first trick). Jacks count about
#: as much for defending the 16 as for making 17; a long trump suit counts for the 17 only.
_CHALLENGE_MAKES = {
    "base": -1.844,
    "tJ": 0.822,
    "t9": 0.384,
    "tA": 0.104,
    "tT": 0.066,
    "tlen": 0.466,
    "sJ": 0.716,
    "s9": 0.116,
    "sA": 0.025,
    "sT": -0.011,
    "sJ9": 0.086,
}
_FORCED_MAKES = {
    "base": 0.874,
    "tJ": -0.731,
    "t9": -0.217,
    "tA": -0.061,
    "tT": 0.007,
    "tlen": -0.027,
    "sJ": -0.744,
    "s9": -0.21,
    "sA": -0.078,
    "sT": 0.002,
    "sJ9": -0.042,
}


def _logistic(weights: dict[str, float], features: dict[str, float]) -> float:
    z = weights["base"] + sum(weights[k] * v for k, v in features.items())
    return 1.0 / (1.0 + math.exp(-z))


def forced_challenge_gain(hand: int) -> float:
    """How much likelier the team of a challenger holding ``hand`` (its four cards) wins the
    deal by bidding 17 over an opponent's forced opening of 16 than by letting it stand:
    P(it makes 17) - P(the first hand's team fails its 16)."""
    trump, _ = best_trump(hand)
    f = trump_features(hand, trump)
    return _logistic(_CHALLENGE_MAKES, f) - (1.0 - _logistic(_FORCED_MAKES, f))


def contest_features(hand: int, holder: bool, level: int, partner_bid: int) -> dict[str, float]:
    """The features of a contest decision (bidding on over the other side's real bid, or
    passing): the seat's four cards ``hand`` with their best trump (``trump_features``), the
    margin of their expected points over the bid ``level`` it would make, whether it holds the
    bid (answering a challenge) and whether its partner made a bid."""
    trump, value = best_trump(hand)
    f = {"base": 1.0, "margin": value - level, "holder": float(holder)}
    f["partner"] = float(partner_bid > 0)
    f.update(trump_features(hand, trump))
    return f


#: A contest (``bidding.contest_role``: bidding on over the other side's real bid, or
#: passing): the gain in deals won of bidding on, as a linear model in ``contest_features``.
#: Fitted by least squares (``benchmarks/contest_study.py --fit``) on 78,030 decisions of the
#: expert's own auctions (60,000 random decks under the bhoos preset, seeds 1-3), each solved
#: open-handed both ways, the auction run on by the expert; a solved contract counts as made
#: only with 1 point to spare (``CONTEST_GAIN_1``) or 2 (``CONTEST_GAIN_2``), the open-hand
#: solver's optimism for the bidder (``calls.DD_BIAS``). On the 19,508 decisions held out,
#: the expert's rule won 0.1, 4.9 and 9.2 deals in 100 fewer than always passing (counted made
#: with 0, 1 and 2 points to spare); the rule of ``CONTEST_GAIN_1`` 2.3 more, 1.2 more, 0.8
#: fewer; ``CONTEST_GAIN_2``'s 0.7 more, 0.4 more, 0.0. A long or high trump suit, Jacks and
#: Nines count less here than in the points they add (``margin``): they defend the other
#: side's contract about as well as they make ours.
CONTEST_GAIN_1 = {
    "base": 0.9468,
    "margin": 0.1271,
    "holder": -0.1145,
    "partner": -0.17,
    "tJ": -0.3034,
    "t9": -0.155,
    "tA": -0.0182,
    "tT": -0.017,
    "tlen": -0.1619,
    "sJ": -0.3878,
    "s9": -0.1459,
    "sA": -0.0556,
    "sT": -0.0411,
    "sJ9": -0.124,
}
CONTEST_GAIN_2 = {
    "base": 1.0392,
    "margin": 0.1343,
    "holder": -0.1295,
    "partner": -0.2255,
    "tJ": -0.3823,
    "t9": -0.1882,
    "tA": -0.0152,
    "tT": -0.0269,
    "tlen": -0.2017,
    "sJ": -0.4667,
    "s9": -0.1583,
    "sA": -0.0537,
    "sT": -0.0447,
    "sJ9": -0.1054,
}


def contest_gain(
    hand: int, holder: bool, level: int, partner_bid: int, weights: dict[str, float]
) -> float:
    """How many more deals in one the team of a seat holding ``hand`` (its four cards) wins by
    bidding ``level`` in a contest than by passing (``CONTEST_GAIN_1``: the fitted model)."""
    f = contest_features(hand, holder, level, partner_bid)
    return sum(weights[k] * v for k, v in f.items())


def make_probability(expected: float, target: int, spread: float = SPREAD) -> float:
    """P(the team's points reach ``target``) when they are spread around ``expected``."""
    z = (target - 0.5 - expected) / spread
    return 0.5 * math.erfc(z / math.sqrt(2))


def bid_limit(hand: int, min_bid: int, max_bid: int, confidence: float = 0.5) -> int:
    """The highest bid the 4-card ``hand`` supports with ``confidence`` of making it (below
    ``min_bid`` when it supports none)."""
    _, value = best_trump(hand)
    return limit_for_value(value, min_bid, max_bid, confidence)


def limit_for_value(value: float, min_bid: int, max_bid: int, confidence: float) -> int:
    """The highest bid made with ``confidence`` by a team expecting ``value`` points."""
    limit = min_bid - 1
    for b in range(min_bid, max_bid + 1):
        if make_probability(value, b) >= confidence:
            limit = b
    return limit


def seventh_value(hand: int) -> float:
    """The expected points of naming the seventh card: the trump is the suit of a card still
    to come, so every suit is equally likely and that card is one more trump (fitted)."""
    mean = sum(expected_points(hand, t) for t in range(4)) / 4
    return 2.7 + 0.89 * mean


def defenders_odds(hand: int, bid: int, target: int, min_bid: int) -> float:
    """The bidder's team's chance of making ``target``, as a defender holding ``hand`` (its
    first four cards) sees it: the bid tells the bidder's strength, the defender's Jacks and
    Nines take from it (fitted on the same deals as the bidding model)."""
    bid_value = max(bid, min_bid) + 1.0
    jacks = (hand & JACKS).bit_count()
    nines = (hand & NINES).bit_count()
    value = 2.5 + 0.92 * bid_value - 1.6 * jacks - 0.25 * nines - 0.08 * mask_points(hand)
    return make_probability(value, target)


def should_double(hand: int, bid: int, target: int, min_bid: int, odds: float = 0.3) -> bool:
    """Should a defender with ``hand`` double: is the contract more likely lost than ``odds``
    allows (a Double pays when the bidder's chance is below one half; this keeps a margin
    for the Redouble that may follow)?"""
    return defenders_odds(hand, bid, target, min_bid) < odds


# -- Single Hand ------------------------------------------------------------------------------


def single_hand_odds(hand: int, rng: random.Random, samples: int = 150) -> float:
    """P(winning all eight tricks alone, no trump, on lead, from ``hand``), by dealing the other
    cards at random (the partner's eight sit out). The caller leads each suit from the top; an
    opponent wins a round of a suit when it holds a stronger card with enough guards."""
    if not has_risk_card(hand):
        return 1.0
    rest = [c for c in range(32) if not hand >> c & 1]
    wins = 0
    for _ in range(samples):
        rng.shuffle(rest)
        opp_a = sum(1 << c for c in rest[:8])
        opp_b = sum(1 << c for c in rest[8:16])
        if _all_tricks(hand, opp_a) and _all_tricks(hand, opp_b):
            wins += 1
    return wins / samples


def can_call_single_hand(hand: int, odds: float = 0.8, samples: int = 150) -> bool:
    """Is ``hand`` (all eight cards) sure enough of every trick to call Single Hand? The
    answer is the same every time for the same hand."""
    return has_risk_card(hand) and single_hand_odds(hand, random.Random(hand), samples) >= odds


def _all_tricks(hand: int, opp: int) -> bool:
    for s in range(4):
        mine = hand & SUIT_MASKS[s]
        theirs = opp & SUIT_MASKS[s]
        if not mine or not theirs:
            continue
        top = theirs.bit_length() - 1
        # the opponent keeps its top card until the round where ours is weaker
        i = 0
        m = mine
        while m:
            i += 1
            c = m.bit_length() - 1
            m ^= 1 << c
            if c < top and theirs.bit_count() >= i:
                return False
    return True
