"""What one seat can work out from its view, and hidden worlds consistent with it.

``Knowledge.from_view(view)`` reads a seat's view: the cards it has not seen, the suits each other
seat is known to be void in (and the few single cards the rules say it cannot hold), how many
cards each seat holds, and the trump suit when the seat knows it (or the suits it could be).

``Knowledge.sample_hidden(rng)`` deals the hidden cards at random, consistently with all of that
(``worlds.sample_world`` makes a full engine state of such a deal). This is the basis of the
determinized search of the expert bot.

Every inference here is a necessary condition (it holds in the real deal), so the real deal is
always one of the possible worlds and sampling never runs dry. A few finer inferences are left
out; then a sampled world may be one the history makes unlikely, but it is still a well-formed
state with the same public facts.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from ..engine.cards import (
    JACKS,
    KING,
    POINT_CARDS,
    QUEEN,
    SUIT_MASKS,
    Card,
    card_list,
    mask_of,
)
from ..engine.contract import has_risk_card
from ..engine.rules import Rules
from ..engine.state import Phase
from ..engine.views import View
from .dealing import SlotDeal
from .playfacts import infer_play, suit_cards

ALL = (1 << 32) - 1
#: the slot of the bidder's face-down indicator card in a hidden deal
INDICATOR = 4
#: how strongly a bidder is taken to name its strongest suit (see ``trump_choice_weights``)
CHOICE_SHARPNESS = 0.9
#: sampling attempts before giving up on the deal-wide validity rules
MAX_TRIES = 60


def _suits_of(mask: int) -> int:
    """The 4-bit set of suits present in a card mask."""
    out = 0
    for s in range(4):
        if mask & SUIT_MASKS[s]:
            out |= 1 << s
    return out


def trump_choice_weights(cards: int) -> list[float]:
    """How likely a bidder holding ``cards`` names each suit trump (relative weights).

    Used to weigh a hidden trump suit: players name the suit where they are long and hold the
    Jack and the Nine.
    """
    out: list[float] = []
    for s in range(4):
        mine = cards & SUIT_MASKS[s]
        base = s * 8
        score = 1.0 * mine.bit_count()
        score += 1.2 * (mine >> (base + 7) & 1) + 0.8 * (mine >> (base + 6) & 1)
        score += 0.4 * (mine >> (base + 5) & 1)
        out.append(math.exp(CHOICE_SHARPNESS * score))
    return out


@dataclass
class World:
    """One hidden deal: every seat's playable hand, the face-down indicator, the trump suit."""

    hands: tuple[int, int, int, int]
    indicator: int  # -1 when there is none
    trump: int  # -1 when there is none (or not chosen yet)


@dataclass
class Knowledge:
    """What ``seat`` knows or can infer. Masks are 32-bit card sets; ``voids`` are 4-bit suit
    sets; tuples are indexed by seat."""

    view: View
    seat: int
    rules: Rules
    phase: Phase
    #: cards this seat sees in each hand (its own; a Single Hand caller's partner's)
    known: tuple[int, int, int, int]
    own_indicator: int  # the face-down card beside this seat (it is the bidder), or -1
    played_by: tuple[int, int, int, int]
    played: int
    unseen: int  # cards whose place this seat does not know (undealt ones included)
    #: cards each seat holds now, its face-down indicator included
    sizes: tuple[int, int, int, int]
    #: cards of each seat's hand this seat does not see (the indicator not included)
    hidden: tuple[int, int, int, int]
    indicator_hidden: bool  # the bidder's face-down card is unknown to this seat
    voids: tuple[int, int, int, int]
    #: cards each seat cannot hold in its hand (voids included); trump-independent
    excluded: tuple[int, int, int, int]
    trump: int | None  # the trump suit if this seat knows it
    trump_candidates: tuple[int, ...]  # suits the trump may be (empty: none or not chosen)
    bidder: int
    caller: int
    #: cards that must be in a seat's hand (a declared pair), by seat
    forced: tuple[int, int, int, int] = (0, 0, 0, 0)
    #: the bidder's suits that are void only if the trump is that suit (key: trump suit)
    conditional_voids: dict[int, int] = field(default_factory=dict)
    #: bidder's voids known while the indicator was face down (they say nothing of it)
    bidder_hand_voids: int = 0
    #: deals where the bidder holds a suit worth naming are drawn the likelier ones
    #: (``_choice_acceptance``); off when a model of the callers weighs the trump instead
    weigh_choice: bool = True
    _deals: dict[int, SlotDeal] = field(default_factory=dict, repr=False)

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def from_view(cls, v: View) -> Knowledge:
        if v.viewer is None:
            raise ValueError("knowledge needs a seat's view, not a spectator's")
        seat = v.viewer
        known = [mask_of(h) if h is not None else 0 for h in v.hands]
        own_ind = v.indicator if v.indicator is not None else -1
        played_by = [0, 0, 0, 0]
        for t in v.tricks:
            for s, c in t.plays:
                played_by[s] |= 1 << c
        for s, c in v.trick:
            played_by[s] |= 1 << c
        played = played_by[0] | played_by[1] | played_by[2] | played_by[3]
        seen = played | known[0] | known[1] | known[2] | known[3]
        if own_ind >= 0:
            seen |= 1 << own_ind
        bidder = v.bidder if v.bidder is not None else -1
        caller = v.caller if v.caller is not None else -1
        ind_hidden = v.has_indicator and own_ind < 0
        sizes = tuple(
            v.hand_sizes[s] + (1 if v.has_indicator and s == bidder else 0) for s in range(4)
        )
        hidden = tuple(v.hand_sizes[s] - known[s].bit_count() for s in range(4))
        k = cls(
            view=v,
            seat=seat,
            rules=v.rules,
            phase=v.phase,
            known=(known[0], known[1], known[2], known[3]),
            own_indicator=own_ind,
            played_by=(played_by[0], played_by[1], played_by[2], played_by[3]),
            played=played,
            unseen=ALL & ~seen,
            sizes=(sizes[0], sizes[1], sizes[2], sizes[3]),
            hidden=(hidden[0], hidden[1], hidden[2], hidden[3]),
            indicator_hidden=ind_hidden,
            voids=(0, 0, 0, 0),
            excluded=(0, 0, 0, 0),
            trump=v.trump,
            trump_candidates=(),
            bidder=bidder,
            caller=caller,
        )
        if v.phase is Phase.PLAY:
            infer_play(k)
        elif v.trump is not None:
            k.trump_candidates = (v.trump,)
        return k

    # -- queries for bots ----------------------------------------------------------------------
    def possible(self, seat: int) -> int:
        """Cards ``seat`` may hold in its hand now (its face-down indicator not included)."""
        if self.hidden[seat] <= 0:
            return 0
        cards = self.unseen & ~self.excluded[seat]
        for s in range(4):
            if s != seat:
                cards &= ~self.forced[s]
        if seat == self.bidder and self.bidder_hand_voids:
            cards &= ~self._bidder_void_cards(self.trump if self.trump is not None else -1)
        return cards

    def is_void(self, seat: int, suit: int) -> bool:
        """Is ``seat`` known to hold no card of ``suit`` it could play (indicator aside)?"""
        return not (self.possible(seat) | self.known[seat]) & SUIT_MASKS[suit]

    def outside(self, suit: int) -> int:
        """Cards of ``suit`` neither played nor in this seat's hand (nor its indicator)."""
        return self.unseen & SUIT_MASKS[suit]

    def higher_outside(self, card: Card) -> int:
        """Cards of the same suit, stronger than ``card``, that some other seat may hold."""
        suit = SUIT_MASKS[card >> 3]
        return self.unseen & suit & ~((2 << card) - 1)

    def _bidder_void_cards(self, trump: int) -> int:
        """Cards barred from the bidder's hand by voids seen while its indicator was hidden."""
        suits = self.bidder_hand_voids
        if self.view.trump_shown and self.view.trump_mode == "hand_card" and trump >= 0:
            suits &= ~(1 << trump)  # the indicator, of the trump suit, has joined the hand
        return suit_cards(suits)

    # -- hidden deals ----------------------------------------------------------------------------
    def _slots(self, trump: int) -> tuple[list[int], list[int]]:
        """(size, allowed cards) of each slot: seats 0-3, then the indicator."""
        caps = [max(self.hidden[s], 0) for s in range(4)]
        allowed = [0, 0, 0, 0, 0]
        for s in range(4):
            if not caps[s]:
                continue
            cards = self.unseen & ~self.excluded[s]
            for o in range(4):
                if o != s:
                    cards &= ~self.forced[o]
            if s == self.bidder:
                cards &= ~self._bidder_void_cards(trump)
                if trump >= 0:
                    cards &= ~suit_cards(self.conditional_voids.get(trump, 0))
            allowed[s] = cards
        if self.indicator_hidden and trump >= 0:
            caps.append(1)
            allowed[INDICATOR] = self.unseen & SUIT_MASKS[trump]
        else:
            caps.append(0)
        return caps, allowed

    def _deal_for(self, trump: int) -> SlotDeal:
        deal = self._deals.get(trump)
        if deal is None:
            caps, allowed = self._slots(trump)
            deal = SlotDeal(caps, allowed, self.unseen)
            self._deals[trump] = deal
        return deal

    def trump_odds(self) -> dict[int, int]:
        """For a hidden trump: each candidate suit with the number of deals consistent with
        it (before weighing the bidder's choice). Empty when there is no hidden trump."""
        if self.trump is not None or not self.trump_candidates:
            return {}
        return {t: self._deal_for(t).total for t in self.trump_candidates}

    def card_odds(self) -> list[list[float]]:
        """``odds[slot][card]``: the chance that a slot (seats 0-3, then ``INDICATOR``) holds
        an unseen card, balanced so that every card is somewhere and every slot holds its
        number of cards (iterative proportional fitting; a close approximation)."""
        if self.trump is not None or not self.trump_candidates:
            caps, allowed = self._slots(self.trump if self.trump is not None else -1)
        else:
            caps, allowed = [0] * 5, [0] * 5
            for t in self.trump_candidates:
                c_t, a_t = self._slots(t)
                for j in range(5):
                    caps[j] = max(caps[j], c_t[j])
                    allowed[j] |= a_t[j]
        out = [[0.0] * 32 for _ in range(5)]
        cards = card_list(self.unseen)
        slots = [j for j in range(5) if caps[j] > 0]
        if not cards or not slots:
            return out
        rows = {j: [1.0 if allowed[j] >> c & 1 else 0.0 for c in cards] for j in slots}
        n = len(cards)
        for _ in range(8):
            for i in range(n):
                total = sum(rows[j][i] for j in slots)
                if total > 0:
                    for j in slots:
                        rows[j][i] /= total
            for j in slots:
                r = sum(rows[j])
                if r > 0:
                    f = caps[j] / r
                    rows[j] = [x * f for x in rows[j]]
        for j in slots:
            row = out[j]
            for i, c in enumerate(cards):
                row[c] = min(1.0, rows[j][i])
        return out

    def sample_hidden(self, rng: random.Random) -> World:
        """A random hidden deal for the PLAY phase consistent with everything known."""
        if self.phase is not Phase.PLAY:
            raise ValueError("sample_hidden is for the play; use sample_world for other phases")
        last: World | None = None
        for _ in range(MAX_TRIES):
            trump = self._draw_trump(rng)
            deal = self._deal_for(trump)
            slots = deal.sample(rng)
            hands = [self.known[s] | slots[s] for s in range(4)]
            indicator = self.own_indicator
            if self.indicator_hidden:
                indicator = highest_bit(slots[INDICATOR])
            world = World((hands[0], hands[1], hands[2], hands[3]), indicator, trump)
            last = world
            if not self._valid(world):
                continue
            if (
                self.weigh_choice
                and self._choice_hidden()
                and rng.random() > self._choice_acceptance(world)
            ):
                continue
            return world
        assert last is not None
        return last

    def _choice_hidden(self) -> bool:
        """Did the bidder name the trump (not a dealt card) with cards this seat does not see?
        Then deals where the bidder holds a suit worth naming are the likelier ones."""
        return (
            self.seat != self.bidder
            and self.caller < 0
            and self.view.trump_mode in ("suit", "hand_card")
            and self.hidden[self.bidder] > 0
        )

    def _draw_trump(self, rng: random.Random) -> int:
        if self.trump is not None:
            return self.trump
        if not self.trump_candidates:
            return -1
        odds = self.trump_odds()
        total = sum(odds.values())
        if not total:
            return self.trump_candidates[rng.randrange(len(self.trump_candidates))]
        pick = rng.randrange(total)
        for t, n in odds.items():
            if pick < n:
                return t
            pick -= n
        return self.trump_candidates[-1]

    def _choice_acceptance(self, world: World) -> float:
        b = self.bidder
        cards = world.hands[b] | self.played_by[b]
        if world.indicator >= 0:
            cards |= 1 << world.indicator
        weights = trump_choice_weights(cards)
        return weights[world.trump] / max(weights)

    def full_hands(self, world: World) -> list[int]:
        """The eight cards each seat was dealt in ``world``."""
        full = [world.hands[s] | self.played_by[s] for s in range(4)]
        if world.indicator >= 0 and self.bidder >= 0:
            full[self.bidder] |= 1 << world.indicator
        return full

    def _valid(self, world: World) -> bool:
        """The deal-wide rules the real deal is known to satisfy (RULES.md §8, §6, §5)."""
        rules = self.rules
        full = self.full_hands(world)
        for h in full:
            if rules.invalid_no_points and not h & POINT_CARDS:
                return False
            if rules.invalid_four_jacks and h & JACKS == JACKS:
                return False
            if rules.invalid_all_one_suit and h in SUIT_MASKS:
                return False
        marked = self.caller < 0 and self.view.trump_mode in ("seventh", "hand_card")
        if marked and world.trump >= 0 and not full[self.bidder] & SUIT_MASKS[world.trump]:
            return False  # the card that marks the trump is the bidder's
        fh = self.view.first_hand
        if rules.first_hand_no_points_redeal:
            spare = full[fh]
            if fh == self.bidder and self.caller < 0 and self.view.trump_mode == "seventh":
                spare &= ~(1 << seventh_mark(full[fh], world))
            if not spare & POINT_CARDS:
                return False
        if self.caller >= 0:
            return has_risk_card(full[self.caller])
        trump = world.trump
        if trump < 0:
            return True
        tm = SUIT_MASKS[trump]
        if rules.invalid_team_without_trump and (
            not (full[0] | full[2]) & tm or not (full[1] | full[3]) & tm
        ):
            return False
        if self.view.trump_mode == "seventh" and rules.seventh_card_invalid != "none":
            mine = full[self.bidder] & tm
            if rules.seventh_card_invalid == "bidder_no_point_trump" and not mine & POINT_CARDS:
                return False
            if rules.seventh_card_invalid == "bidder_single_trump" and mine.bit_count() < 2:
                return False
        return self._pair_ok(world)

    def _pair_ok(self, world: World) -> bool:
        """With the pair declared the moment trump is shown, nobody else held it then."""
        v = self.view
        if not v.trump_shown or v.rules.pair_timing != "on_reveal" or v.pair_by is not None:
            return True
        base = world.trump * 8
        kq = (1 << (base + KING)) | (1 << (base + QUEEN))
        after = self._played_after_reveal()
        return all((world.hands[s] | after[s]) & kq != kq for s in range(4))

    def _played_after_reveal(self) -> list[int]:
        v = self.view
        out = [0, 0, 0, 0]
        tricks = [t.plays for t in v.tricks]
        if v.trick:
            tricks.append(v.trick)
        start = (v.shown_in_trick or 1) - 1
        for n, plays in enumerate(tricks):
            if n < start:
                continue
            seen_shower = n > start
            for s, c in plays:
                if s == v.shown_by:
                    seen_shower = True
                if seen_shower:
                    out[s] |= 1 << c
        return out


def highest_bit(mask: int) -> int:
    return mask.bit_length() - 1


def seventh_mark(full: int, world: World) -> int:
    """The bidder's card that marks the trump: the face-down one, or once shown one of its
    trumps (a card without points if there is one, so that the first four can hold points)."""
    if world.indicator >= 0:
        return world.indicator
    trumps = full & SUIT_MASKS[world.trump]
    plain = trumps & ~POINT_CARDS
    return highest_bit(plain or trumps)
