"""Reading a partner's hand from the cards it chose: in a sampled deal where the partner's card
threw away its side's contract while another card it held kept it, the deal is the less likely.

A study of the twenty-eighth session's ceiling (``benchmarks/oracle_peer.py --oracle partner``)
found that seeing the partner's hand in the play is worth most of what seeing every card is
worth against an open ISMCTS bot: the expert's worlds, each dealt at random from the cards it
cannot see, put its partner's cards anywhere the rules allow, though the partner chose every
card it played knowing them. The partner plays as this bot does: by the exact solver over deals
consistent with its own hand. So a deal in which the partner's card, solved at the moment it
was played, loses the contract while one of its other legal cards would have held it, is one in
which the partner would rarely have played it (it cannot see the others' cards either, so not
never: ``PENALTY``, not 0).

``position_before`` rebuilds, from a sampled deal of now, the position just before one of its
past plays (the hands with every later card given back, the tricks and points as they stood);
``PartnerReading.weight`` is the product of the penalties a deal incurs over the partner's
latest ``limit`` plays. Positions whose trump was shown, or a pair declared, between then and
now are not rebuilt (their facts differ from now's in ways the deal does not keep): no weight.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.state import Phase, RoundState, Trick
from ..engine.views import View
from .need import points_needed
from .solver import solve

#: how much less likely a sampled deal is for each of the partner's cards that, in it, threw
#: the contract away while another legal card kept it
PENALTY = 0.3


def position_before(world: RoundState, trick: int, index: int) -> RoundState | None:
    """The state of ``world`` just before the ``index``-th card of trick ``trick`` (0-based;
    ``len(world.tricks)`` is the trick in progress), or None where it cannot be rebuilt."""
    tricks = world.tricks
    current = trick == len(tricks)
    if trick > len(tricks) or world.phase is not Phase.PLAY:
        return None
    plays = world.trick if current else tricks[trick].plays
    if index >= len(plays):
        return None
    if world.trump_shown and world.shown_in_trick > trick:  # shown since (1-based number)
        return None
    if world.pair_by >= 0 or world.pair_window >= 0 or world.must_trump >= 0:
        return None
    hands = list(world.hands)
    for seat, card in plays[index:]:
        hands[seat] |= 1 << card
    if not current:
        for t in tricks[trick + 1 :]:
            for seat, card in t.plays:
                hands[seat] |= 1 << card
        for seat, card in world.trick:
            hands[seat] |= 1 << card
    points = [0, 0]
    won = [0, 0]
    for t in tricks[:trick]:
        points[t.winner & 1] += t.points
        won[t.winner & 1] += 1
    st = world.copy()
    st.hands = (hands[0], hands[1], hands[2], hands[3])
    st.tricks = tricks[:trick]
    st.trick = plays[:index]
    st.points = (points[0], points[1])
    st.tricks_won = (won[0], won[1])
    st.leader = plays[0][0]
    st.turn = plays[index][0]
    st.lead_suit = plays[0][1] >> 3 if index else -1
    if st.trump >= 0 and st.caller < 0:
        leads = [t.plays[0][1] for t in st.tricks] + ([plays[0][1]] if index else [])
        st.trump_led = any(c >> 3 == st.trump for c in leads)
    return st


def latest_plays(
    tricks: Sequence[Trick], trick: Sequence[tuple[int, int]], seat: int, limit: int
) -> list[tuple[int, int, int]]:
    """``seat``'s latest ``limit`` cards among the finished ``tricks`` and the ``trick`` in
    progress (a state's or a view's), latest first: (trick, index in it, card)."""
    found: list[tuple[int, int, int]] = []
    if limit <= 0:
        return found
    everything = [t.plays for t in tricks] + [trick]
    for t in range(len(everything) - 1, -1, -1):
        for i in range(len(everything[t]) - 1, -1, -1):
            s, card = everything[t][i]
            if s == seat:
                found.append((t, i, card))
                if len(found) == limit:
                    return found
    return found


class PartnerReading:
    """The partner's plays of one decision's view, to weigh each of its sampled deals by."""

    def __init__(self, view: View, limit: int = 3) -> None:
        assert view.viewer is not None
        partner = (view.viewer + 2) & 3
        self.partner = partner
        #: (trick, index, card), latest first
        self.plays = latest_plays(view.tricks, view.trick, partner, limit)

    def weight(self, world: RoundState, penalty: float = PENALTY) -> float:
        w = 1.0
        for t, i, card in self.plays:
            before = position_before(world, t, i)
            if before is None:
                continue
            need, left = points_needed(before, self.partner)
            if not 0 < need <= left:
                continue  # the contract's fate was settled: nothing to choose between
            values = solve(before, need=need)
            played = next((v for a, v in values.items() if a.arg == card), None)
            if played is not None and played < need and max(values.values()) >= need:
                w *= penalty
        return w
