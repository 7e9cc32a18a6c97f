"""The intermediate bot's play: each legal card (and asking for trump) is tried in a few hidden
deals drawn from what the seat knows (``knowledge.py``), the rest of the trick played out by a
simple policy that sees those cards; a card scores what the trick is worth to its team (the
chance of winning it times the points it will hold) against what the card would be worth kept
for later. So it gives points to a partner sure to win, does not overtake them, cashes its
master cards, draws trumps when that pays, and asks for trump only when that wins points."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..engine.actions import Act, Action
from ..engine.cards import SUIT_MASKS, Card, card_points
from ..engine.state import partner
from ..engine.views import View
from .base import hand_of, seat_of
from .beginner import find
from .evaluate import above, beats, trick_winner
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
#: hidden deals drawn for each decision in the play
WORLDS = 12
#: the value of leading trump for the bidder's side while the defenders may hold some
DRAW_BONUS = 0.0
#: the bidder's cost of leading its hidden trump suit
HIDE_BONUS = 2.0
#: leading back a suit the partner led
PARTNER_SUIT_BONUS = 0.5
#: the value of showing trump (or not) once the result is settled and a deal without trump
#: shown would not count
DECIDED = 20.0
#: what a trick is worth in a Single Hand (losing one loses the round)
SINGLE_TRICK = 10


@dataclass
class _Option:
    action: Action
    value: float


class TrickPlay:
    """One decision in the play: each legal card (and asking for trump) is tried in a few
    hidden deals drawn from what this seat knows; the rest of the trick is played out by a
    simple policy that sees those cards; a card scores the trick's points (won or lost) less
    what it would be worth kept for later."""

    def __init__(self, view: View, rng: random.Random, worlds: int = 0) -> None:
        self.v = view
        self.rules = view.rules
        self.seat = seat_of(view)
        self.k = Knowledge.from_view(view)
        self.hand = hand_of(view, self.seat)
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


__all__ = ["TrickPlay"]
