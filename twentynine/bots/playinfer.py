"""Soft inference from the play: how likely the cards the other seats played are with the hands
a sampled deal gives them.

The hard facts (a seat that did not follow suit is void in it, and what the trump rules force)
are in ``knowledge.py``: every sampled deal already satisfies them. These are the softer ones,
true of how reasonable players play rather than of the rules. A seat that puts a card into a
trick its side has surely lost (its partner has played and the trick's best card is an
opponent's, which its card does not beat) gives away that card's points; it would not, holding
a cheaper card it could play instead. So:

- it followed suit with a card worth points: deals where it then held a cheaper card of that
  suit are the less likely (``FOLLOW_PENALTY`` each);
- it could not follow and threw a card worth points of a suit that was not trump: deals where it
  then held a cheaper card of another suit that is not trump are the less likely
  (``DISCARD_PENALTY`` each: a discard may also keep a guard, so it says less);
- with trump shown, it could not follow and threw a card that was not trump into a trick worth
  ``RUFF_POINTS`` or more: deals where it then held a trump that would have won the trick are
  the less likely (``RUFF_PENALTY`` each; 1.0, off, unless asked for).

``Observations.from_view`` reads them from a seat's view once; ``weight(world)`` is the product
of the penalties a sampled deal incurs (1.0 when it is consistent with every one).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.cards import POINTS_BY_STRENGTH, SUIT_MASKS
from ..engine.state import RoundState
from ..engine.tricks import trick_leader_now
from ..engine.views import View

FOLLOW_PENALTY = 0.2
DISCARD_PENALTY = 0.5
RUFF_PENALTY = 1.0
RUFF_POINTS = 2

#: the cards of each suit worth fewer points than a card of each strength: CHEAPER[strength]
#: (as strengths of the same suit, a bit mask of 8)
_CHEAPER = tuple(
    sum(1 << s for s in range(8) if POINTS_BY_STRENGTH[s] < POINTS_BY_STRENGTH[t]) for t in range(8)
)


def cheaper_cards(card: int, suits: int) -> int:
    """The cards of the 4-bit set ``suits`` worth fewer points than ``card``."""
    low = _CHEAPER[card & 7]
    out = 0
    for s in range(4):
        if suits >> s & 1:
            out |= low << (8 * s)
    return out


@dataclass(frozen=True)
class Observation:
    seat: int
    card: int
    lead: int  # the suit led
    follow: bool  # followed suit (else a discard)
    later: int  # cards this seat played after this one (they were in its hand then)
    trump_known: int  # the trump suit if shown when the card was played, else -1
    #: the trumps that would have won the trick (a discard with trump shown), else 0
    ruff: int = 0


@dataclass(frozen=True)
class Observations:
    items: tuple[Observation, ...]
    follow_penalty: float = FOLLOW_PENALTY
    discard_penalty: float = DISCARD_PENALTY
    ruff_penalty: float = RUFF_PENALTY

    @classmethod
    def from_view(
        cls,
        v: View,
        follow: float = FOLLOW_PENALTY,
        discard: float = DISCARD_PENALTY,
        ruff: float = RUFF_PENALTY,
    ) -> Observations:
        me = v.viewer
        tricks = [t.plays for t in v.tricks]
        if v.trick:
            tricks.append(v.trick)
        seen = [False, False, False, False]  # a seat whose hand this seat sees says nothing
        for s in range(4):
            seen[s] = s == me or v.hands[s] is not None
        shown_in = v.shown_in_trick or 0
        found: list[tuple[int, int, int, bool, int, int, int]] = []
        order = 0
        after: list[list[tuple[int, int]]] = [[], [], [], []]  # per seat: (order, card) played
        for n, plays in enumerate(tricks, start=1):
            lead = plays[0][1] >> 3
            # trumps counted in this trick (a trick in which trump was shown: from the showing
            # on; the first cards of it are read without, which only ever loses an inference)
            shower = v.shown_by if v.trump_shown else None
            for i, (p, c) in enumerate(plays):
                order += 1
                after[p].append((order, c))
                if i < 2 or seen[p]:
                    continue
                trump = -1
                shown_now = n == shown_in and any(s == shower for s, _ in plays[: i + 1])
                known = v.trump if v.trump_shown and v.trump is not None and shown_in else -1
                if known >= 0 and (n > shown_in or shown_now):
                    trump = known
                # the partner has played (index 2: it led; index 3: it played second)
                w_seat, _ = trick_leader_now(plays[:i], lead, trump)
                if (w_seat - p) & 1 == 0:  # the side is winning, not losing
                    continue
                w_after, _ = trick_leader_now(plays[: i + 1], lead, trump)
                if w_after == p:
                    continue
                suit = c >> 3
                if suit != lead and suit == trump:
                    continue
                ruffs = 0
                if suit != lead and trump >= 0 and ruff < 1.0:
                    worth = sum(POINTS_BY_STRENGTH[card & 7] for _, card in plays)
                    if worth >= RUFF_POINTS:
                        top = max((d for _, d in plays[:i] if d >> 3 == trump), default=-1)
                        ruffs = SUIT_MASKS[trump] & ~((2 << top) - 1 if top >= 0 else 0)
                if not POINTS_BY_STRENGTH[c & 7] and not ruffs:
                    continue
                found.append((p, c, lead, suit == lead, order, trump, ruffs))
        items = []
        for p, c, lead, follow_suit, at, known_trump, ruffs in found:
            later = 0
            for o, card in after[p]:
                if o > at:
                    later |= 1 << card
            items.append(Observation(p, c, lead, follow_suit, later, known_trump, ruffs))
        return cls(tuple(items), follow, discard, ruff)

    def weight(self, world: RoundState) -> float:
        w = 1.0
        indicator = world.indicator
        for ob in self.items:
            held = world.hands[ob.seat] | ob.later
            if indicator >= 0 and ob.seat == world.bidder:
                held &= ~(1 << indicator)
            points = POINTS_BY_STRENGTH[ob.card & 7]
            if ob.follow:
                if points and held & cheaper_cards(ob.card, 1 << ob.lead):
                    w *= self.follow_penalty
                continue
            if points:
                trump = world.trump
                suits = 0xF & ~(1 << ob.lead)
                if trump >= 0:
                    suits &= ~(1 << trump)
                if held & cheaper_cards(ob.card, suits):
                    w *= self.discard_penalty
            if held & ob.ruff:
                w *= self.ruff_penalty
        return w
