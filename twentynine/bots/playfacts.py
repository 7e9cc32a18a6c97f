"""What the cards played so far prove about the hidden hands: who is void in which suit, which
single cards a seat cannot hold (the rules on trumping after trump is shown, on under-trumping),
which suits cannot be the hidden trump, and what a bidder's hidden card may be. Each fact holds
in the real deal, so the real deal always stays among those sampled (``knowledge.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.cards import KING, QUEEN, SUIT_MASKS, Card
from ..engine.tricks import trick_leader_now

if TYPE_CHECKING:
    from .knowledge import Knowledge


def suit_cards(suits: int) -> int:
    """The card mask of a 4-bit set of suits."""
    out = 0
    for s in range(4):
        if suits >> s & 1:
            out |= SUIT_MASKS[s]
    return out


def infer_play(k: Knowledge) -> None:
    v = k.view
    rules = v.rules
    bidder, caller = k.bidder, k.caller
    regular = caller < 0
    mode = v.trump_mode
    has_hidden_card = regular and mode in ("seventh", "hand_card")
    shown = v.trump_shown
    trump = v.trump  # known to this seat, or None
    r_trick = v.shown_in_trick or 0
    r_seat = v.shown_by if v.shown_by is not None else -1
    voids = [0, 0, 0, 0]
    excluded = [0, 0, 0, 0]
    bidder_pre = 0
    not_trump = 0
    must_be: int | None = None
    cond: dict[int, int] = {}
    led = 0  # suits led so far
    tricks = [t.plays for t in v.tricks]
    if v.trick:
        tricks.append(v.trick)
    for n, plays in enumerate(tricks, start=1):
        lead_seat, lead_card = plays[0]
        lead = lead_card >> 3
        reveal_pos = len(plays)
        if shown and n == r_trick:
            reveal_pos = next((i for i, (s, _) in enumerate(plays) if s == r_seat), len(plays))
        before_reveal = not shown or n < r_trick
        # a bidder who may not lead the hidden trump led this suit first: if it is trump, the
        # bidder held nothing else then
        if (
            regular
            and not rules.bidder_leads_trump_before_reveal
            and lead_seat == bidder
            and before_reveal
            and not led >> lead & 1
        ):
            others = 0xF & ~(1 << lead)
            if trump is not None:
                if trump == lead:
                    voids[bidder] |= others
            else:
                cond[lead] = cond.get(lead, 0) | others
        led |= 1 << lead
        top_trump = lead_card if trump is not None and lead == trump else -1
        for i in range(1, len(plays)):
            p, c = plays[i]
            suit = c >> 3
            hid = before_reveal or (n == r_trick and i < reveal_pos)
            if suit != lead:
                if p == bidder and hid and has_hidden_card:
                    bidder_pre |= 1 << lead
                    if mode == "seventh":
                        not_trump |= 1 << lead
                    elif rules.trump_reveal == "automatic":
                        must_be = lead  # no automatic showing: the indicator is of this suit
                else:
                    voids[p] |= 1 << lead
                if not hid and regular and trump is not None and lead != trump:
                    _trump_rules(
                        k, plays, i, top_trump, trump, n == r_trick and p == r_seat, voids, excluded
                    )
            if shown and n == r_trick and p == r_seat:
                voids[p] |= 1 << lead  # whoever showed trump is out of the suit led then
            if trump is not None and suit == trump and c > top_trump:
                top_trump = c
    # the seat that asked for trump in the current trick and has not played yet
    if shown and v.trick and r_trick == len(v.tricks) + 1 and r_seat != k.seat:
        lead = v.trick[0][1] >> 3
        if all(s != r_seat for s, _ in v.trick) and not (
            r_seat == bidder and mode == "hand_card" and trump == lead
        ):
            voids[r_seat] |= 1 << lead
    if not regular:
        k.trump_candidates = ()
    elif trump is not None:
        k.trump_candidates = (trump,)
    else:
        cands = [t for t in range(4) if not not_trump >> t & 1]
        if must_be is not None:
            cands = [must_be] if must_be in cands else []
        k.trump_candidates = tuple(cands)
    forced = [0, 0, 0, 0]
    if regular and v.pair_by is not None and trump is not None and v.pair_by != k.seat:
        base = trump * 8
        kq = (1 << (base + KING)) | (1 << (base + QUEEN))
        forced[v.pair_by] = kq & k.unseen
    for s in range(4):
        excluded[s] |= suit_cards(voids[s])
    k.voids = (voids[0], voids[1], voids[2], voids[3])
    k.excluded = (excluded[0], excluded[1], excluded[2], excluded[3])
    k.forced = (forced[0], forced[1], forced[2], forced[3])
    k.conditional_voids = cond
    k.bidder_hand_voids = bidder_pre


def _trump_rules(
    k: Knowledge,
    plays: tuple[tuple[int, Card], ...],
    i: int,
    top_trump: int,
    trump: int,
    asker: bool,
    voids: list[int],
    excluded: list[int],
) -> None:
    """Inferences from a card played, unable to follow, while trumps count."""
    rules = k.rules
    p, c = plays[i]
    tm = SUIT_MASKS[trump]
    above = tm & ~((2 << top_trump) - 1) if top_trump >= 0 else tm
    if asker and rules.must_trump_after_reveal:
        if c >> 3 != trump:
            voids[p] |= 1 << trump  # had to trump and could not
            return
        must_beat = rules.no_undertrump
        if rules.overtrump_after_reveal and top_trump >= 0:
            winner, _ = trick_leader_now(plays[:i], plays[0][1] >> 3, trump)
            must_beat = must_beat or (winner - p) & 1 == 1
        if must_beat and top_trump >= 0 and c < top_trump:
            excluded[p] |= above
        return
    if rules.no_undertrump and c >> 3 == trump and top_trump >= 0 and c < top_trump:
        # under-trumping is allowed only to a hand of nothing but lower trumps
        voids[p] |= 0xF & ~(1 << trump)
        excluded[p] |= above
