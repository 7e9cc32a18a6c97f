"""The αμ search for the last tricks of the play (Cazenave & Ventos, "The αμ Search Algorithm
for the Game of Bridge", 2019): the expert's sampled deals searched together, so that its own
later cards are the same in every deal it cannot tell apart.

The expert's play solves each sampled deal on its own (perfect-information Monte Carlo): in
one deal the solver plays the winning card of a later guess, in another the other card, and a
card now is credited with both wins although, when the guess comes, the expert can play only
one card ("strategy fusion"). Here, over the sampled deals still consistent with what the
expert will have seen, the expert's next ``depth`` moves are one card for all of them; the
other three seats choose per deal, with every hand known (the opponents for the contract's
failure, the partner for it, as the solver has them), and after the expert's last searched
move each deal is solved exactly. ``depth=1`` gives the plain sampled-deal search's counts of
deals made.

A result is a set of deals the expert's side wins its contract in (an int, one bit a deal);
a strategy's outcomes are compared by inclusion and kept as a Pareto front (a list of the
maximal sets): the expert picks one set among its moves' fronts, a partner's or opponent's
card, seen by the expert, lets it pick anew after each card, so those fronts combine set by
set (union for the partner: per deal, the card that wins; intersection for an opponent: per
deal, the card that defeats). Deals that become distinguishable otherwise (trump shown, its
suit differing between deals) are searched apart and their sets joined.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from ..engine.actions import Act, Action
from ..engine.round import apply, legal_actions
from ..engine.state import Phase, RoundState
from .solver import best_value, solve

#: a front never keeps more than this many sets (the largest, by weight): a bound on the work
MAX_FRONT = 24


class OutOfTime(Exception):
    """The search passed its deadline: the caller keeps the plain sampled-deal choice."""


def side_makes(st: RoundState, seat: int, value: int) -> bool:
    """Does ``seat``'s side hold its side of the contract, when the side to move in ``st`` takes
    ``value`` of the points still out (the other side the rest): the bidder's team its target,
    the other team beating it?"""
    bidders = st.bidder & 1
    left = 28 + st.rules.last_trick_point - st.points[0] - st.points[1]
    mover = st.turn & 1
    bidder_points = st.points[bidders] + (value if mover == bidders else left - value)
    made = bidder_points >= st.target
    return made if seat & 1 == bidders else not made


def _public(st: RoundState) -> tuple[int, int, bool, int]:
    """What tells deals apart after the same cards were played: whose turn, whether the round
    goes on, and the trump suit once shown."""
    return (st.turn, int(st.phase), st.trump_shown, st.trump if st.trump_shown else -1)


class AlphaMu:
    """One search: the expert at ``seat``, the sampled deals ``worlds`` with weights."""

    def __init__(
        self, seat: int, worlds: Sequence[RoundState], weights: Sequence[float], deadline: float
    ) -> None:
        self.seat = seat
        self.worlds = list(worlds)
        self.weights = list(weights)
        self.deadline = deadline
        self.leaves = 0

    def weight(self, mask: int) -> float:
        w = 0.0
        i = 0
        while mask:
            if mask & 1:
                w += self.weights[i]
            mask >>= 1
            i += 1
        return w

    def _prune(self, sets: list[int]) -> list[int]:
        """The maximal sets among ``sets`` (the largest first), at most ``MAX_FRONT``."""
        ranked = sorted(set(sets), key=self.weight, reverse=True)
        front: list[int] = []
        for s in ranked:
            if not any(s & f == s for f in front):
                front.append(s)
                if len(front) >= MAX_FRONT:
                    break
        return front

    def root(self, depth: int) -> dict[Action, float]:
        """{action of the expert: the weight of the deals its best continuation wins in}."""
        if self.worlds[0].turn != self.seat:
            raise ValueError("the expert must be the seat to move")
        group = list(enumerate(self.worlds))
        out: dict[Action, float] = {}
        for action in self._own_actions(group):
            children = [(i, apply(st, action)[0]) for i, st in group]
            front = self._cells(children, depth - 1)
            out[action] = max((self.weight(s) for s in front), default=0.0)
        return out

    def _own_actions(self, group: list[tuple[int, RoundState]]) -> list[Action]:
        """The expert's actions (the same in every deal: its hand and the table are known);
        a pair is worth the position it is declared in, so it is left out."""
        actions = [a for a in legal_actions(group[0][1], self.seat) if a.act is not Act.PAIR]
        for _, st in group[1:]:
            legal = set(legal_actions(st, self.seat))
            actions = [a for a in actions if a in legal]
        return actions

    def _cells(self, children: list[tuple[int, RoundState]], depth: int) -> list[int]:
        """The front of deals searched on together as long as nothing public tells them apart;
        deals told apart (trump shown, a different suit) are searched apart, their sets joined."""
        cells: dict[tuple[int, int, bool, int], list[tuple[int, RoundState]]] = {}
        for item in children:
            cells.setdefault(_public(item[1]), []).append(item)
        fronts = [self._front(cell, depth) for cell in cells.values()]
        acc = fronts[0]
        for f in fronts[1:]:
            acc = self._prune([a | b for a in acc for b in f])
        return acc

    def _front(self, group: list[tuple[int, RoundState]], depth: int) -> list[int]:
        if time.perf_counter() > self.deadline:
            raise OutOfTime
        st0 = group[0][1]
        seat = self.seat
        if st0.phase is not Phase.PLAY:
            return [self._made(group, played_out=True)]
        mover = st0.turn
        if mover == seat:
            if depth <= 0:
                return [self._made(group, played_out=False)]
            if depth == 1:
                return self._prune(self._last_move(group))
            sets: list[int] = []
            for action in self._own_actions(group):
                children = [(i, apply(st, action)[0]) for i, st in group]
                sets.extend(self._cells(children, depth - 1))
            return self._prune(sets)
        # another seat: each deal its own cards; the expert sees the card and answers it
        by_action: dict[Action, list[tuple[int, RoundState]]] = {}
        for i, st in group:
            for action in legal_actions(st, mover):
                if action.act is not Act.PAIR:
                    by_action.setdefault(action, []).append((i, apply(st, action)[0]))
        partner_side = mover & 1 == seat & 1
        everyone = 0
        for i, _ in group:
            everyone |= 1 << i
        acc = [0] if partner_side else [everyone]
        for children in by_action.values():
            front = self._cells(children, depth)
            if partner_side:
                acc = self._prune([a | s for a in acc for s in front])
            else:
                where = 0
                for i, _ in children:
                    where |= 1 << i
                acc = self._prune([a & (s | ~where) & everyone for a in acc for s in front])
        return acc

    def _last_move(self, group: list[tuple[int, RoundState]]) -> list[int]:
        """The expert's last searched move: for each of its actions, the deals where it makes
        the contract with best play by all afterwards (one solve a deal)."""
        actions = self._own_actions(group)
        masks = [0] * len(actions)
        for i, st in group:
            self.leaves += 1
            values = solve(st)
            for k, action in enumerate(actions):
                if side_makes(st, self.seat, values[action]):
                    masks[k] |= 1 << i
        return masks

    def _made(self, group: list[tuple[int, RoundState]], played_out: bool) -> int:
        """The deals of ``group`` where the expert's side holds its side of the contract: with
        best play by all from here (solved), or as the round ended."""
        mask = 0
        for i, st in group:
            self.leaves += 1
            value = 0 if played_out or st.phase is not Phase.PLAY else best_value(st)
            if side_makes(st, self.seat, value):
                mask |= 1 << i
        return mask


def alphamu_values(
    seat: int,
    worlds: Sequence[RoundState],
    weights: Sequence[float],
    depth: int,
    deadline: float,
) -> dict[Action, float] | None:
    """{the expert's action: the weight of the sampled deals it wins with its best strategy of
    ``depth`` moves}, or None when the search ran past ``deadline``."""
    try:
        return AlphaMu(seat, worlds, weights, deadline).root(depth)
    except OutOfTime:
        return None


__all__ = ["MAX_FRONT", "AlphaMu", "alphamu_values", "side_makes"]
