"""The open-hand solver's search: alpha-beta on card masks, compiled with numba.

It solves the card play of a deal with every hand known, from any position in the play phase,
following the engine's play rules (``twentynine.engine.tricks``) exactly:

* follow suit; a player who cannot follow plays any card, or first asks for trump to be shown
  (``trump_reveal``: on request, forced when void, or automatic), and then must trump
  (``must_trump_after_reveal``), beating an opponent's trump where ``overtrump_after_reveal``
  says so; ``no_undertrump``; the bidder's hidden-trump lead restriction
  (``bidder_leads_trump_before_reveal``);
* the face-down card (seventh card or hand card) is not in the bidder's hand until trump is
  shown; it must be played when its suit is led and the bidder has no other card of it
  (seventh card only) or when it is the bidder's last card, and playing it shows trump;
  trumps count in a trick once trump has been shown by the end of that trick;
* a Single Hand: three players a trick, no trump, and the deal ends when the caller loses a
  trick (the points still out go to nobody).

The value of a position is the number of card points (with the last-trick point where the rules
have it) that the *objective team* takes in the tricks from here on, the cards of the current
unfinished trick included; the objective team maximises it, the other team minimises it. The
deal is played to the last trick (no early finish). Moves are the cards 0..31 and ``REVEAL``.

The search:

* fail-soft alpha-beta, iterative (one frame per move: numba cannot cache recursive functions,
  numba issue #6061), with null-window tests "does the objective team take at least ``b``
  points?" driven to the exact value by MTD(f) steps and bisection;
* a transposition table at the start of each trick, two entries a bucket, keyed by the
  position's *shape* (see :func:`_shape_key`): each suit's count of live cards and who holds
  each of them in rank order. Positions of one shape play alike, move for move, and win the
  same tricks; only the points of the cards differ. An entry keeps its position's canonical
  live cards (each suit's cards pushed down within their point class, so that positions
  differing only in which cards of equal points have gone are the same): with the same
  canonical cards its bounds hold as they are; for another position of the shape they hold
  widened by the points that differ, rank place by rank place (:func:`_similar_bounds`; the
  payoff-similarity of Furtak and Buro's Skat solver). Most trick starts the search meets
  differ from one met before only in which card of a suit a player gave up;
* bounds: the points still out, and (trump shown) points a team is sure of: the top run of
  trumps it holds, the sure winners the leader can cash, a trick nobody still to play can win;
* moves: equivalent cards (one suit, equal points, no card still in play between them) count
  once; ordering puts the table's best move first, then tops of suits and cheap winners.
  Leads (trump shown) look at the other hands: a side suit an opponent can trump (void, with
  trumps) is led last, a trump when the opponents have none left just before it; after the
  tops, low cards to the partner's top card, then to the partner's ruff. Later in a trick,
  points go onto the partner's winning card only when no opponent still to play can beat it;
* a trick is settled once no *opponent* of its winner still to play can beat the winning card
  (the partner beating it keeps the trick in the team);
* with trump shown, the last two tricks are solved by a small dedicated minimax (each hand's
  other card by subtraction, trick 8's points by difference) whose exact values are cached;
* with trump shown, the search runs without frames from the third card of the trick four
  tricks from the end (where most nodes were): that card's moves call :func:`_last_card`,
  whose moves call :func:`_node3` for the trick's start three tricks from the end (bounds,
  table, sure points), and that calls :func:`_three_tricks`, alpha-beta as nested loops over
  the four cards of trick 6 (the same move ordering), its leaves the cached two-trick values.

Measured (``benchmarks/solver.py --deals 200``, nodes are deterministic; CPU times on a shared
2-core machine, +-15% between runs):

* the lead ordering above: median nodes 180k -> 99k, p99 1.76M -> 0.95M; the benchmark's
  CPU median 13.2 -> 7.8 ms, p99 136 -> 79 ms;
* the two-trick rewrite: 440 -> 300 ns a call on random two-trick positions (about a quarter
  of the positions reaching it are not in the cache);
* tried, no gain: a larger table (TT_BITS 14/15/18/20: nodes within 3%, time within the
  noise; the table is not full), a larger or smaller two-trick cache (LAST_SIZE 2**12,
  2**16: slower), killer moves per depth (+7..+30% nodes), a best move kept from the table
  on a fail-low, other ordering rules (second hand low, third hand high, no trump smearing,
  ruff-first, cheapest winner last to play: within +-2% or worse), the partner's cards in
  the leader's cashed tricks (-0.1%), settling a trick's next start (bounds, two-trick cache)
  in the parent without a frame (same nodes, no measurable time gain), and at the root
  galloping MTD steps (+2% nodes) or a window of two around the guess (-0.6% nodes, fewer
  searches but no faster). A table at mid-trick nodes was not tried: in the plain-Python
  twin only 1 in 9 mid-trick positions is met twice in a deal's searches.

Where the work goes (the 200 benchmark deals, second round): 12.5M trick starts (4.9M with two
tricks left: 3.56M cache hits, 1.33M solved; 6.3M table probes, 3.5M found; 2.8M sure-points
calls; 2.6M expanded) and 5.2M / 6.9M / 10.5M nodes at the 2nd / 3rd / 4th card of a trick.
The root: 1410 distinct first cards, 4320 null-window searches (3.06 a card, 2 is the least);
74% of the nodes are in the tests at each card's final value, 8% in bisecting the first card,
18% in the MTD steps toward the others. In isolation ``_position_key`` (the canonical key
the eighth session's :func:`_shape_key` replaced) costs 11 ns,
``_sure_points`` 19 ns, ``_two_tricks`` 160 ns; running the move generation twice costs +13.5%
CPU, so it is about an eighth of the time. No single part dominates: the rest is the frame
machinery spread over all nodes.

Tried in the second round, no gain (CPU by ``benchmarks/solver.py --compare``, a paired A/B on
the same deals; single runs were too noisy: an apparent -20% was load):

* no ``_sure_points`` at a trick start found in the table (its entry already holds the bounds;
  same nodes, calls 6.3M -> 2.8M): -1.5%, within the noise;
* lazy move selection (the best remaining move picked at each step, no insertion sort; same
  nodes): +2.5%;
* the trick's state (winning card and seat, top trump) handed to the child frame instead of
  re-derived from the trick's cards (same nodes): +3%;
* TT_BITS 14 again: +4% CPU, +0.8% nodes;
* root drivers (node sums): other root card orders (lowest first, tops first, by points,
  trumps first or last) within +-2%; the first card by one full-window search or an
  aspiration window of +-4 / +-8 instead of bisection: -0.3%..+0.4%; MTD(f) for the first
  card from 1/2, 2/5 or 3/5 of the points: +2..+5% median nodes.

Third round (``--compare``, paired, 200 deals x 2-3 rounds):

* nodes per trick (the 200 deals, before): 42% three tricks from the end, 16% at the
  two-trick starts below, 27% in the trick before;
* the three-trick loops: -8..-11% CPU against the frames (nodes -0.7%); 1.3M calls on the
  benchmark's 200 deals, 4.8 two-trick leaves a call;
* the work arrays passed to called functions as addresses (see the last note): a called
  ``_node3`` at every three-trick start went from +27% CPU (arrays) to -2.6%;
* then the trick before without frames: its last card (-8%, nodes 96k -> 85k median), its
  card before that (-7%, nodes -> 75k). (The last card's loop written into the search with
  ``_node3`` inlined had cost +12%: the search's one big function grows and runs slower.)
* tried, no gain: the card before those two in its own function too (nodes 75k -> 68k, but
  single runs 4.5-4.8 ms median against 4.2-4.3; the paired runs gave -2.4% with it installed
  and +1.3% with it as the other file: the harness favours its installed side by about 2%, so
  a paired gain under ~3% is no gain); the table skipped at three-trick starts (+29%: nodes
  35M -> 61M); a leaf skipped when the trick's points alone settle it (-0.5%, noise; nodes
  +4.6%: weaker bounds reach the table); the two-trick cache at 2**15 or 2**16 entries (+2%,
  +5%) or 2**13 (0%), or keyed by the raw hands instead of the canonical key (0%); the lead's
  ordering dropped inside the loops (+6%); high cards first in the two-trick minimax (+3%);
  ``_position_key`` or ``_two_tricks`` inlined (-0.5%, +6%).

Fourth round (sixth session), node sums over ``--deals 1000 --seed 7`` (deterministic):

* a best-move hint for positions inside a trick (a 2**14-word table keyed by a hash of the
  hands and the trick's cards, filled when a node finishes, tried first next time): nodes
  -0.35%, CPU +8% in one unpaired run of each kernel (the ordering inside a trick already
  finds the cut first, so the hashing has little to win back);
* enhanced transposition cutoffs at a trick's last card (each move's next trick start looked
  up in the table before any move is searched): in the frames (tricks 1-3) nodes -5.8%, CPU
  in paired runs (300 deals x 2) -4.7% written inline, +2% with the probe moved into an
  inline helper reading the parameters from ``par``: no clear gain; also in
  :func:`_last_card`, nodes -8% and CPU -1.3% (noise);
* the first card's value known in advance (an oracle, as the bound of any better first guess):
  nodes -4.5%. The cost is in the tests at each card's final value: in the hardest deals
  (1.5-3.5M nodes) each of those null-window searches takes 100k-600k nodes.

Measured in the seventh session (no kernel change), ``--deals 1000 --seed 7``, each null-window
test of the root driver recorded (a scratch script, not kept, that re-ran the driver from
Python around :func:`_search`):

* 21,810 tests, 3.1 a distinct first card; 97% of them return the window's edge (``b`` on a
  fail high, ``b - 1`` on a fail low), holding 0.4% of the nodes: fail-soft gives the MTD steps
  nothing to jump with, so a card whose value is far from the previous card's walks there one
  point a test (those walking tests are cheap: 0-20k nodes each, mostly);
* 132M of the 179M nodes are in the two tests at each card's final value (``v`` and ``v + 1``):
  in the ten hardest deals (1.5-3.5M nodes) single tests of 100k-1.05M nodes;
* a larger table there (``benchmarks/solver.py --deals 1000 --seed 7 --tt-bits B``, CPU):
  TT_BITS 16 (two runs) median 6.78 / 6.87 ms, p99 101 / 104 ms, the most nodes 3.53M; 18:
  7.38 ms, 103 ms, 3.01M; 20: 7.72 ms, 108 ms, 2.94M. Fewer nodes in the hardest deals, no
  less time (cache misses).

Eighth session, on a slower machine than the sessions before (``python -m timeit`` of
``datetime.isoformat``: 0.93-1.07 us against 479 ns; the seventh session's kernel ran the
default 200 deals at a median of 12.8-13.0 ms on it, against 4.74-5.01 ms before, on the same 75k
nodes). Node sums are deterministic; CPU by ``benchmarks/solver.py --compare`` (paired), which
also checks that the two kernels give every first card the same value:

* the table keyed by shape, bounds of another position of the shape widened by the points
  that differ (see :func:`_shape_key`): ``--deals 300 --seed 7`` nodes 56.7M -> 20.3M;
  ``--deals 1000 --seed 7`` median nodes 89k -> 37k, the most 3.53M -> 1.08M. At the
  three-trick starts, of 3.05M probes (300 deals; counted by a scratch copy of this file)
  0.78M found the same canonical cards and 1.62M only the shape, and 0.79M went on to search;
* trick starts with trump hidden keyed by shape as well: ``--compare --hidden --deals 200
  --seed 7`` nodes 36.2M -> 24.9M, CPU / 1.44;
* both entries of a bucket of the same shape bounding the position (their widened bounds
  intersected): nodes -5.7%, CPU -4%;
* the three together against the seventh session's kernel: ``--compare --deals 300 --seed 7
  --rounds 2`` nodes 56.7M -> 19.2M, CPU / 2.49, no value differs; with ``--hidden --deals
  200``: nodes 67.8M -> 24.9M, CPU / 2.42;
* tried, no gain: exact values at three-trick starts (a full window, so that any later visit
  finds them; +28% CPU, nodes +46%); the best move kept as its suit and place among the
  suit's live cards, so that it holds for every position of the shape (nodes -2.2% to -3%,
  CPU 0 to +2.7%); enhanced transposition cutoffs in :func:`_last_card` with the shape
  entries (nodes -3%, CPU +2%); a table inside tricks too, keyed by shape with the trick's
  cards as their players' and their places in the key (38-40% of the positions inside a
  trick had been met before by shape; nodes -2.9%, CPU +18%); the table at 2**14 (+6%) or
  2**18 (+3%) entries, or four entries a bucket (all those of the shape intersected, the
  smallest position given up: nodes -1.6%, CPU -2%); at the root, the value of a card
  bounded by the card above it in the same hand (the two positions after them have one shape
  with two cards' points swapped: nodes -0.1%).

Pure-Python twin: :func:`load_twin` executes this same file a second time as a separate module
with ``njit`` replaced by the identity and the lookup tables as lists, so the very same
functions run in plain Python (``TWENTYNINE_NO_NUMBA=1`` or ``method="python"``). The
compiled and the plain versions are tested against each other and against the engine-based
search of :mod:`twentynine.bots.solver`.

Helpers take scalars, not arrays: numba reference-counts array arguments, and those atomic
counts cost more than the work in the hot loop. Inline helpers may take arrays; a function
that is called takes the arrays' addresses (:func:`_addr`) and views them again (:func:`_at`,
numba's ``carray``: no reference count).

Threads: the entry point :func:`solve_position` lets go of the interpreter's lock while it
searches (``nogil``), so the other threads of the process (the server's event loop above all)
run on while a bot thinks in a worker thread; before, one search of a whole deal froze them for
its length. Each thread has its own transposition tables, so two threads' searches run at once
on two cores; :class:`Kernel` holds its table's lock around each search, so one search at a
time uses a table even when a context is used from another thread than its own.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any, TypeVar

import numpy as np

#: set (to True) in the module namespace by :func:`load_twin` before this file runs
_PURE_PYTHON: bool = bool(globals().get("_PURE_PYTHON", False))

F = TypeVar("F", bound=Callable[..., Any])

if _PURE_PYTHON:

    def njit(*_args: Any, **_kwargs: Any) -> Callable[[F], F]:
        def wrap(fn: F) -> F:
            return fn

        return wrap

else:
    from numba import njit, types
    from numba.extending import intrinsic
    from numba.np.numpy_support import carray

# -- tables ------------------------------------------------------------------------------------
_STRENGTH_POINTS = (0, 0, 0, 0, 1, 1, 2, 3)
_CLASSES = ((0, 4), (4, 6), (6, 7), (7, 8))  # strengths of equal points: 7 8 Q K | T A | 9 | J


def _canonical_byte(b: int) -> int:
    """One suit's cards still in play, each pushed down to the lowest free place of its point
    class: the order and the points stay, the gaps go."""
    out = 0
    for lo, hi in _CLASSES:
        k = sum(1 for i in range(lo, hi) if b >> i & 1)
        out |= ((1 << k) - 1) << lo
    return out


def _extract(bits: int, mask: int) -> int:
    """The bits of ``bits`` at the places of ``mask``, packed together (PEXT)."""
    out = 0
    k = 0
    for i in range(8):
        if mask >> i & 1:
            out |= (bits >> i & 1) << k
            k += 1
    return out


#: card points of every card 0..31
CARD_POINTS: Any = np.array([_STRENGTH_POINTS[c & 7] for c in range(32)], dtype=np.int64)
#: card points of the cards in one suit's byte
BYTE_POINTS: Any = np.array(
    [sum(_STRENGTH_POINTS[i] for i in range(8) if b >> i & 1) for b in range(256)], dtype=np.int64
)
#: number of set bits of a byte
BYTE_COUNT: Any = np.array([bin(b).count("1") for b in range(256)], dtype=np.int64)
#: index of the highest set bit of a byte (-1 for 0)
BYTE_HIGH: Any = np.array([b.bit_length() - 1 for b in range(256)], dtype=np.int64)
#: see _canonical_byte
CANONICAL_BYTE: Any = np.array([_canonical_byte(b) for b in range(256)], dtype=np.int64)
#: EXTRACT[(mask << 8) | bits], see _extract
EXTRACT: Any = np.array([_extract(b, m) for m in range(256) for b in range(256)], dtype=np.uint8)


def _similar_tables() -> tuple[Any, Any]:
    """SIMILAR_UP[(old << 8) | new] and SIMILAR_DOWN[...] for two suits' live cards with as
    many cards each (only those pairs are ever looked up): card by card in rank order, the sum
    of the points the new one has over the old one, and under it."""
    up = np.zeros(1 << 16, dtype=np.uint8)
    down = np.zeros(1 << 16, dtype=np.uint8)
    by_count: dict[int, list[tuple[int, list[int]]]] = {}
    for b in range(256):
        points = [_STRENGTH_POINTS[i] for i in range(8) if b >> i & 1]
        by_count.setdefault(len(points), []).append((b, points))
    for group in by_count.values():
        for old, po in group:
            for new, pn in group:
                diffs = [n - o for o, n in zip(po, pn, strict=True)]
                up[(old << 8) | new] = sum(x for x in diffs if x > 0)
                down[(old << 8) | new] = -sum(x for x in diffs if x < 0)
    return up, down


SIMILAR_UP, SIMILAR_DOWN = _similar_tables()
#: de Bruijn sequence table: the index of a single set bit below 2**32
_DEBRUIJN = 0x077CB531
DEBRUIJN_INDEX: Any = np.zeros(32, dtype=np.int64)
for _i in range(32):
    DEBRUIJN_INDEX[(((1 << _i) * _DEBRUIJN) & 0xFFFFFFFF) >> 27] = _i

if _PURE_PYTHON:  # plain lists index faster than numpy arrays in plain Python
    CARD_POINTS = CARD_POINTS.tolist()
    BYTE_POINTS = BYTE_POINTS.tolist()
    BYTE_COUNT = BYTE_COUNT.tolist()
    BYTE_HIGH = BYTE_HIGH.tolist()
    CANONICAL_BYTE = CANONICAL_BYTE.tolist()
    EXTRACT = EXTRACT.tolist()
    SIMILAR_UP = SIMILAR_UP.tolist()
    SIMILAR_DOWN = SIMILAR_DOWN.tolist()
    DEBRUIJN_INDEX = DEBRUIJN_INDEX.tolist()

ZERO_POINT_CARDS = sum(0x0F << (8 * s) for s in range(4))
ONE_POINT_CARDS = sum(0x30 << (8 * s) for s in range(4))
NINES = sum(0x40 << (8 * s) for s in range(4))

# -- the parameter vector -------------------------------------------------------------------------
P_TRUMP = 0  # trump suit, or -1 (a Single Hand)
P_NO_UNDERTRUMP = 1  # 1 if a trumped trick may not be under-trumped
P_CALLER = 2  # Single Hand caller, or -1
P_TEAM = 3  # the objective team (0 or 1)
P_LAST_POINT = 4  # points for the last trick (0 or 1)
P_PLAYERS = 5  # cards a trick: 4, or 3 in a Single Hand
P_GEN = 6  # generation stamp of the transposition table
P_TT_MASK = 7  # buckets - 1 (a power of two minus one)
P_NODES = 8  # node counter (statistics)
P_BIDDER = 9
P_SEVENTH = 10  # 1 if the face-down card is the seventh card (it must follow its suit)
P_REVEAL = 11  # how trump is shown: REVEAL_ON_REQUEST, REVEAL_FORCED or REVEAL_AUTOMATIC
P_MUST_TRUMP = 12  # 1: whoever asks for trump must trump with the next card
P_OVERTRUMP = 13  # 1: ... and beat an opponent's winning trump if they can
P_BIDDER_LEADS = 14  # 1: the bidder may lead the hidden trump suit
P_LAST_BASE = 15  # where the cache of two-trick endings starts in the table array
P_SEATS = 16  # P_SEATS + 4 * leader + i: the seat that plays the i-th card of a trick
P_SHOWN = 32  # the root position: is trump shown (always 1 in a Single Hand)
P_INDICATOR = 33  # the root position: the face-down card, or -1
P_MUST = 34  # the root position: the seat that must trump with its next card, or -1
P_TRUMP_LED = 35  # the root position: has the trump suit been led
PARAMS_SIZE = 40

REVEAL_ON_REQUEST = 0
REVEAL_FORCED = 1
REVEAL_AUTOMATIC = 2
REVEAL = 32  # the move "show trump" (cards are 0..31)
MOVES = 33  # cards and the reveal

STACK = 44  # one frame per move: 32 cards, one reveal, and a partial trick at the root
MSTRIDE = 10  # room for the moves of one frame: 8 cards and the reveal

TT_BITS = 16  # table entries: 2**TT_BITS, two a bucket
ENTRY = 4  # words an entry: key, key, value, canonical live cards (see _shape_key)
LAST_SIZE = 1 << 14  # entries of the cache of two-trick endings (two words each)
BUCKET = 2 * ENTRY
_GEN_SHIFT = 36  # key = generation << 36 | ...

# frame fields: fr[depth * NF + field]
F_N = 0  # cards already in the current trick
F_LEADER = 1
F_A = 2  # the running window
F_B = 3
F_ALPHA = 4  # the window after the table's bounds, for the store
F_BETA = 5
F_BEST = 6
F_BEST_MOVE = 7
F_K = 8  # next move to try
F_COUNT = 9
F_SEAT = 10
F_SLOT = 11
F_LO = 12
F_HI = 13
F_GOT = 14  # points the objective team took in the trick the current move completed
F_MOVE = 15  # the move being tried
F_TMASK = 16
F_K1 = 17  # the table key of a trick's start
F_K2 = 18
F_FOUND = 19  # where the key is in its bucket (0 or ENTRY), or -1
F_SHOWN = 20  # the node's trump state: shown, face-down card, seat that must trump, trump led
F_IND = 21
F_MUST = 22
F_LED = 23
F_REMOVED = 24  # undo of the current move: the card mask taken from the player's hand
F_JOINED = 25  # ... and the face-down card that joined the bidder's hand (or -1)
F_CANON = 26  # the canonical live cards of a trick's start (see _shape_key)
NF = 27

_ENTER = 0  # set up the node at depth d
_NEXT = 1  # try the next move at depth d, or finish the node
_RESULT = 2  # ``ret`` (+ the trick's points) is the value of the move just tried at depth d
_LEAVE = 3  # ``ret`` is the value of the node at depth d: back to its parent


# -- arrays passed to called functions as addresses ----------------------------------------------
# A compiled function that takes an array reference-counts it on every call (atomic increments
# and decrements): in the hot calls the work arrays travel as addresses instead, and the callee
# views them again without a reference count. (In the plain-Python twin, the "address" is the
# list itself.)
if _PURE_PYTHON:

    def _addr(a: Any) -> Any:
        return a

    def _at(p: Any, n: int) -> Any:
        return p

else:
    _INT64_POINTER: Any = types.CPointer(types.int64)  # type: ignore[no-untyped-call]
    _intrinsic: Any = intrinsic  # numba's typing of intrinsics is its own

    @_intrinsic  # type: ignore[untyped-decorator]
    def _int64_pointer(typingctx: Any, addr: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.inttoptr(args[0], context.get_value_type(_INT64_POINTER))

        return _INT64_POINTER(types.intp), codegen

    @njit(cache=True, inline="always")
    def _addr(a: Any) -> Any:
        return a.ctypes.data

    @njit(cache=True, inline="always")
    def _at(p: Any, n: int) -> Any:
        return carray(_int64_pointer(p), n)


# -- small helpers (scalars only) -----------------------------------------------------------------
@njit(cache=True, inline="always")
def _mask_points(m: int) -> int:
    return int(
        BYTE_POINTS[m & 255]
        + BYTE_POINTS[(m >> 8) & 255]
        + BYTE_POINTS[(m >> 16) & 255]
        + BYTE_POINTS[(m >> 24) & 255]
    )


@njit(cache=True, inline="always")
def _count(m: int) -> int:
    return int(
        BYTE_COUNT[m & 255]
        + BYTE_COUNT[(m >> 8) & 255]
        + BYTE_COUNT[(m >> 16) & 255]
        + BYTE_COUNT[(m >> 24) & 255]
    )


@njit(cache=True, inline="always")
def _low_card(m: int) -> int:
    """The lowest card (bit index) of a non-empty mask below 2**32."""
    return int(DEBRUIJN_INDEX[(((m & -m) * _DEBRUIJN) & 0xFFFFFFFF) >> 27])


@njit(cache=True, inline="always")
def _hand(h0: int, h1: int, h2: int, h3: int, seat: int) -> int:
    if seat == 0:
        return h0
    if seat == 1:
        return h1
    if seat == 2:
        return h2
    return h3


@njit(cache=True, inline="always")
def _beats(card: int, best: int, trump: int) -> bool:
    """Does ``card`` beat ``best``, the card winning the trick so far?"""
    if card >> 3 == best >> 3:
        return card > best
    return card >> 3 == trump


@njit(cache=True, inline="always")
def _legal(hand: int, n: int, lead: int, top_trump: int, trump: int, no_undertrump: int) -> int:
    """The cards a player may play: ``n`` cards are on the table, ``lead`` is the suit led and
    ``top_trump`` the highest trump on the table (-1: none)."""
    if n == 0:
        return hand
    follow = hand & (255 << (8 * lead))
    if follow:
        return follow
    if no_undertrump and top_trump >= 0:
        trumps = hand & (255 << (8 * trump))
        if trumps:
            allowed = hand & ~(trumps & ((1 << top_trump) - 1))
            if allowed:
                return allowed
    return hand


@njit(cache=True, inline="always")
def _can_beat(hand: int, win: int, lead: int, trump: int) -> bool:
    """Could a player holding ``hand`` beat ``win`` (the winning card) in a trick led in
    ``lead``?"""
    follow = hand & (255 << (8 * lead))
    if follow:
        return win >> 3 == lead and follow >> (win + 1) != 0
    if trump < 0:
        return False
    trumps = hand & (255 << (8 * trump))
    return trumps != 0 and (win >> 3 != trump or trumps >> (win + 1) != 0)


@njit(cache=True, inline="always")
def _least_points(hand: int) -> int:
    """The points of the cheapest card of a non-empty hand."""
    if hand & ZERO_POINT_CARDS:
        return 0
    if hand & ONE_POINT_CARDS:
        return 1
    if hand & NINES:
        return 2
    return 3


@njit(cache=True, inline="always")
def _above(c: int, in_play: int) -> int:
    """The cards still in play above ``c`` in its suit."""
    return int(in_play & (255 << (c & 24)) & ~((2 << c) - 1))


@njit(cache=True, inline="always")
def _stands_for(c: int, above: int, legal: int) -> int:
    """The card that stands for ``c`` among the moves ``legal``: the next higher card of its
    run of equivalent cards (same suit, equal points, no card in play between) when that card
    is a move too, else -1. (``above``: :func:`_above` of ``c``.)"""
    if above:
        nxt = _low_card(above)
        if legal >> nxt & 1 and CARD_POINTS[nxt] == CARD_POINTS[c]:
            return nxt
    return -1


@njit(cache=True)
def _shape_key(h1: int, h2: int, h3: int, live: int, leader: int, gen: int) -> tuple[int, int, int]:
    """The table key of a trick's start (trump shown) by its shape: each suit's count of live
    cards and who holds each of them in rank order; and the canonical live cards (see
    ``_canonical_byte``) that tell the points apart. Positions of one shape play alike: only
    the points of the cards differ, and their values differ by at most that. (Two bits a card
    in ``k2``: at most 62 bits with 31 cards. With trump hidden the caller marks the face-down
    card in the spare top bits: then at most 28 cards.)"""
    odd = h1 | h3
    high = h2 | h3
    k1 = 0
    k2 = 0
    canon = 0
    for s in range(4):
        shift = 8 * s
        lb = (live >> shift) & 255
        if lb:
            canon |= CANONICAL_BYTE[lb] << shift
            width = BYTE_COUNT[lb]
            k1 |= width << (4 * s)
            row = lb << 8
            k2 = (k2 << width) | EXTRACT[row | ((odd >> shift) & 255)]
            k2 = (k2 << width) | EXTRACT[row | ((high >> shift) & 255)]
    return (gen << _GEN_SHIFT) | (1 << 34) | (leader << 32) | k1, k2, canon


@njit(cache=True, inline="always")
def _similar_in(tt: Any, slot: int, where: int, k1: int, k2: int, canon: int) -> tuple[int, int]:
    """The bounds the entries of the same shape in a bucket (one at ``where``, perhaps the
    other too) give the position with the canonical cards ``canon``."""
    at = slot + where
    lo, hi = _similar_bounds(tt[at + 2], tt[at + 3], canon)
    at = slot + ENTRY - where
    if tt[at] == k1 and tt[at + 1] == k2:
        lo2, hi2 = _similar_bounds(tt[at + 2], tt[at + 3], canon)
        lo = max(lo, lo2)
        hi = min(hi, hi2)
    return lo, hi


@njit(cache=True, inline="always")
def _tt_bounds(
    tt: Any, slot: int, found: int, k1: int, k2: int, canon: int
) -> tuple[int, int, int]:
    """What the entry :func:`_tt_find` found (``found`` != -1) tells of the position: its bounds
    (lo, hi) and its best move (-1: none, for an entry of the shape only)."""
    if found >= 0:
        entry = tt[slot + found + 2]
        return int(entry & 63), int((entry >> 6) & 63), int(((entry >> 12) & 63) - 1)
    lo, hi = _similar_in(tt, slot, -2 - found, k1, k2, canon)
    return lo, hi, -1


@njit(cache=True, inline="always")
def _similar_bounds(entry: int, old: int, new: int) -> tuple[int, int]:
    """The bounds (lo, hi) an entry stored for a position of the same shape with the canonical
    live cards ``old`` gives the position with ``new``."""
    up = 0
    down = 0
    for s in range(4):
        i = (((old >> (8 * s)) & 255) << 8) | ((new >> (8 * s)) & 255)
        up += SIMILAR_UP[i]
        down += SIMILAR_DOWN[i]
    return int((entry & 63) - down), int(((entry >> 6) & 63) + up)


@njit(cache=True)
def _sure_points(
    h0: int,
    h1: int,
    h2: int,
    h3: int,
    live: int,
    leader: int,
    s1: int,
    s2: int,
    s3: int,
    nplay: int,
    only: int,
    trump: int,
    team: int,
    caller: int,
) -> tuple[int, int]:
    """At a trick's start: points each team is sure to take from here, as (the objective
    team's, the other team's). ``s1``, ``s2``, ``s3`` follow the leader in the trick.

    * The top run of trumps held by one team wins every trick it is in: its points are that
      team's.
    * The leader cashes sure winners: in each side suit, its cards above every other card
      still in play, as many rounds as every opponent holding a trump can follow; the
      opponents add at least their cheapest cards of the suit. The leader keeps the lead, so
      the suits add up, and their cards are no trumps of the run. With ``only`` >= 0 the
      leader must lead that card: it must be one of those winners.
    """
    sure0 = 0
    sure1 = 0
    if trump >= 0:
        tl = (live >> (8 * trump)) & 255
        if tl:
            t0 = ((h0 | h2) >> (8 * trump)) & tl
            t1 = tl ^ t0
            if t0 >> BYTE_HIGH[tl] & 1:
                run = t0 & ~((2 << BYTE_HIGH[t1]) - 1) if t1 else t0
                sure0 = BYTE_POINTS[run]
            else:
                run = t1 & ~((2 << BYTE_HIGH[t0]) - 1) if t0 else t1
                sure1 = BYTE_POINTS[run]
    lead_team = leader & 1
    mine = _hand(h0, h1, h2, h3, leader)
    quick = 0
    first = only < 0  # with a card imposed, it must start a run for the cashing to count
    # (in a Single Hand the opponents cannot lead: their first trick would end the deal)
    for s in range(4 if nplay == 4 or leader == caller else 0):
        shift = 8 * s
        lb = (live >> shift) & 255
        if s == trump or lb == 0:
            continue
        mb = (mine >> shift) & 255
        if not mb >> BYTE_HIGH[lb] & 1:
            continue
        others = lb & ~mb
        run = mb & ~((2 << BYTE_HIGH[others]) - 1) if others else mb
        k = BYTE_COUNT[run]
        for i in range(1, nplay):
            seat = s1 if i == 1 else (s2 if i == 2 else s3)
            if (seat & 1) != lead_team:
                hand = _hand(h0, h1, h2, h3, seat)
                if trump >= 0 and hand & (255 << (8 * trump)):
                    k = min(k, BYTE_COUNT[(hand >> shift) & 255])
        if k == 0:
            continue
        while BYTE_COUNT[run] > k:  # the top k cards of the run
            run &= run - 1
        got = BYTE_POINTS[run]
        for i in range(1, nplay):
            seat = s1 if i == 1 else (s2 if i == 2 else s3)
            if (seat & 1) != lead_team:
                follow = (_hand(h0, h1, h2, h3, seat) >> shift) & 255
                for _ in range(k):  # its cheapest cards of the suit
                    if follow == 0:
                        break
                    low = follow & -follow
                    got += BYTE_POINTS[low]
                    follow ^= low
        if only >= 0 and only >> 3 == s and run >> (only & 7) & 1:
            first = True
        quick += got
    if not first:
        quick = 0
    if lead_team == 0:
        sure0 += quick
    else:
        sure1 += quick
    return (sure0, sure1) if team == 0 else (sure1, sure0)


@njit(cache=True, inline="always")
def _two_tricks_leaf(
    c0: int,
    c1: int,
    c2: int,
    c3: int,
    r0: int,
    r1: int,
    r2: int,
    r3: int,
    s0: int,
    s1: int,
    s2: int,
    s3: int,
    nplay: int,
    trump: int,
    team: int,
    caller: int,
    total: int,
) -> int:
    """The objective team's points from trick 7 (cards ``c0``... played by ``s0``...) and the
    forced trick 8 (each player's other card ``r0``...); ``total``: the points of both tricks
    (the last-trick point included)."""
    w = c0
    wi = 0
    if _beats(c1, w, trump):
        w = c1
        wi = 1
    if _beats(c2, w, trump):
        w = c2
        wi = 2
    got = CARD_POINTS[c0] + CARD_POINTS[c1] + CARD_POINTS[c2]
    if nplay == 4:
        got += CARD_POINTS[c3]
        if _beats(c3, w, trump):
            wi = 3
    w_seat = s0 if wi == 0 else (s1 if wi == 1 else (s2 if wi == 2 else s3))
    v = got if (w_seat & 1) == team else 0
    if caller >= 0 and w_seat != caller:
        return v
    # trick 8, led by the winner of trick 7: the highest trump wins, else the highest card of
    # the suit led (whatever the order the others play in)
    best = r0 if wi == 0 else (r1 if wi == 1 else (r2 if wi == 2 else r3))
    w8 = w_seat
    if wi != 0 and _beats(r0, best, trump):
        best = r0
        w8 = s0
    if wi != 1 and _beats(r1, best, trump):
        best = r1
        w8 = s1
    if wi != 2 and _beats(r2, best, trump):
        best = r2
        w8 = s2
    if nplay == 4 and wi != 3 and _beats(r3, best, trump):
        w8 = s3
    if (w8 & 1) == team:
        v += total - got
    return v


@njit(cache=True, inline="always")
def _better(v: int, best: int, maximising: bool) -> bool:
    return v > best if maximising else v < best


@njit(cache=True, inline="always")
def _improve(v: int, best: int, a: int, b: int, maximising: bool) -> tuple[int, int, int, bool]:
    """A move's value ``v`` at a node of the nested loops: (the node's best value, its window
    ``a``, ``b``, whether ``v`` is the new best)."""
    if maximising:
        if v > best:
            return v, max(a, v), b, True
        return best, a, b, False
    if v < best:
        return v, a, min(b, v), True
    return best, a, b, False


@njit(cache=True)
def _two_tricks(
    h0: int,
    h1: int,
    h2: int,
    h3: int,
    s0: int,
    s1: int,
    s2: int,
    s3: int,
    nplay: int,
    trump: int,
    nut: int,
    team: int,
    caller: int,
    last_point: int,
) -> int:
    """The exact value of a trick's start with two cards in every hand (trump shown): alpha-beta
    over the at most 2 x 2 x 2 x 2 ways to play trick 7 (``s0``... play in that order); trick 8
    is forced. (Scalars only: see the module's last note.)"""
    g0 = _hand(h0, h1, h2, h3, s0)
    g1 = _hand(h0, h1, h2, h3, s1)
    g2 = _hand(h0, h1, h2, h3, s2)
    g3 = _hand(h0, h1, h2, h3, s3) if nplay == 4 else 0
    total = _mask_points(g0 | g1 | g2 | g3) + last_point
    # each hand's two cards add up to x0...: the other card of c is x - c
    x0 = _low_card(g0) + _low_card(g0 & (g0 - 1))
    x1 = _low_card(g1) + _low_card(g1 & (g1 - 1))
    x2 = _low_card(g2) + _low_card(g2 & (g2 - 1))
    x3 = _low_card(g3) + _low_card(g3 & (g3 - 1)) if nplay == 4 else 0
    max0 = (s0 & 1) == team
    max1 = (s1 & 1) == team
    max2 = (s2 & 1) == team
    max3 = (s3 & 1) == team
    a0 = -1
    b0 = 1000
    best0 = -1 if max0 else 1000
    m0 = g0
    while m0 and a0 < b0:
        c0 = _low_card(m0)
        m0 &= m0 - 1
        lead = c0 >> 3
        top0 = c0 if lead == trump else -1
        a1 = a0
        b1 = b0
        best1 = -1 if max1 else 1000
        m1 = _legal(g1, 1, lead, top0, trump, nut)
        while m1 and a1 < b1:
            c1 = _low_card(m1)
            m1 &= m1 - 1
            top1 = c1 if c1 >> 3 == trump and c1 > top0 else top0
            a2 = a1
            b2 = b1
            best2 = -1 if max2 else 1000
            m2 = _legal(g2, 2, lead, top1, trump, nut)
            while m2 and a2 < b2:
                c2 = _low_card(m2)
                m2 &= m2 - 1
                if nplay == 3:
                    v = _two_tricks_leaf(
                        c0, c1, c2, c2, x0 - c0, x1 - c1, x2 - c2, 0, s0, s1, s2, s3, nplay,
                        trump, team, caller, total,
                    )  # fmt: skip
                else:
                    top2 = c2 if c2 >> 3 == trump and c2 > top1 else top1
                    v = -1 if max3 else 1000
                    m3 = _legal(g3, 3, lead, top2, trump, nut)
                    while m3:
                        c3 = _low_card(m3)
                        m3 &= m3 - 1
                        x = _two_tricks_leaf(
                            c0, c1, c2, c3, x0 - c0, x1 - c1, x2 - c2, x3 - c3, s0, s1, s2, s3,
                            nplay, trump, team, caller, total,
                        )  # fmt: skip
                        if _better(x, v, max3):
                            v = x
                best2, a2, b2, _ = _improve(v, best2, a2, b2, max2)
            best1, a1, b1, _ = _improve(best2, best1, a1, b1, max1)
        best0, a0, b0, _ = _improve(best1, best0, a0, b0, max0)
    return best0


@njit(cache=True, inline="always")
def _two_tricks_cached(h0: int, h1: int, h2: int, h3: int, leader: int, par: Any, tt: Any) -> int:
    """:func:`_two_tricks`, its exact values cached under a canonical key."""
    _, k2, canon = _shape_key(h1, h2, h3, h0 | h1 | h2 | h3, leader, 0)
    key = (k2 << 34) | (leader << 32) | canon
    x = (key ^ (key >> 29) ^ (key >> 47)) & 0x7FFFFFFF
    at = par[P_LAST_BASE] + (((x * 0x5BD1E995) >> 13) & (LAST_SIZE - 1)) * 2
    gen = par[P_GEN]
    if tt[at] == key and tt[at + 1] >> 8 == gen:
        return int(tt[at + 1] & 255)
    seats = P_SEATS + 4 * leader
    v = _two_tricks(
        h0, h1, h2, h3, par[seats], par[seats + 1], par[seats + 2], par[seats + 3],
        par[P_PLAYERS], par[P_TRUMP], par[P_NO_UNDERTRUMP], par[P_TEAM], par[P_CALLER],
        par[P_LAST_POINT],
    )  # fmt: skip
    tt[at] = key
    tt[at + 1] = v | (gen << 8)
    return v


@njit(cache=True, inline="always")
def _lead_info(
    mate: int, left: int, right: int, in_play: int, trump: int
) -> tuple[int, int, int, bool]:
    """What the ordering of a lead (trump shown, four players) needs to know of the other
    hands: (``tops``, ``ruffs``, ``partner_ruffs``, ``dry``) as :func:`_order_score` takes them."""
    tops = 0
    ruffs = 0
    partner_ruffs = 0
    tm = 255 << (8 * trump)
    dry = not (left | right) & tm
    for s in range(4):
        sm = 255 << (8 * s)
        lb = (in_play >> (8 * s)) & 255
        if lb and mate >> (8 * s + BYTE_HIGH[lb]) & 1:
            tops |= sm
        if s != trump:
            if (left & tm and not left & sm) or (right & tm and not right & sm):
                ruffs |= sm
            if mate & tm and not mate & sm:
                partner_ruffs |= sm
    return tops, ruffs, partner_ruffs, dry


@njit(cache=True, inline="always")
def _ranked(
    legal: int,
    in_play: int,
    n: int,
    nplay: int,
    win: int,
    win_seat: int,
    seat: int,
    trump: int,
    first: int,
    tops: int,
    ruffs: int,
    partner_ruffs: int,
    dry: bool,
    safe: bool,
) -> int:
    """The moves of a hand of at most four cards, one for each run of equivalent cards, in
    :func:`_order_score` order, packed: the count in bits 0-2, then six bits a card."""
    i0 = -1
    i1 = -1
    i2 = -1
    i3 = -1
    count = 0
    m = legal
    while m:
        c = _low_card(m)
        m &= m - 1
        above = _above(c, in_play)
        if _stands_for(c, above, legal) >= 0:
            continue
        score = _order_score(
            c, above, n, nplay, win, win_seat, seat, trump, first, tops, ruffs, partner_ruffs,
            dry, safe,
        )  # fmt: skip
        item = score * 64 + c
        if item > i0:
            i3 = i2
            i2 = i1
            i1 = i0
            i0 = item
        elif item > i1:
            i3 = i2
            i2 = i1
            i1 = item
        elif item > i2:
            i3 = i2
            i2 = item
        else:
            i3 = item
        count += 1
    return count | ((i0 & 63) << 3) | ((i1 & 63) << 9) | ((i2 & 63) << 15) | ((i3 & 63) << 21)


@njit(cache=True, inline="always")
def _after(
    c: int, seat: int, win: int, win_seat: int, top: int, trump: int
) -> tuple[int, int, int]:
    """The trick after ``seat`` plays ``c`` (trump shown): (the winning card, its seat, the
    highest trump-suit card, or -1)."""
    if _beats(c, win, trump):
        win = c
        win_seat = seat
    if c >> 3 == trump and c > top:
        top = c
    return win, win_seat, top


@njit(cache=True, inline="always")
def _unfinished_safe(
    g: int, h: int, seat_g: int, seat_h: int, win: int, win_seat: int, lead: int, trump: int
) -> bool:
    """Can no opponent of ``win_seat`` among the (up to two) players still to play, holding
    ``g`` and ``h``, beat the winning card?"""
    if (seat_g & 1) != (win_seat & 1) and _can_beat(g, win, lead, trump):
        return False
    return not ((seat_h & 1) != (win_seat & 1) and _can_beat(h, win, lead, trump))


@njit(cache=True)
def _three_tricks(
    h0: int, h1: int, h2: int, h3: int, leader: int, a: int, b: int, first: int, pp: Any, tp: Any
) -> int:
    """Fail-soft alpha-beta in the window (``a``, ``b``) at a trick's start with three cards in
    every hand (trump shown): nested loops over the cards of trick 6, the last two tricks from
    :func:`_two_tricks_cached`. ``first``: the card to try first, or -1; ``pp``, ``tp``: the
    addresses of the parameters and of the table. Returns the value + 64 * (the best first
    card + 1)."""
    par = _at(pp, PARAMS_SIZE)
    tt = _at(tp, par[P_LAST_BASE] + 2 * LAST_SIZE)
    nplay = par[P_PLAYERS]
    trump = par[P_TRUMP]
    nut = par[P_NO_UNDERTRUMP]
    team = par[P_TEAM]
    caller = par[P_CALLER]
    seats = P_SEATS + 4 * leader
    s0 = par[seats]
    s1 = par[seats + 1]
    s2 = par[seats + 2]
    s3 = par[seats + 3]
    g0 = _hand(h0, h1, h2, h3, s0)
    g1 = _hand(h0, h1, h2, h3, s1)
    g2 = _hand(h0, h1, h2, h3, s2)
    g3 = _hand(h0, h1, h2, h3, s3) if nplay == 4 else 0
    live = h0 | h1 | h2 | h3
    max0 = (s0 & 1) == team
    max1 = (s1 & 1) == team
    max2 = (s2 & 1) == team
    max3 = (s3 & 1) == team
    # the lead's ordering, as in the search
    tops = 0
    ruffs = 0
    partner_ruffs = 0
    dry = False
    if trump >= 0 and nplay == 4:
        tops, ruffs, partner_ruffs, dry = _lead_info(g2, g1, g3, live, trump)
    nodes = 0
    a0 = a
    b0 = b
    best0 = -1 if max0 else 1000
    best_card = -1
    r0 = _ranked(g0, live, 0, nplay, -1, -1, s0, trump, first, tops, ruffs, partner_ruffs, dry,
                 True)  # fmt: skip
    for k0 in range(r0 & 7):
        if a0 >= b0:
            break
        c0 = (r0 >> (3 + 6 * k0)) & 63
        nodes += 1
        lead = c0 >> 3
        top0 = c0 if lead == trump else -1
        a1 = a0
        b1 = b0
        best1 = -1 if max1 else 1000
        safe1 = _unfinished_safe(g2, g3, s2, s3, c0, s0, lead, trump)  # (g3: 0 with three)
        r1 = _ranked(
            _legal(g1, 1, lead, top0, trump, nut), live, 1, nplay, c0, s0, s1, trump, -1, 0, 0,
            0, False, safe1,
        )  # fmt: skip
        for k1 in range(r1 & 7):
            if a1 >= b1:
                break
            c1 = (r1 >> (3 + 6 * k1)) & 63
            nodes += 1
            w1, ws1, top1 = _after(c1, s1, c0, s0, top0, trump)
            a2 = a1
            b2 = b1
            best2 = -1 if max2 else 1000
            safe2 = _unfinished_safe(g3, 0, s3, s3, w1, ws1, lead, trump)
            r2 = _ranked(
                _legal(g2, 2, lead, top1, trump, nut), live, 2, nplay, w1, ws1, s2, trump, -1,
                0, 0, 0, False, safe2,
            )  # fmt: skip
            for k2 in range(r2 & 7):
                if a2 >= b2:
                    break
                c2 = (r2 >> (3 + 6 * k2)) & 63
                nodes += 1
                w2, ws2, top2 = _after(c2, s2, w1, ws1, top1, trump)
                if nplay == 3:
                    got = CARD_POINTS[c0] + CARD_POINTS[c1] + CARD_POINTS[c2]
                    v = got if (ws2 & 1) == team else 0
                    if ws2 == caller:
                        played = (1 << c0) | (1 << c1) | (1 << c2)
                        v += _two_tricks_cached(
                            h0 & ~played, h1 & ~played, h2 & ~played, h3 & ~played, ws2, par, tt
                        )
                else:
                    a3 = a2
                    b3 = b2
                    v = -1 if max3 else 1000
                    r3 = _ranked(
                        _legal(g3, 3, lead, top2, trump, nut), live, 3, nplay, w2, ws2, s3,
                        trump, -1, 0, 0, 0, False, True,
                    )  # fmt: skip
                    for k3 in range(r3 & 7):
                        if a3 >= b3:
                            break
                        c3 = (r3 >> (3 + 6 * k3)) & 63
                        nodes += 1
                        ws = ws2
                        if _beats(c3, w2, trump):
                            ws = s3
                        played = (1 << c0) | (1 << c1) | (1 << c2) | (1 << c3)
                        x = _two_tricks_cached(
                            h0 & ~played, h1 & ~played, h2 & ~played, h3 & ~played, ws, par, tt
                        )
                        if (ws & 1) == team:
                            x += (
                                CARD_POINTS[c0] + CARD_POINTS[c1] + CARD_POINTS[c2]
                                + CARD_POINTS[c3]
                            )  # fmt: skip
                        v, a3, b3, _ = _improve(x, v, a3, b3, max3)
                best2, a2, b2, _ = _improve(v, best2, a2, b2, max2)
            best1, a1, b1, _ = _improve(best2, best1, a1, b1, max1)
        best0, a0, b0, better = _improve(best1, best0, a0, b0, max0)
        if better:
            best_card = c0
    par[P_NODES] += nodes
    return best0 + 64 * (best_card + 1)


@njit(cache=True, inline="always")
def _tt_slot(k1: int, k2: int, tt_mask: int) -> int:
    """The bucket of a key in the table."""
    x = (k1 ^ (k1 >> 29) ^ (k2 & 0xFFFFFFFFFFFF) * 3 ^ (k2 >> 23)) & 0x7FFFFFFF
    return int((((x * 0x5BD1E995) >> 13) & tt_mask) * BUCKET)


@njit(cache=True, inline="always")
def _tt_find(tt: Any, slot: int, k1: int, k2: int, canon: int) -> int:
    """Where the key is in its bucket (0 or ENTRY) with the same canonical cards, or -1; or
    (-2 - where) an entry of the same shape with other canonical cards."""
    if tt[slot] == k1 and tt[slot + 1] == k2:
        if tt[slot + 3] == canon:
            return 0
        if tt[slot + ENTRY] == k1 and tt[slot + ENTRY + 1] == k2 and tt[slot + ENTRY + 3] == canon:
            return ENTRY
        return -2
    if tt[slot + ENTRY] == k1 and tt[slot + ENTRY + 1] == k2:
        if tt[slot + ENTRY + 3] == canon:
            return ENTRY
        return -2 - ENTRY
    return -1


@njit(cache=True, inline="always")
def _tt_store(
    tt: Any,
    slot: int,
    found: int,
    k1: int,
    k2: int,
    lo: int,
    hi: int,
    alpha: int,
    beta: int,
    best: int,
    best_move: int,
    held: int,
    gen: int,
    canon: int,
) -> None:
    """Store what a search in the window (``alpha``, ``beta``) found, ``best`` (fail-soft),
    over the bounds ``lo``, ``hi`` known before it; ``held``: the cards still in the hands."""
    if best <= alpha:
        hi = min(hi, best)
    elif best >= beta:
        lo = max(lo, best)
    else:
        lo = best
        hi = best
    value = lo | (hi << 6) | ((best_move + 1) << 12)
    if found >= 0:
        at = slot + found
        value |= tt[at + 2] & (63 << 18)
    else:
        value |= held << 18
        old = tt[slot]
        # two entries a bucket: the first keeps the larger position (more cards held), the
        # second takes whatever comes
        if (old >> _GEN_SHIFT) != gen or (value >> 18) >= (tt[slot + 2] >> 18):
            tt[slot + ENTRY] = old
            tt[slot + ENTRY + 1] = tt[slot + 1]
            tt[slot + ENTRY + 2] = tt[slot + 2]
            tt[slot + ENTRY + 3] = tt[slot + 3]
            at = slot
        else:
            at = slot + ENTRY
    tt[at] = k1
    tt[at + 1] = k2
    tt[at + 2] = value
    tt[at + 3] = canon


@njit(cache=True)
def _node3(
    h0: int, h1: int, h2: int, h3: int, leader: int, a: int, b: int, pp: Any, tp: Any
) -> int:
    """The search at a trick's start with three cards in every hand (trump shown), without a
    frame: the bounds, the table, the sure points, then :func:`_three_tricks`."""
    par = _at(pp, PARAMS_SIZE)
    tt = _at(tp, par[P_LAST_BASE] + 2 * LAST_SIZE)
    live = h0 | h1 | h2 | h3
    total = _mask_points(live) + par[P_LAST_POINT]
    if total <= a:
        return int(total)
    if b <= 0:
        return 0
    lo = 0
    hi = total
    gen = par[P_GEN]
    k1, k2, canon = _shape_key(h1, h2, h3, live, leader, gen)
    slot = _tt_slot(k1, k2, par[P_TT_MASK])
    found = _tt_find(tt, slot, k1, k2, canon)
    tt_best = -1
    if found != -1:
        slo, shi, tt_best = _tt_bounds(tt, slot, found, k1, k2, canon)
        found = max(found, -1)
        lo = max(lo, slo)
        hi = min(hi, shi)
        if lo >= b:
            return int(lo)
        if hi <= a:
            return int(hi)
        if lo == hi:
            return int(lo)
        a = max(a, lo)
        b = min(b, hi)
    seats = P_SEATS + 4 * leader
    sure_mine, sure_theirs = _sure_points(
        h0, h1, h2, h3, live, leader, par[seats + 1], par[seats + 2], par[seats + 3],
        par[P_PLAYERS], -1, par[P_TRUMP], par[P_TEAM], par[P_CALLER],
    )  # fmt: skip
    if sure_mine > lo:
        lo = sure_mine
        if lo >= b:
            return int(lo)
    if total - sure_theirs < hi:
        hi = total - sure_theirs
        if hi <= a:
            return int(hi)
    r = _three_tricks(h0, h1, h2, h3, leader, a, b, tt_best, pp, tp)
    best = r & 63
    _tt_store(tt, slot, found, k1, k2, lo, hi, a, b, best, (r >> 6) - 1, _count(live), gen, canon)
    return int(best)


@njit(cache=True)
def _last_card(
    h0: int,
    h1: int,
    h2: int,
    h3: int,
    seat: int,
    must: int,
    lead: int,
    win: int,
    win_seat: int,
    top_trump: int,
    top_trump_seat: int,
    tmask: int,
    a: int,
    b: int,
    pp: Any,
    tp: Any,
) -> int:
    """Fail-soft alpha-beta for the last card of the trick before the last three (trump shown):
    ``seat`` plays to the cards ``tmask`` (``win`` by ``win_seat`` winning), each move valued
    by :func:`_node3` straight away."""
    par = _at(pp, PARAMS_SIZE)
    trump = par[P_TRUMP]
    team = par[P_TEAM]
    caller = par[P_CALLER]
    nplay = par[P_PLAYERS]
    legal, _ = _options(
        _hand(h0, h1, h2, h3, seat), seat, nplay - 1, lead, top_trump, top_trump_seat, 1, -1,
        must, 1, par,
    )  # fmt: skip
    r = _ranked(
        legal, h0 | h1 | h2 | h3 | tmask, nplay - 1, nplay, win, win_seat, seat, trump, -1, 0, 0,
        0, False, True,
    )  # fmt: skip
    maxing = (seat & 1) == team
    best = -1 if maxing else 1000
    for k in range(r & 7):
        c = (r >> (3 + 6 * k)) & 63
        w_seat = seat if _beats(c, win, trump) else win_seat
        got = _mask_points(tmask | (1 << c)) if (w_seat & 1) == team else 0
        v = got
        if caller < 0 or w_seat == caller:
            out = ~(1 << c)
            v += _node3(h0 & out, h1 & out, h2 & out, h3 & out, w_seat, a - got, b - got, pp, tp)
        best, a, b, _ = _improve(v, best, a, b, maxing)
        if a >= b:
            break
    return int(best)


@njit(cache=True, inline="always")
def _options(
    hand: int,
    seat: int,
    n: int,
    lead: int,
    top_trump: int,
    top_trump_seat: int,
    shown: int,
    ind: int,
    must: int,
    trump_led: int,
    par: Any,
) -> tuple[int, bool]:
    """(the cards ``seat`` may play, whether it may ask for trump to be shown): the engine's
    ``play_options``. ``top_trump`` is the highest trump-suit card on the table (-1: none) and
    ``top_trump_seat`` who played it; ``ind`` the face-down card while trump is hidden."""
    trump = par[P_TRUMP]
    bidder = par[P_BIDDER]
    hidden = ind if seat == bidder and not shown else -1
    if n == 0:
        if hand == 0:
            return 1 << hidden, False
        if not par[P_BIDDER_LEADS] and seat == bidder and not shown and not trump_led:
            trumps = hand & (255 << (8 * trump))
            if trumps and trumps != hand:
                return hand & ~trumps, False
        return hand, False
    follow = hand & (255 << (8 * lead))
    if follow:
        return follow, False
    if hidden >= 0 and (hand == 0 or (hidden >> 3 == lead and par[P_SEVENTH])):
        return 1 << hidden, False  # the face-down card must be shown and played
    if not shown:
        if par[P_REVEAL] == REVEAL_AUTOMATIC:
            return hand, False
        if par[P_REVEAL] == REVEAL_FORCED:
            return 0, True
        return hand, True
    if trump < 0:
        return hand, False
    trumps = hand & (255 << (8 * trump))
    if not trumps:
        return hand, False
    if seat == must:
        if par[P_NO_UNDERTRUMP] or (
            par[P_OVERTRUMP] and top_trump >= 0 and (top_trump_seat & 1) != (seat & 1)
        ):
            higher = trumps & ~((2 << top_trump) - 1) if top_trump >= 0 else trumps
            if higher:
                return higher, False
        return trumps, False
    if par[P_NO_UNDERTRUMP] and top_trump >= 0:
        allowed = hand & ~(trumps & ((1 << top_trump) - 1))
        if allowed:
            return allowed, False
    return hand, False


@njit(cache=True, inline="always")
def _order_score(
    mv: int,
    above: int,
    n: int,
    nplay: int,
    win: int,
    win_seat: int,
    seat: int,
    trump: int,
    tt_best: int,
    tops: int,
    ruffs: int,
    partner_ruffs: int,
    dry: bool,
    safe: bool,
) -> int:
    """Move ordering: a higher score is tried first (``above``: the cards still in play above
    the card in its suit; ``win``/``win_seat``: the card and seat winning the trick so far,
    counting trumps only once shown).

    Leads (trump shown, four players): ``tops`` the suits (as card masks) whose top card in
    play the partner holds, ``ruffs`` the side suits an opponent can trump (void, with
    trumps), ``partner_ruffs`` those the partner can trump, ``dry``: the opponents have no
    trumps. Later in a trick: ``safe``, the partner's card winning the trick cannot be beaten
    by an opponent still to play."""
    if mv == tt_best:
        return 1000
    if mv == REVEAL:
        return 350
    pts = int(CARD_POINTS[mv])
    rank = mv & 7
    if n == 0:
        if mv >> 3 == trump:
            if dry:  # no trumps left to draw
                return 60 - 8 * pts - rank
        elif ruffs >> mv & 1:  # an opponent trumps it
            return 50 - 8 * pts - rank
        if not above:  # the top card still in play in its suit
            return 200 + 8 * pts + rank
        if tops >> mv & 1:  # to the partner's top card
            return 190 - 8 * pts - rank
        if partner_ruffs >> mv & 1:  # for the partner to trump
            return 185 - 8 * pts - rank
        return 100 - 8 * pts - rank
    if _beats(mv, win, trump):
        if (win_seat & 1) == (seat & 1):  # over-taking the partner
            return 150 + 8 * pts - rank
        if n == nplay - 1:  # last to play: the cheapest winning card
            return 500 + 8 * pts - rank
        if not above:  # the top card still in play: it wins unless trumped
            return 450 + 8 * pts + rank
        return 400 + 8 * pts - rank
    if (win_seat & 1) == (seat & 1) and safe:  # the partner wins the trick: add points
        return 300 + 8 * pts - rank
    return 100 - 8 * pts - rank  # losing: the cheapest card


@njit(cache=True)
def root_options(hands: Any, trick: Any, n: int, leader: int, par: Any) -> int:
    """The moves of the player to move at the root (``trick[:n]`` on the table, led by
    ``leader``): a mask of cards, with bit REVEAL set if it may ask for trump to be shown."""
    trump = par[P_TRUMP]
    seats = P_SEATS + 4 * leader
    top = -1
    top_seat = -1
    for i in range(n):
        c = trick[i]
        if c >> 3 == trump and c > top:
            top = c
            top_seat = par[seats + i]
    seat = par[seats + n]
    lead = trick[0] >> 3 if n > 0 else 0
    mask, reveal = _options(
        hands[seat], seat, n, lead, top, top_seat, par[P_SHOWN], par[P_INDICATOR], par[P_MUST],
        par[P_TRUMP_LED], par,
    )  # fmt: skip
    return mask | (1 << REVEAL) if reveal else mask


# -- the search ---------------------------------------------------------------------------------
@njit(cache=True)
def _search(
    hands: Any,
    trick: Any,
    n0: int,
    leader0: int,
    alpha0: int,
    beta0: int,
    only: int,
    par: Any,
    tt: Any,
    moves: Any,
    fr: Any,
) -> int:
    """Fail-soft alpha-beta: the objective team's points from the position with ``trick[:n0]``
    on the table (led by ``leader0``), ``hands`` and the trump state in ``par[P_SHOWN:]``;
    ``only`` >= 0 restricts the player to move to that one move. Iterative, one frame per move
    (``fr``, ``moves[depth * MSTRIDE:]``)."""
    nplay = par[P_PLAYERS]
    trump = par[P_TRUMP]
    team = par[P_TEAM]
    last_point = par[P_LAST_POINT]
    caller = par[P_CALLER]
    bidder = par[P_BIDDER]
    gen = par[P_GEN]
    tt_mask = par[P_TT_MASK]
    pp = _addr(par)
    tp = _addr(tt)
    root = n0
    d = root
    f = d * NF
    fr[f + F_N] = n0
    fr[f + F_LEADER] = leader0
    fr[f + F_A] = alpha0
    fr[f + F_B] = beta0
    fr[f + F_SHOWN] = par[P_SHOWN]
    fr[f + F_IND] = par[P_INDICATOR]
    fr[f + F_MUST] = par[P_MUST]
    fr[f + F_LED] = par[P_TRUMP_LED]
    state = _ENTER
    ret = 0
    nodes = 0
    while True:
        if state == _ENTER:
            nodes += 1
            f = d * NF
            n = fr[f + F_N]
            leader = fr[f + F_LEADER]
            a = fr[f + F_A]
            b = fr[f + F_B]
            shown = fr[f + F_SHOWN]
            ind = fr[f + F_IND]
            h0 = hands[0]
            h1 = hands[1]
            h2 = hands[2]
            h3 = hands[3]
            live = h0 | h1 | h2 | h3
            if ind >= 0:
                live |= 1 << ind
            seats = P_SEATS + 4 * leader
            counting = trump if shown else -1  # the trump that counts in the trick now
            # the trick so far: its cards, the winning card, the highest trump-suit card
            base = d - n
            tmask = 0
            win = -1
            win_seat = -1
            top_trump = -1
            top_trump_seat = -1
            lead = 0
            if n > 0:
                win = trick[base]
                lead = win >> 3
                win_seat = par[seats]
                tmask = 1 << win
                if win >> 3 == trump:
                    top_trump = win
                    top_trump_seat = win_seat
                for i in range(1, n):
                    c = trick[base + i]
                    tmask |= 1 << c
                    if _beats(c, win, counting):
                        win = c
                        win_seat = par[seats + i]
                    if c >> 3 == trump and c > top_trump:
                        top_trump = c
                        top_trump_seat = par[seats + i]
            hi = _mask_points(live | tmask) + last_point  # the last trick is always ahead
            lo = 0
            if hi <= a:
                ret = hi
                state = _LEAVE
                continue
            if b <= 0:
                ret = 0
                state = _LEAVE
                continue
            slot = -1
            tt_best = -1
            restricted = d == root and only >= 0
            if n > 0:
                if shown:
                    # a trick nobody still to play can win is won already, with at least the
                    # cheapest card each of them may add
                    beaten = False
                    sure = _mask_points(tmask)
                    for i in range(n, nplay):
                        s = par[seats + i]
                        hand = _hand(h0, h1, h2, h3, s)
                        if (s & 1) != (win_seat & 1) and _can_beat(hand, win, lead, trump):
                            beaten = True
                            break
                        follow = hand & (255 << (8 * lead))
                        sure += _least_points(follow if follow else hand)
                    if not beaten:
                        if (win_seat & 1) == team:
                            lo = sure
                            if lo >= b:
                                ret = lo
                                state = _LEAVE
                                continue
                        else:
                            hi -= sure
                            if hi <= a:
                                ret = hi
                                state = _LEAVE
                                continue
            else:
                held = _count(live)
                if shown:
                    if held == nplay:  # the last trick: every card is forced
                        w = -1
                        w_seat = -1
                        for i in range(nplay):
                            s = par[seats + i]
                            c = _low_card(_hand(h0, h1, h2, h3, s))
                            if w < 0 or _beats(c, w, trump):
                                w = c
                                w_seat = s
                        ret = hi if (w_seat & 1) == team else 0
                        state = _LEAVE
                        continue
                    if held == 2 * nplay and not restricted:
                        ret = _two_tricks_cached(h0, h1, h2, h3, leader, par, tt)
                        state = _LEAVE
                        continue
                    if held == 3 * nplay and not restricted:  # three tricks left: no frames
                        ret = _node3(h0, h1, h2, h3, leader, a, b, pp, tp)
                        state = _LEAVE
                        continue
                if not restricted and held < 32:
                    if shown:
                        k1, k2, canon = _shape_key(h1, h2, h3, live, leader, gen)
                    else:  # the face-down card counts as the bidder's, and is marked apart
                        j = 0
                        place = 0  # by its place among its suit's live cards (the trump suit)
                        if ind >= 0:
                            j = 1 << ind
                            place = 1 + BYTE_COUNT[(live >> (ind & 24)) & ((1 << (ind & 7)) - 1)]
                        k1, k2, canon = _shape_key(
                            h1 | j if bidder == 1 else h1,
                            h2 | j if bidder == 2 else h2,
                            h3 | j if bidder == 3 else h3,
                            live,
                            leader,
                            gen,
                        )
                        k1 |= 1 << 35
                        k2 |= place << 56
                        k2 |= fr[f + F_LED] << 62
                    slot = _tt_slot(k1, k2, tt_mask)
                    found = _tt_find(tt, slot, k1, k2, canon)
                    fr[f + F_K1] = k1
                    fr[f + F_K2] = k2
                    fr[f + F_FOUND] = -1 if found < -1 else found
                    fr[f + F_CANON] = canon
                    if found != -1:
                        slo, shi, tt_best = _tt_bounds(tt, slot, found, k1, k2, canon)
                        lo = max(lo, slo)
                        hi = min(hi, shi)
                        if lo >= b:
                            ret = lo
                            state = _LEAVE
                            continue
                        if hi <= a:
                            ret = hi
                            state = _LEAVE
                            continue
                        if lo > a:
                            a = lo
                        if hi < b:
                            b = hi
                        if a >= b:  # lo == hi: the value is known
                            ret = lo
                            state = _LEAVE
                            continue
                if shown:  # points each team is sure of (after the table: it costs more)
                    sure_mine, sure_theirs = _sure_points(
                        h0, h1, h2, h3, live, leader, par[seats + 1], par[seats + 2],
                        par[seats + 3], nplay, only if restricted else -1, trump, team, caller,
                    )  # fmt: skip
                    if sure_mine > lo:
                        lo = sure_mine
                        if lo >= b:
                            ret = lo
                            state = _LEAVE
                            continue
                    if sure_theirs > 0 and hi > _mask_points(live) + last_point - sure_theirs:
                        hi = _mask_points(live) + last_point - sure_theirs
                        if hi <= a:
                            ret = hi
                            state = _LEAVE
                            continue
            seat = par[seats + n]
            if n == nplay - 1 and shown and not restricted and _count(live) == 3 * nplay + 1:
                # the last card of the trick before the last three: no frames from here
                ret = _last_card(
                    h0, h1, h2, h3, seat, fr[f + F_MUST], lead, win, win_seat, top_trump,
                    top_trump_seat, tmask, a, b, pp, tp,
                )  # fmt: skip
                state = _LEAVE
                continue
            fr[f + F_SEAT] = seat
            fr[f + F_A] = a
            fr[f + F_B] = b
            fr[f + F_ALPHA] = a
            fr[f + F_BETA] = b
            fr[f + F_SLOT] = slot
            fr[f + F_LO] = lo
            fr[f + F_HI] = hi
            fr[f + F_TMASK] = tmask
            fr[f + F_BEST] = -1 if (seat & 1) == team else 1000
            fr[f + F_BEST_MOVE] = -1
            fr[f + F_K] = 0
            # moves: one card for each run of equivalent cards, best first
            if restricted:
                legal = 1 << only if only < REVEAL else 0
                reveal = only == REVEAL
            else:
                legal, reveal = _options(
                    _hand(h0, h1, h2, h3, seat), seat, n, lead, top_trump, top_trump_seat,
                    shown, ind, fr[f + F_MUST], fr[f + F_LED], par,
                )  # fmt: skip
            in_play = live | tmask
            # what the ordering needs to know about the other hands
            tops = 0
            ruffs = 0
            partner_ruffs = 0
            dry = False
            safe = True
            if n == 0:
                if counting >= 0 and nplay == 4 and not restricted:
                    tops, ruffs, partner_ruffs, dry = _lead_info(
                        _hand(h0, h1, h2, h3, seat ^ 2), _hand(h0, h1, h2, h3, seat ^ 1),
                        _hand(h0, h1, h2, h3, seat ^ 3), in_play, counting,
                    )  # fmt: skip
            elif n < nplay - 1 and (win_seat & 1) == (seat & 1):
                for i in range(n + 1, nplay):
                    s = par[seats + i]
                    if (s & 1) != (seat & 1) and _can_beat(
                        _hand(h0, h1, h2, h3, s), win, lead, counting
                    ):
                        safe = False
            mbase = d * MSTRIDE
            count = 0
            m = legal
            while True:
                if m:
                    c = _low_card(m)
                    m &= m - 1
                    above = _above(c, in_play)
                    if _stands_for(c, above, legal) >= 0:
                        continue  # the next higher card of the run stands for this one
                elif reveal:
                    c = REVEAL
                    above = 0
                    reveal = False
                else:
                    break
                score = _order_score(
                    c, above, n, nplay, win, win_seat, seat, counting, tt_best, tops, ruffs,
                    partner_ruffs, dry, safe,
                )  # fmt: skip
                item = score * 64 + c
                j = count
                while j > 0 and moves[mbase + j - 1] < item:
                    moves[mbase + j] = moves[mbase + j - 1]
                    j -= 1
                moves[mbase + j] = item
                count += 1
            fr[f + F_COUNT] = count
            if n == nplay - 2 and shown and not restricted and _count(live) == 3 * nplay + 2:
                # the card before the last one of the trick before the last three
                maxing = (seat & 1) == team
                best = -1 if maxing else 1000
                nxt = par[seats + n + 1]
                must = fr[f + F_MUST]
                for k in range(count):
                    c = moves[mbase + k] & 63
                    w = win
                    ws = win_seat
                    if _beats(c, win, trump):
                        w = c
                        ws = seat
                    top = top_trump
                    top_seat = top_trump_seat
                    if c >> 3 == trump and c > top_trump:
                        top = c
                        top_seat = seat
                    out = ~(1 << c)
                    v = _last_card(
                        h0 & out, h1 & out, h2 & out, h3 & out, nxt, -1 if must == seat else must,
                        lead, w, ws, top, top_seat, tmask | (1 << c), a, b, pp, tp,
                    )  # fmt: skip
                    best, a, b, _ = _improve(v, best, a, b, maxing)
                    if a >= b:
                        break
                ret = best
                state = _LEAVE
                continue
            state = _NEXT
        elif state == _NEXT:
            f = d * NF
            k = fr[f + F_K]
            if k >= fr[f + F_COUNT] or fr[f + F_A] >= fr[f + F_B]:
                best = fr[f + F_BEST]
                slot = fr[f + F_SLOT]
                if slot >= 0:
                    _tt_store(
                        tt, slot, fr[f + F_FOUND], fr[f + F_K1], fr[f + F_K2], fr[f + F_LO],
                        fr[f + F_HI], fr[f + F_ALPHA], fr[f + F_BETA], best,
                        fr[f + F_BEST_MOVE], _count(hands[0] | hands[1] | hands[2] | hands[3]),
                        gen, fr[f + F_CANON],
                    )  # fmt: skip
                ret = best
                state = _LEAVE
                continue
            fr[f + F_K] = k + 1
            mv = moves[d * MSTRIDE + k] & 63
            fr[f + F_MOVE] = mv
            seat = fr[f + F_SEAT]
            n = fr[f + F_N]
            leader = fr[f + F_LEADER]
            shown = fr[f + F_SHOWN]
            ind = fr[f + F_IND]
            must = fr[f + F_MUST]
            led = fr[f + F_LED]
            base = d - n
            g = f + NF
            fr[f + F_GOT] = 0
            fr[f + F_REMOVED] = 0
            fr[f + F_JOINED] = -1
            if mv == REVEAL:  # trump is shown; the same player then plays
                if ind >= 0:
                    hands[bidder] |= 1 << ind
                    fr[f + F_JOINED] = ind
                for i in range(n - 1, -1, -1):  # the trick's cards move up to the new frame
                    trick[base + 1 + i] = trick[base + i]
                fr[g + F_N] = n
                fr[g + F_LEADER] = leader
                fr[g + F_A] = fr[f + F_A]
                fr[g + F_B] = fr[f + F_B]
                fr[g + F_SHOWN] = 1
                fr[g + F_IND] = -1
                fr[g + F_MUST] = seat if par[P_MUST_TRUMP] else must
                fr[g + F_LED] = led
                d += 1
                state = _ENTER
                continue
            c = mv
            if c == ind:  # the face-down card: playing it shows trump
                shown = 1
                ind = -1
            else:
                hands[seat] ^= 1 << c
                fr[f + F_REMOVED] = 1 << c
            trick[d] = c
            lead = trick[base] >> 3
            if n == 0 and lead == trump:
                led = 1
            if must == seat:
                must = -1
            seats = P_SEATS + 4 * leader
            if n == nplay - 1:  # the card completes the trick
                counting = trump if shown else -1
                w = trick[base]
                w_seat = par[seats]
                for i in range(1, nplay):
                    x = trick[base + i]
                    if _beats(x, w, counting):
                        w = x
                        w_seat = par[seats + i]
                rest = hands[0] | hands[1] | hands[2] | hands[3]
                if ind >= 0:
                    rest |= 1 << ind
                got = 0
                if (w_seat & 1) == team:
                    got = _mask_points(fr[f + F_TMASK] | (1 << c))
                    if rest == 0:
                        got += last_point
                fr[f + F_GOT] = got
                if rest == 0 or (caller >= 0 and w_seat != caller):
                    ret = 0  # the deal is over
                    state = _RESULT
                    continue
                fr[g + F_N] = 0
                fr[g + F_LEADER] = w_seat
                fr[g + F_A] = fr[f + F_A] - got
                fr[g + F_B] = fr[f + F_B] - got
            else:
                nxt = par[seats + n + 1]
                if (
                    not shown
                    and par[P_REVEAL] == REVEAL_AUTOMATIC
                    and not hands[nxt] & (255 << (8 * lead))
                    and not (nxt == bidder and ind >> 3 == lead)
                ):  # shown automatically: the next player cannot follow
                    shown = 1
                    if ind >= 0:
                        hands[bidder] |= 1 << ind
                        fr[f + F_JOINED] = ind
                        ind = -1
                    if par[P_MUST_TRUMP]:
                        must = nxt
                fr[g + F_N] = n + 1
                fr[g + F_LEADER] = leader
                fr[g + F_A] = fr[f + F_A]
                fr[g + F_B] = fr[f + F_B]
            fr[g + F_SHOWN] = shown
            fr[g + F_IND] = ind
            fr[g + F_MUST] = must
            fr[g + F_LED] = led
            d += 1
            state = _ENTER
        elif state == _LEAVE:
            if d == root:
                par[P_NODES] += nodes
                return ret
            d -= 1
            state = _RESULT
        else:  # _RESULT
            f = d * NF
            v = ret + fr[f + F_GOT]
            mv = fr[f + F_MOVE]
            seat = fr[f + F_SEAT]
            hands[seat] ^= fr[f + F_REMOVED]
            if fr[f + F_JOINED] >= 0:
                hands[bidder] ^= 1 << fr[f + F_JOINED]
            if mv == REVEAL:  # the trick's cards move back down
                base = d - fr[f + F_N]
                for i in range(fr[f + F_N]):
                    trick[base + i] = trick[base + 1 + i]
            if (seat & 1) == team:
                if v > fr[f + F_BEST]:
                    fr[f + F_BEST] = v
                    fr[f + F_BEST_MOVE] = mv
                    if v > fr[f + F_A]:
                        fr[f + F_A] = v
            elif v < fr[f + F_BEST]:
                fr[f + F_BEST] = v
                fr[f + F_BEST_MOVE] = mv
                if v < fr[f + F_B]:
                    fr[f + F_B] = v
            state = _NEXT


# -- drivers ------------------------------------------------------------------------------------
@njit(cache=True)
def _exact(
    hands: Any,
    trick: Any,
    n: int,
    leader: int,
    only: int,
    guess: int,
    par: Any,
    tt: Any,
    moves: Any,
    fr: Any,
) -> int:
    """The exact value by null-window tests "does the objective team take at least ``b``
    points?" until the bounds meet: MTD(f) steps from ``guess``, or bisection when there is no
    guess (``guess`` < 0)."""
    live = hands[0] | hands[1] | hands[2] | hands[3]
    if par[P_INDICATOR] >= 0:
        live |= 1 << par[P_INDICATOR]
    for i in range(n):
        live |= 1 << trick[i]
    upper = _mask_points(live) + par[P_LAST_POINT]
    lower = 0
    b = min(max(guess, 1), upper) if guess >= 0 else (upper + 1) // 2
    while lower < upper:
        g = _search(hands, trick, n, leader, b - 1, b, only, par, tt, moves, fr)
        if g < b:
            upper = g
            b = upper if guess >= 0 else (lower + upper + 1) // 2
        else:
            lower = g
            b = lower + 1 if guess >= 0 else (lower + upper + 1) // 2
    return lower


@njit(cache=True, nogil=True)
def solve_position(
    hands: Any,
    trick: Any,
    n: int,
    leader: int,
    each_move: bool,
    need: int,
    par: Any,
    tt: Any,
    moves: Any,
    fr: Any,
    out: Any,
) -> int:
    """The exact value of the position for the objective team (``trick[:n]`` is the current
    trick, led by ``leader``). With ``each_move``, first value every move of the player to move
    (the objective team must be that player's team): ``out[card]`` (and ``out[REVEAL]``) gets
    the move's value, -1 for a move that is not legal; the best of them is returned.

    With ``each_move`` and ``need`` > 0, each move gets one null-window test instead, "does the
    objective team take at least ``need`` points after it?": ``out[move]`` is its fail-soft
    result, at least ``need`` exactly when the answer is yes (then a lower bound of the move's
    value, else an upper bound). Far cheaper than the exact values (about 3 tests a move).

    (One entry point for all: numba compiles the search into every entry point.)"""
    if not each_move:
        return _exact(hands, trick, n, leader, -1, -1, par, tt, moves, fr)
    for i in range(MOVES):
        out[i] = -1
    legal = root_options(hands, trick, n, leader, par)
    live = hands[0] | hands[1] | hands[2] | hands[3]
    if par[P_INDICATOR] >= 0:
        live |= 1 << par[P_INDICATOR]
    for i in range(n):
        live |= 1 << trick[i]
    guess = -1
    best = -1
    # the reveal, then the cards strongest first: each card of a run of equivalent cards
    # copies the one above it
    for mv in range(REVEAL, -1, -1):
        if not legal >> mv & 1:
            continue
        if mv < REVEAL:
            nxt = _stands_for(mv, _above(mv, live), legal)
            if nxt >= 0:
                out[mv] = out[nxt]
                continue
        if need > 0:
            v = _search(hands, trick, n, leader, need - 1, need, mv, par, tt, moves, fr)
        else:
            v = _exact(hands, trick, n, leader, mv, guess, par, tt, moves, fr)
        out[mv] = v
        guess = v
        best = max(best, v)
    return best


# -- the Python side -----------------------------------------------------------------------------
def _array(size: int) -> Any:
    if _PURE_PYTHON:
        return [0] * size
    return np.zeros(size, dtype=np.int64)


class _Table:
    """A transposition table: its words, the lock that lets one search at a time use it, and
    the last generation stamp given to a search context that uses it."""

    def __init__(self, bits: int) -> None:
        self.words: Any = _array((1 << bits) * ENTRY + 2 * LAST_SIZE)
        self.lock = threading.Lock()
        self.generation = 0

    def next_generation(self) -> int:
        """A new stamp (the caller holds the lock). When the stamps would overflow the key,
        the table is cleared and they start again."""
        self.generation += 1
        if self.generation >= 1 << 26:
            self.generation = 1
            words = self.words
            for i in range(len(words)):
                words[i] = 0
        return self.generation


K = TypeVar("K")
V = TypeVar("V")


def per_thread(local: threading.local, key: K, make: Callable[[K], V]) -> V:
    """``make(key)``, made once in each thread and kept in ``local``."""
    made: dict[K, V] | None = getattr(local, "made", None)
    if made is None:
        made = local.made = {}
    if key not in made:
        made[key] = make(key)
    return made[key]


_THREAD_TABLES = threading.local()


def _thread_table(bits: int) -> _Table:
    """The calling thread's transposition table of ``bits``: the search contexts made in one
    thread share it, kept apart by their generation stamps, so nothing is ever cleared; each
    thread has its own, so searches in two threads (two tables' bots in the server) run at
    once on two cores."""
    return per_thread(_THREAD_TABLES, bits, _Table)


_REVEAL_MODES = {
    "on_request": REVEAL_ON_REQUEST,
    "forced_on_void": REVEAL_FORCED,
    "automatic": REVEAL_AUTOMATIC,
}


class Kernel:
    """One search context: the parameters of a deal and work arrays. The transposition table
    is shared by every context of the same size made in the same thread (see
    :func:`_thread_table`); each context has its own generation stamp. A context used from
    another thread is still safe: the table's lock is held around each search.

    A context's table entries stay valid while the deal (who holds which card), the trump,
    the rules and the objective team stay the same: :meth:`configure` with a new signature
    starts a new generation.
    """

    def __init__(self, tt_bits: int = TT_BITS) -> None:
        self.tt_bits = tt_bits
        self._table = _thread_table(tt_bits)
        self.tt: Any = self._table.words
        self.lock = self._table.lock
        self.par: Any = _array(PARAMS_SIZE)
        self.moves: Any = _array(STACK * MSTRIDE)
        self.frames: Any = _array(STACK * NF)
        self.hands: Any = _array(4)
        self.trick: Any = _array(STACK)
        self.out: Any = _array(MOVES)
        self.signature: tuple[Any, ...] | None = None

    def configure(
        self,
        signature: tuple[Any, ...],
        *,
        trump: int,
        caller: int,
        team: int,
        bidder: int,
        seventh: bool,
        last_point: bool,
        no_undertrump: bool,
        trump_reveal: str,
        must_trump: bool,
        overtrump: bool,
        bidder_leads_trump: bool,
    ) -> None:
        """Set the deal's parameters (``trump`` -1 and ``caller`` >= 0 for a Single Hand; the
        rest mirror the rule options); a new ``signature`` starts a new table generation."""
        if signature == self.signature:
            return
        self.signature = signature
        par = self.par
        par[P_TRUMP] = trump
        par[P_NO_UNDERTRUMP] = int(no_undertrump)
        par[P_CALLER] = caller
        par[P_TEAM] = team
        par[P_LAST_POINT] = int(last_point)
        par[P_PLAYERS] = 3 if caller >= 0 else 4
        with self.lock:
            par[P_GEN] = self._table.next_generation()
        par[P_TT_MASK] = (1 << (self.tt_bits - 1)) - 1
        par[P_LAST_BASE] = (1 << self.tt_bits) * ENTRY
        par[P_BIDDER] = bidder
        par[P_SEVENTH] = int(seventh)
        par[P_REVEAL] = _REVEAL_MODES[trump_reveal]
        par[P_MUST_TRUMP] = int(must_trump)
        par[P_OVERTRUMP] = int(overtrump)
        par[P_BIDDER_LEADS] = int(bidder_leads_trump)
        sits_out = (caller + 2) & 3 if caller >= 0 else -1
        for leader in range(4):
            seat = leader
            for i in range(4):
                par[P_SEATS + 4 * leader + i] = seat
                seat = (seat + 1) & 3
                if seat == sits_out:
                    seat = (seat + 1) & 3

    def _load(self, position: Position) -> None:
        hands, trick, _leader, shown, indicator, must, trump_led = position
        for s in range(4):
            self.hands[s] = hands[s]
        for i, c in enumerate(trick):
            self.trick[i] = c
        self.par[P_SHOWN] = int(shown)
        self.par[P_INDICATOR] = indicator
        self.par[P_MUST] = must
        self.par[P_TRUMP_LED] = int(trump_led)

    def values(self, position: Position, need: int = 0) -> dict[int, int]:
        """{move: value} for every legal move of the player to move (a card 0..31, or REVEAL);
        the objective team must be the mover's team. With ``need`` > 0, each move's fail-soft
        test "at least ``need`` points?" instead (``solve_position``)."""
        self._load(position)
        with self.lock:
            solve_position(
                self.hands,
                self.trick,
                len(position[1]),
                position[2],
                True,
                need,
                self.par,
                self.tt,
                self.moves,
                self.frames,
                self.out,
            )
        return {mv: int(self.out[mv]) for mv in range(MOVES) if self.out[mv] >= 0}

    def value(self, position: Position) -> int:
        """The exact value of the position for the objective team."""
        self._load(position)
        with self.lock:
            value = solve_position(
                self.hands,
                self.trick,
                len(position[1]),
                position[2],
                False,
                0,
                self.par,
                self.tt,
                self.moves,
                self.frames,
                self.out,
            )
        return int(value)

    def moves_mask(self, position: Position) -> int:
        """The kernel's own legal moves at the position: cards, and bit REVEAL."""
        self._load(position)
        return int(root_options(self.hands, self.trick, len(position[1]), position[2], self.par))

    @property
    def nodes(self) -> int:
        """Nodes searched by this context so far."""
        return int(self.par[P_NODES])


#: (hands of seats 0-3, cards of the current trick in order, its leader, trump shown,
#: face-down card or -1, seat that must trump or -1, trump suit led)
Position = tuple[tuple[int, ...], tuple[int, ...], int, bool, int, int, bool]

_TWIN: ModuleType | None = None


def load_twin() -> ModuleType:
    """This module again, run as plain Python (``njit`` is the identity there)."""
    global _TWIN
    if _PURE_PYTHON:
        return sys.modules[__name__]
    if _TWIN is None:
        name = __name__ + "_pure"
        spec = importlib.util.spec_from_file_location(name, __file__)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        module.__dict__["_PURE_PYTHON"] = True
        sys.modules[name] = module
        spec.loader.exec_module(module)
        _TWIN = module
    return _TWIN
