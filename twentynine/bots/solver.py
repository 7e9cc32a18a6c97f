"""The exact open-hand solver for the card play (every hand known).

``solve(state)`` values every legal action of the seat to move: the number of card points (with
the last-trick point where the rules have it) that the mover's *team* takes in the tricks from
this position to the end of the deal, with best play by both teams afterwards (the mover's team
maximises that number, the other team minimises it). Points taken before the position do not
count; the cards of the current unfinished trick count for whoever wins it. The deal is played
to the last trick (early finish is ignored) and the target, the pair and the stakes play no
part: ``pair`` is worth the same as the position it is declared in. A Single Hand ends when the
caller loses a trick, as in the engine: the points still out then go to nobody.

Two searches give identical answers (the tests check it):

* the engine-based search: alpha-beta over engine states with ``legal_actions``/``apply`` and
  a transposition table of bounds keyed on a compact position key. It is the reference, and
  what runs for a position the kernel declines (see :func:`kernel_applies`);
* the kernel (:mod:`twentynine.bots.solver_kernel`): the same game on card masks, alpha-beta
  compiled with numba, with its plain-Python twin. It models every play rule of the engine
  (hidden trump and ``reveal``, the seventh card and the hand card, "must trump", automatic
  showing, the bidder's lead restriction, no under-trumping, Single Hand).

``method`` picks the implementation: ``"auto"`` (numba, or the plain-Python twin of the kernel
when the environment has ``TWENTYNINE_NO_NUMBA=1``), ``"numba"``, ``"python"`` (the kernel's
twin in plain Python) or ``"engine"`` (the engine-based search alone).
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

from ..engine.actions import Act, Action
from ..engine.cards import mask_points
from ..engine.round import apply, legal_actions
from ..engine.rules import STANDARD, Rules
from ..engine.state import Phase, RoundState, TrumpMode, new_state, partner, team_of
from . import solver_kernel
from .solver_kernel import REVEAL, Position

Method = Literal["auto", "numba", "python", "engine"]

_BIG = 1000
_REVEAL_MODES = frozenset(("on_request", "forced_on_void", "automatic"))


def resolve_method(method: Method = "auto") -> Method:
    """The implementation ``method`` stands for (``auto`` reads ``TWENTYNINE_NO_NUMBA``)."""
    if method == "auto":
        return "python" if os.environ.get("TWENTYNINE_NO_NUMBA") == "1" else "numba"
    if method not in ("numba", "python", "engine"):
        raise ValueError(f"unknown solver method {method!r}: auto, numba, python or engine")
    return method


@lru_cache(maxsize=64)
def _play_to_the_end(rules: Rules) -> Rules:
    return rules.with_options(early_finish=False) if rules.early_finish else rules


def kernel_applies(st: RoundState) -> bool:
    """Can the kernel search this position? Every play-phase position under the rule options
    the engine has today; a new option value the kernel does not know is left to the
    engine-based search."""
    return st.phase is Phase.PLAY and st.rules.trump_reveal in _REVEAL_MODES


def kernel_position(st: RoundState) -> Position:
    """The kernel's view of a play-phase position."""
    hands = list(st.hands)
    single = st.caller >= 0
    if single:
        hands[partner(st.caller)] = 0
    trick = tuple(card for _, card in st.trick)
    leader = st.trick[0][0] if st.trick else st.turn
    return (
        (hands[0], hands[1], hands[2], hands[3]),
        trick,
        leader,
        single or st.trump_shown,
        -1 if single else st.indicator,
        st.must_trump,
        st.trump_led,
    )


def _owners(st: RoundState) -> tuple[int, int, int, int]:
    """Every seat's cards at the deal: held, played and face down."""
    held = [st.seat_cards(s) for s in range(4)]
    for trick in st.tricks:
        for seat, card in trick.plays:
            held[seat] |= 1 << card
    for seat, card in st.trick:
        held[seat] |= 1 << card
    return held[0], held[1], held[2], held[3]


@dataclass
class _Context:
    """The search state for one objective team: its kernel and the engine search's table."""

    kernel: solver_kernel.Kernel | None
    signature: tuple[Any, ...] | None = None
    table: dict[tuple[Any, ...], tuple[int, int]] = field(default_factory=dict)


class Solver:
    """A reusable solver. Its transposition tables stay valid while the deal and the rules stay
    the same (one set for each team), so the positions of one deal in turn share them. One
    Solver serves one thread at a time (the module's ``solve`` keeps one for each thread)."""

    def __init__(self, method: Method = "auto", tt_bits: int = solver_kernel.TT_BITS) -> None:
        self.method = resolve_method(method)
        module: Any = None
        if self.method == "numba":
            module = solver_kernel
        elif self.method == "python":
            module = solver_kernel.load_twin()
        self._contexts = [
            _Context(module.Kernel(tt_bits) if module is not None else None) for _ in range(2)
        ]
        self._ctx = self._contexts[0]
        self._team = 0
        #: engine states searched (the engine-based search only)
        self.engine_nodes = 0

    @property
    def kernel_nodes(self) -> int:
        """Kernel nodes searched so far (both teams)."""
        return sum(c.kernel.nodes for c in self._contexts if c.kernel is not None)

    # -- public --------------------------------------------------------------------------------
    def solve(self, state: RoundState, need: int = 0) -> dict[Action, int]:
        """{action: value} for every legal action of ``state.turn`` (see the module docstring).

        With ``need`` > 0, only whether each action lets the mover's team take at least
        ``need`` points from here (a null-window test, far cheaper than the value): each
        action's number is then at least ``need`` exactly when it does (a bound of its value,
        fail-soft; the engine-based search gives the value itself)."""
        st = self._prepare(state)
        team = self._team
        actions = legal_actions(st, st.turn)
        out: dict[Action, int] = {}
        kernel = self._ctx.kernel
        pairs: list[Action] = []
        if kernel is not None and kernel_applies(st):
            values = kernel.values(kernel_position(st), need)
            for a in actions:
                if a.act is Act.PLAY:
                    out[a] = values[a.arg]
                elif a.act is Act.REVEAL:
                    out[a] = values[REVEAL]
                else:
                    pairs.append(a)
        else:
            for a in actions:
                if a.act is Act.PAIR:
                    pairs.append(a)
                    continue
                child, _ = apply(st, a)
                got = child.points[team] - st.points[team]
                out[a] = got + self._value(child, -1, _BIG)
        if pairs:
            best = max(out.values())
            for a in pairs:
                out[a] = best
        return out

    def value(self, state: RoundState) -> int:
        """The value of the position for the team of the seat to move (best play by all)."""
        st = self._prepare(state)
        return self._value(st, -1, _BIG)

    # -- the search ----------------------------------------------------------------------------
    def _prepare(self, state: RoundState) -> RoundState:
        if state.phase is not Phase.PLAY:
            raise ValueError(f"the solver needs a play-phase position, not {state.phase.name}")
        st = state.copy()
        st.rules = rules = _play_to_the_end(state.rules)
        team = team_of(st.turn)
        ctx = self._contexts[team]
        caller = st.caller
        signature = (rules, st.trump, caller, st.bidder, st.trump_mode, _owners(st))
        if signature != ctx.signature:
            ctx.signature = signature
            ctx.table = {}
            if ctx.kernel is not None:
                ctx.kernel.configure(
                    (*signature, team),
                    trump=st.trump if caller < 0 else -1,
                    caller=caller,
                    team=team,
                    bidder=st.bidder,
                    seventh=st.trump_mode is TrumpMode.SEVENTH,
                    last_point=rules.last_trick_point,
                    no_undertrump=rules.no_undertrump,
                    trump_reveal=rules.trump_reveal,
                    must_trump=rules.must_trump_after_reveal,
                    overtrump=rules.overtrump_after_reveal,
                    bidder_leads_trump=rules.bidder_leads_trump_before_reveal,
                )
        self._ctx = ctx
        self._team = team
        return st

    def _value(self, st: RoundState, alpha: int, beta: int) -> int:
        """The objective team's points from ``st`` on: fail-soft alpha-beta over engine states
        with a table of bounds; a position the kernel can search goes to the kernel."""
        if st.phase is not Phase.PLAY:
            return 0
        kernel = self._ctx.kernel
        if kernel is not None and kernel_applies(st):
            return kernel.value(kernel_position(st))
        self.engine_nodes += 1
        upper = _points_out(st)
        if upper <= alpha:
            return upper
        if beta <= 0:
            return 0
        key = (
            st.hands,
            st.indicator,
            st.trick,
            st.turn,
            st.trump_shown,
            st.must_trump,
            st.trump_led,
        )
        table = self._ctx.table
        entry = table.get(key)
        if entry is not None:
            lo, hi = entry
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            alpha = max(alpha, lo)
            beta = min(beta, hi)
            if alpha >= beta:  # lo == hi: the value is known
                return lo
        else:
            lo, hi = 0, upper
        team = self._team
        maximising = team_of(st.turn) == team
        best = -1 if maximising else _BIG
        before = st.points[team]
        a, b = alpha, beta
        for action in legal_actions(st, st.turn):
            if action.act is Act.PAIR:
                continue
            child, _ = apply(st, action)
            got = child.points[team] - before
            v = got + self._value(child, a - got, b - got)
            if maximising:
                if v > best:
                    best = v
                    a = max(a, v)
            elif v < best:
                best = v
                b = min(b, v)
            if a >= b:
                break
        if best <= alpha:
            hi = min(hi, best)
        elif best >= beta:
            lo = max(lo, best)
        else:
            lo = hi = best
        table[key] = (lo, hi)
        return best


def _points_out(st: RoundState) -> int:
    """Every point still to be won: the cards held (the face-down card too) and on the table,
    and the last-trick point."""
    cards = 0
    sits_out = partner(st.caller) if st.caller >= 0 else -1
    for s in range(4):
        if s != sits_out:
            cards |= st.hands[s]
    if st.indicator >= 0:
        cards |= 1 << st.indicator
    for _, c in st.trick:
        cards |= 1 << c
    return mask_points(cards) + (1 if st.rules.last_trick_point else 0)


# -- module-level conveniences -------------------------------------------------------------------
_LOCAL = threading.local()  # one solver per thread and method: a Solver is not thread-safe


def _solver(method: Method) -> Solver:
    return solver_kernel.per_thread(_LOCAL, resolve_method(method), Solver)


def solve(state: RoundState, method: Method = "auto", need: int = 0) -> dict[Action, int]:
    """{action: points the mover's team takes from here with best play} for every legal action
    of the seat to move (``reveal`` and ``pair`` included where legal). With ``need`` > 0, a
    number that is at least ``need`` exactly when the action lets the mover's team take that
    many points (``Solver.solve``)."""
    return _solver(method).solve(state, need)


def best_value(state: RoundState, method: Method = "auto") -> int:
    """The points the mover's team takes from here with best play by both teams."""
    return _solver(method).value(state)


def warm_up(method: Method = "auto") -> float:
    """Get the compiled kernel ready before the first real decision: numba compiles it on first
    use (about half a minute on a new install, then loaded from its cache on disk in about half
    a second). Solves one fixed deal; the seconds it took. Nothing to do for the plain-Python
    and engine methods."""
    t0 = time.perf_counter()
    if resolve_method(method) == "numba":
        deck = list(range(32))
        random.Random(29).shuffle(deck)
        hands = [sum(1 << c for c in deck[8 * s : 8 * s + 8]) for s in range(4)]
        Solver("numba").solve(open_state(hands, trump=0))
    return time.perf_counter() - t0


def open_state(
    hands: Sequence[int],
    trump: int,
    leader: int = 0,
    rules: Rules = STANDARD,
    bidder: int | None = None,
) -> RoundState:
    """A regular round's first position with all four 8-card ``hands`` (masks) dealt, trump
    ``trump`` named in hand and already shown, and ``leader`` (the first hand) to lead; the
    bidder (at the lowest bid) defaults to the leader. For benchmarks and tests."""
    if sorted(c for h in hands for c in _cards(h)) != list(range(32)) or any(
        h.bit_count() != 8 for h in hands
    ):
        raise ValueError("open_state needs four hands of 8 cards holding all 32 cards")
    dealer = (leader - 1) & 3
    deck: list[int] = []
    for batch in (slice(0, 4), slice(4, 8)):
        for k in range(4):
            deck.extend(_cards(hands[(leader + k) & 3])[batch])
    st = new_state(rules, dealer, tuple(deck))
    who = leader if bidder is None else bidder
    st.phase = Phase.PLAY
    st.hands = (hands[0], hands[1], hands[2], hands[3])
    st.holder = st.bidder = who
    st.bid = st.target = rules.min_bid
    st.calls = ((who, st.bid),)
    st.trump_mode = TrumpMode.SUIT
    st.trump = trump
    st.trump_shown = True
    st.shown_by = who
    st.shown_in_trick = 1
    st.single_hand_turn = 4
    st.leader = st.turn = leader
    return st


def _cards(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


__all__ = [
    "Method",
    "Solver",
    "best_value",
    "kernel_applies",
    "kernel_position",
    "open_state",
    "resolve_method",
    "solve",
]
