"""The beginner: a few simple, sound rules of thumb.

It bids only with the Jack and the Nine of one suit (and then modestly), names its longest,
strongest suit trump, never doubles and never calls Single Hand. In the play it wins a trick
with the cheapest card that does it, throws its cheapest card when it cannot, leads its Jacks,
and asks for trump when it cannot follow and the trick holds points.
"""

from __future__ import annotations

import random

from ..engine.actions import Act, Action
from ..engine.cards import JACK, NINE, SUIT_MASKS, card_points, mask_of, mask_points
from ..engine.state import Phase
from ..engine.views import View
from .base import hand_of, obvious, seat_of
from .evaluate import beats, cheapest, has, low_card, trick_winner


def longest_suit(hand: int) -> int:
    """The suit with the most cards; ties go to the one with more points, then higher cards."""
    return max(
        range(4),
        key=lambda s: (
            (hand & SUIT_MASKS[s]).bit_count(),
            mask_points(hand & SUIT_MASKS[s]),
            hand & SUIT_MASKS[s],
        ),
    )


def trump_action(view: View, suit: int) -> Action:
    """The legal trump action naming ``suit``: the suit itself, or its lowest card laid face
    down; the seventh card when neither is offered."""
    legal = view.legal
    for a in legal:
        if a.act is Act.TRUMP_SUIT and a.arg == suit:
            return a
    cards = [a for a in legal if a.act is Act.TRUMP_CARD]
    if cards:
        in_suit = [a for a in cards if a.arg >> 3 == suit]
        return min(in_suit or cards, key=lambda a: (a.arg & 7, a.arg))
    return legal[0]


def find(legal: tuple[Action, ...], act: Act) -> Action | None:
    for a in legal:
        if a.act is act:
            return a
    return None


def play_card(legal: tuple[Action, ...], card: int) -> Action:
    for a in legal:
        if a.act is Act.PLAY and a.arg == card:
            return a
    raise ValueError(f"card {card} is not playable")


class BeginnerBot:
    name = "beginner"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        sure = obvious(view)
        if sure is not None:
            return sure
        phase = view.phase
        if phase is Phase.AUCTION:
            return self._bid(view)
        if phase is Phase.TRUMP:
            hand = hand_of(view, seat_of(view))
            return trump_action(view, longest_suit(hand))
        if phase is Phase.PLAY:
            return self._play(view)
        # doubling, the seventh-card Redouble, Single Hand: always pass
        passing = find(view.legal, Act.PASS)
        return passing if passing is not None else view.legal[0]

    # -- the auction ----------------------------------------------------------------------------
    def _bid(self, view: View) -> Action:
        legal = view.legal
        seat = seat_of(view)
        hand = hand_of(view, seat)
        rules = view.rules
        limit = rules.min_bid - 1
        for s in range(4):
            if has(hand, s, JACK) and has(hand, s, NINE):
                extra = (hand & SUIT_MASKS[s]).bit_count() > 2
                limit = max(limit, rules.min_bid + (1 if extra else 0))
        bids = [a for a in legal if a.act is Act.BID]
        passing = find(legal, Act.PASS)
        if passing is None:  # a forced bid
            return min(bids, key=lambda a: a.arg)
        affordable = [a for a in bids if a.arg <= limit]
        if not affordable:
            return passing
        return min(affordable, key=lambda a: a.arg)

    # -- the play -------------------------------------------------------------------------------
    def _play(self, view: View) -> Action:
        legal = view.legal
        seat = seat_of(view)
        cards = [a.arg for a in legal if a.act is Act.PLAY]
        reveal = find(legal, Act.REVEAL)
        if not cards:
            return reveal if reveal is not None else legal[0]
        playable = mask_of(cards)
        trump = view.trump if view.trump is not None else -1
        if not view.trick:
            return play_card(legal, self._lead(view, playable, trump))
        counts = trump if view.trump_shown else -1
        _, best = trick_winner(view.trick, counts)
        lead = view.lead_suit if view.lead_suit is not None else best >> 3
        points = sum(card_points(c) for _, c in view.trick)
        follows = bool(playable & SUIT_MASKS[lead])
        if not follows and reveal is not None and points > 0:
            return reveal
        winners = [c for c in cards if beats(c, best, lead, counts)]
        if winners and (follows or points > 0 or seat == view.must_trump):
            return play_card(legal, min(winners, key=lambda c: (c >> 3 == counts, c & 7)))
        if not follows and counts >= 0 and playable & ~SUIT_MASKS[counts]:
            playable &= ~SUIT_MASKS[counts]  # keep trumps for tricks worth winning
        return play_card(legal, cheapest(playable))

    def _lead(self, view: View, playable: int, trump: int) -> int:
        hidden_trump = trump >= 0 and not view.trump_shown
        choices = playable
        if hidden_trump and playable & ~SUIT_MASKS[trump]:
            choices &= ~SUIT_MASKS[trump]  # the bidder keeps its trumps out of sight
        for s in sorted(range(4), key=lambda s: -(choices & SUIT_MASKS[s]).bit_count()):
            if has(choices, s, JACK):
                return s * 8 + JACK
        suit = longest_suit(choices)
        return low_card(choices & SUIT_MASKS[suit])
