"""The open-hand solver: checked against plain minimax on small endings over the rule presets
(hidden trump and reveal, the seventh card, the hand card, no under-trumping, over-trumping,
automatic showing, Single Hand), the compiled kernel against its plain-Python twin and the
engine-based search, a fixed full deal's values as a regression, and the compiled search in
several threads at once."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from twentynine.bots import solver_kernel
from twentynine.bots.solver import (
    Method,
    Solver,
    best_value,
    kernel_applies,
    kernel_position,
    open_state,
    resolve_method,
    solve,
    warm_up,
)
from twentynine.engine import Act, Action, Phase, RoundState, Rules, apply, legal_actions, preset
from twentynine.engine import start_round as start
from twentynine.engine.cards import parse_card
from twentynine.engine.state import team_of

METHODS: tuple[Method, ...] = ("numba", "python", "engine")


# -- helpers ---------------------------------------------------------------------------------------
def brute_force(st: RoundState, team: int) -> int:
    """Plain minimax over engine states, no pruning and no table: the points ``team`` takes
    from ``st`` to the end of the deal (the deal played to the last trick)."""
    if st.phase is not Phase.PLAY:
        return 0
    values = []
    for action in legal_actions(st, st.turn):
        if action.act is Act.PAIR:
            continue
        child, _ = apply(st, action)
        values.append(child.points[team] - st.points[team] + brute_force(child, team))
    return max(values) if team_of(st.turn) == team else min(values)


def brute_values(st: RoundState) -> dict[Action, int]:
    """What ``solve`` must answer, by brute force."""
    team = team_of(st.turn)
    out: dict[Action, int] = {}
    for action in legal_actions(st, st.turn):
        if action.act is not Act.PAIR:
            child, _ = apply(st, action)
            out[action] = child.points[team] - st.points[team] + brute_force(child, team)
    for action in legal_actions(st, st.turn):
        if action.act is Act.PAIR:
            out[action] = max(out.values())
    return out


def ending(
    rules: Rules,
    rng: random.Random,
    tricks_left: int,
    keep_hidden: bool = False,
    want: Callable[[RoundState], bool] = lambda st: True,
) -> RoundState:
    """A random deal played with random legal actions until ``tricks_left`` tricks remain (with
    ``keep_hidden``, avoiding showing trump where there is a choice), then one of the next
    positions satisfying ``want``."""
    for _ in range(2000):
        deck = list(range(32))
        rng.shuffle(deck)
        st, _ = start(rules, rng.randrange(4), deck)
        while not st.is_over and not (
            st.phase is Phase.PLAY and len(st.tricks) == 8 - tricks_left and not st.trick
        ):
            legal = legal_actions(st)
            if keep_hidden and st.phase is Phase.PLAY:
                quiet = [
                    a
                    for a in legal
                    if a.act is not Act.REVEAL and not (a.act is Act.PLAY and a.arg == st.indicator)
                ]
                legal = quiet or legal
            st, _ = apply(st, legal[rng.randrange(len(legal))])
        if st.is_over:
            continue
        # on through the last tricks: the position is one of the first states that will do
        found: list[RoundState] = []
        while st.phase is Phase.PLAY and len(found) < 4:
            if want(st):
                found.append(st)
            legal = legal_actions(st, st.turn)
            st, _ = apply(st, legal[rng.randrange(len(legal))])
        if found:
            return found[rng.randrange(len(found))]
    raise AssertionError("no such position found")


def no_early_finish(name: str, **options: Any) -> Rules:
    return preset(name).with_options(early_finish=False, **options)


# rule sets covering every play rule: (label, rules)
RULE_SETS = [
    ("standard", no_early_finish("standard")),  # seventh card, on request, Single Hand
    ("pagat", no_early_finish("pagat")),  # hand card, no under-trump, lead restriction, +1
    ("bhoos", no_early_finish("bhoos")),  # must over-trump an opponent's trump
    ("classic", no_early_finish("classic")),  # forced to ask when void, last-trick point
    ("arkadium", no_early_finish("arkadium")),  # shown automatically, seventh card
    ("denexa", no_early_finish("denexa")),  # shown automatically
    ("auto-must", no_early_finish("standard", trump_reveal="automatic")),
    ("forced-nut", no_early_finish("standard", trump_reveal="forced_on_void", no_undertrump=True)),
    ("pagat-seventh", no_early_finish("pagat", trump_indicator="outside_card")),
    ("bhoos-nut", no_early_finish("bhoos", no_undertrump=True)),
]


# -- against brute force -------------------------------------------------------------------------
@pytest.mark.parametrize(("label", "rules"), RULE_SETS, ids=[r[0] for r in RULE_SETS])
def test_endings_match_brute_force(label: str, rules: Rules) -> None:
    rng = random.Random(f"brute-{label}")
    for i in range(10):
        st = ending(rules, rng, tricks_left=1 + i % 2, keep_hidden=i % 3 != 0)
        expected = brute_values(st)
        for method in METHODS:
            assert Solver(method).solve(st) == expected, (label, i, method)


RULES = dict(RULE_SETS)


def _can_reveal(st: RoundState) -> bool:
    return any(a.act is Act.REVEAL for a in legal_actions(st, st.turn))


SPECIAL: list[tuple[str, Callable[[RoundState], bool], tuple[str, ...]]] = [
    ("reveal choice", _can_reveal, ("standard", "pagat", "bhoos")),
    ("must trump", lambda st: st.must_trump >= 0, ("standard", "bhoos", "pagat")),
    ("face-down card", lambda st: st.indicator >= 0, ("standard", "pagat", "pagat-seventh")),
    ("single hand", lambda st: st.caller >= 0, ("standard", "pagat")),
]


@pytest.mark.parametrize(("label", "want", "names"), SPECIAL, ids=[s[0] for s in SPECIAL])
def test_special_positions_match_brute_force(
    label: str, want: Callable[[RoundState], bool], names: tuple[str, ...]
) -> None:
    rng = random.Random(f"special-{label}")
    for i in range(8):
        name = names[i % len(names)]
        st = ending(RULES[name], rng, 1 + i % 2, keep_hidden=True, want=want)
        expected = brute_values(st)
        for method in METHODS:
            assert Solver(method).solve(st) == expected, (label, name, method)


def test_seventh_card_must_be_played_when_its_suit_is_led() -> None:
    """The bidder's only card of the suit led is the face-down seventh card: the only legal
    action is to play it (which shows trump), and the solver values exactly that."""
    rules = no_early_finish("standard")
    rng = random.Random(7)

    def forced(st: RoundState) -> bool:
        legal = legal_actions(st, st.turn)
        return len(legal) == 1 and legal[0].act is Act.PLAY and legal[0].arg == st.indicator

    st = ending(rules, rng, 2, keep_hidden=True, want=forced)
    for method in METHODS:
        assert Solver(method).solve(st) == brute_values(st)


# -- the implementations agree ---------------------------------------------------------------------
def test_forced_reveal_agrees() -> None:
    """``forced_on_void``: a player who cannot follow may only ask for trump to be shown."""
    rng = random.Random(17)
    for i in range(4):
        name = ("classic", "forced-nut")[i % 2]
        st = ending(RULES[name], rng, 4, want=_can_reveal)
        assert [a.act for a in legal_actions(st, st.turn)] == [Act.REVEAL]
        results = {m: Solver(m).solve(st) for m in METHODS}
        assert results["numba"] == results["python"] == results["engine"], name


def test_kernel_twin_and_engine_search_agree_on_longer_endings() -> None:
    rng = random.Random(2024)
    for i in range(12):
        label, rules = RULE_SETS[i % len(RULE_SETS)]
        st = ending(rules, rng, tricks_left=3, keep_hidden=i % 2 == 0)
        results = {m: Solver(m).solve(st) for m in METHODS}
        assert results["numba"] == results["python"] == results["engine"], (label, i)


def test_mid_trick_positions_agree() -> None:
    """Positions inside a trick (trump shown or not), where the kernel's ordering looks at the
    other hands and a trick is settled once no opponent of its winner can still beat it."""
    rng = random.Random(77)
    for i in range(16):
        label, rules = RULE_SETS[i % len(RULE_SETS)]
        st = ending(
            rules, rng, tricks_left=2 + i % 2, keep_hidden=i % 4 == 0, want=lambda s: bool(s.trick)
        )
        results = {m: Solver(m).solve(st) for m in METHODS}
        assert results["numba"] == results["python"] == results["engine"], (label, i)


def test_frameless_endings_agree_with_the_engine_search() -> None:
    """Trump shown, four tricks left (at the trick's start or inside it): the kernel plays the
    last two cards of this trick through ``_last_card`` and the three tricks after it through
    ``_node3`` and the nested loops, on every rule set; the engine-based search has no such
    shortcut."""
    rng = random.Random(4)
    for i in range(len(RULE_SETS)):
        label, rules = RULE_SETS[i % len(RULE_SETS)]
        st = ending(rules, rng, 4, want=lambda s: s.trump_shown and len(s.tricks) == 4)
        results = {m: Solver(m).solve(st) for m in ("numba", "engine")}
        assert results["numba"] == results["engine"], (label, i, len(st.trick))


def test_single_hands_agree_on_longer_endings() -> None:
    rng = random.Random(31)
    for i in range(6):
        name = ("standard", "pagat")[i % 2]
        st = ending(RULES[name], rng, 4 + i % 3, want=lambda s: s.caller >= 0)
        results = {m: Solver(m).solve(st) for m in ("numba", "engine")}
        assert results["numba"] == results["engine"], (name, i)


def test_kernel_legal_moves_match_the_engine() -> None:
    rng = random.Random(99)
    for i in range(60):
        label, rules = RULE_SETS[i % len(RULE_SETS)]
        st = ending(rules, rng, tricks_left=1 + i % 8, keep_hidden=i % 2 == 0)
        assert kernel_applies(st)
        solver = Solver("numba")
        solver._prepare(st)  # configure the kernel for this deal
        kernel = solver._ctx.kernel
        assert kernel is not None
        moves = kernel.moves_mask(kernel_position(st))
        expected = 0
        for a in legal_actions(st, st.turn):
            if a.act is Act.PLAY:
                expected |= 1 << a.arg
            elif a.act is Act.REVEAL:
                expected |= 1 << solver_kernel.REVEAL
        assert moves == expected, (label, i)


def test_compiled_kernel_and_twin_agree_on_full_deals() -> None:
    rng = random.Random(5)
    twin = solver_kernel.load_twin()
    assert twin is not solver_kernel
    assert twin.njit is not solver_kernel.njit  # the twin's njit is the identity
    for _ in range(2):
        st = open_state(_random_hands(rng), trump=rng.randrange(4), leader=rng.randrange(4))
        # late enough in the deal for plain Python: play four tricks at random first
        while len(st.tricks) < 4:
            legal = legal_actions(st, st.turn)
            st, _ = apply(st, legal[rng.randrange(len(legal))])
        assert Solver("numba").solve(st) == Solver("python").solve(st)


def test_tests_of_a_need_agree_with_the_values() -> None:
    """``solve(st, need=k)``: each action's number is at least ``k`` exactly when its value is,
    for every implementation, at the start of a trick and inside one, trump hidden or shown,
    for needs below, at and above the values."""
    rng = random.Random(1729)
    checked = 0
    for i in range(12):
        label, rules = RULE_SETS[i % len(RULE_SETS)]
        st = ending(rules, rng, tricks_left=2 + i % 2, keep_hidden=i % 3 == 0)
        exact = Solver("engine").solve(st)
        for need in sorted({1, *exact.values(), *(v + 1 for v in exact.values())}):
            for method in METHODS:
                tested = Solver(method).solve(st, need=need)
                assert tested.keys() == exact.keys(), (label, i, method)
                for a, v in exact.items():
                    assert (tested[a] >= need) == (v >= need), (label, i, method, need, a)
                    checked += 1
    assert checked > 150


def test_tests_of_a_need_agree_on_full_deals() -> None:
    """... and a test searches fewer nodes than the values (the nodes are deterministic)."""
    rng = random.Random(12)
    for _ in range(3):
        st = open_state(_random_hands(rng), trump=rng.randrange(4), leader=rng.randrange(4))
        values = Solver("numba")
        exact = values.solve(st)
        for need in (min(exact.values()), max(exact.values()), max(exact.values()) + 1, 15):
            solver = Solver("numba")
            tested = solver.solve(st, need=need)
            assert {a: v >= need for a, v in tested.items()} == {
                a: v >= need for a, v in exact.items()
            }
            assert solver.kernel_nodes < values.kernel_nodes


# -- a fixed full deal ---------------------------------------------------------------------------
FIXED_HANDS = {
    0: "JS 9S AS JH TS 7C 7H 8C",
    1: "KS QS 8S 7S JD 9D QH QC",
    2: "JC 9C AC TC AD TD TH AH",
    3: "KC KD QD 8D 7D 9H KH 8H",
}
#: the value of every first card of seat 0, hearts trump and shown, seat 0 to lead
FIXED_VALUES = {
    "JS": 18,
    "9S": 19,
    "AS": 20,
    "TS": 20,
    "JH": 16,
    "7H": 14,
    "7C": 19,
    "8C": 19,
}


def _hands(text: dict[int, str]) -> list[int]:
    return [sum(1 << parse_card(c) for c in text[s].split()) for s in range(4)]


def _random_hands(rng: random.Random) -> list[int]:
    deck = list(range(32))
    rng.shuffle(deck)
    return [sum(1 << c for c in deck[8 * s : 8 * s + 8]) for s in range(4)]


def test_fixed_deal_values() -> None:
    st = open_state(_hands(FIXED_HANDS), trump=parse_card("7H") >> 3, leader=0)
    values = {a.text.split()[1]: v for a, v in solve(st, "numba").items()}
    assert values == FIXED_VALUES
    assert best_value(st, "numba") == max(FIXED_VALUES.values())


# -- the API -------------------------------------------------------------------------------------
def test_pair_is_worth_the_position() -> None:
    rules = no_early_finish("classic")  # the pair is declared after a trick is won
    rng = random.Random(11)
    st = ending(
        rules,
        rng,
        2,
        want=lambda st: any(a.act is Act.PAIR for a in legal_actions(st, st.turn)),
    )
    values = solve(st)
    pair = next(a for a in values if a.act is Act.PAIR)
    assert values[pair] == max(values.values()) == best_value(st)
    assert values == brute_values(st)


def test_best_value_is_the_best_action() -> None:
    rng = random.Random(3)
    for name, rules in RULE_SETS[:4]:
        st = ending(rules, rng, 3)
        for method in METHODS:
            assert best_value(st, method) == max(solve(st, method).values()), name


def test_points_taken_before_do_not_count() -> None:
    rng = random.Random(8)
    st = ending(no_early_finish("standard"), rng, 1)
    total = sum(c for c in _points_in_play(st))
    values = solve(st)
    assert all(0 <= v <= total for v in values.values())


def _points_in_play(st: RoundState) -> list[int]:
    from twentynine.engine.cards import mask_points

    held = 0
    for s in range(4):
        held |= st.seat_cards(s)
    for _, c in st.trick:
        held |= 1 << c
    return [mask_points(held) + (1 if st.rules.last_trick_point else 0)]


def test_method_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TWENTYNINE_NO_NUMBA", "1")
    assert resolve_method("auto") == "python"
    assert Solver().method == "python"
    monkeypatch.delenv("TWENTYNINE_NO_NUMBA")
    assert resolve_method("auto") == "numba"
    with pytest.raises(ValueError, match="unknown solver method"):
        Solver("fast")  # type: ignore[arg-type]


def test_needs_a_play_position() -> None:
    st, _ = start(preset("standard"), 0, list(range(32)))
    assert st.phase is not Phase.PLAY
    with pytest.raises(ValueError, match="play-phase position"):
        solve(st)


def test_open_state_checks_the_hands() -> None:
    with pytest.raises(ValueError, match="8 cards"):
        open_state([0xFF, 0xFF00, 0xFF0000, 0xFF000001], trump=0)


def test_early_finish_is_ignored() -> None:
    """With early finish on, the engine would stop once the result is settled; the solver
    still counts every point to the last trick."""
    rng = random.Random(4)
    rules = preset("standard")
    st = ending(rules.with_options(early_finish=False), rng, 2, want=lambda s: s.caller < 0)
    with_finish = st.copy()
    with_finish.rules = rules
    assert solve(with_finish) == solve(st) == brute_values(st)


def test_warm_up_leaves_the_kernel_compiled() -> None:
    # the kernel's entry points are compiled (or loaded from numba's cache) once it returns,
    # so the first real decision does not pay for it
    assert warm_up("numba") >= 0
    assert solver_kernel.solve_position.signatures


# -- positions of one shape -------------------------------------------------------------------
def _open_minimax(hands: list[int], leader: int, trump: int, team: int) -> int:
    """Plain minimax on card masks, trump shown, four players, no last-trick point: the points
    ``team`` takes (independent of the kernel)."""
    points = (0, 0, 0, 0, 1, 1, 2, 3)

    def trick(hs: list[int], played: list[int], lead: int, seat: int) -> int:
        if not hs[seat] and not played:
            return 0
        if len(played) == 4:
            best = played[0]
            for c in played[1:]:
                if (c >> 3 == best >> 3 and c > best) or (c >> 3 == trump != best >> 3):
                    best = c
            winner = (lead + played.index(best)) & 3
            got = sum(points[c & 7] for c in played) if winner & 1 == team else 0
            return got + trick(hs, [], winner, winner)
        hand = hs[seat]
        if played:
            follow = hand & (255 << (8 * (played[0] >> 3)))
            hand = follow or hand
        values = []
        for c in range(32):
            if hand >> c & 1:
                hs[seat] ^= 1 << c
                values.append(trick(hs, [*played, c], lead, (seat + 1) & 3))
                hs[seat] ^= 1 << c
        return max(values) if seat & 1 == team else min(values)

    return trick(list(hands), [], leader, leader)


def test_positions_of_one_shape_differ_by_at_most_their_points() -> None:
    """The table shares bounds between positions of one shape (each suit's count of cards and
    who holds them in rank order): the same play wins the same tricks, so the values differ by
    no more than the points of the cards, rank by rank. Checked by plain minimax on random
    three-trick endings, and the kernel's key and bounds checked to say the same."""
    twin = solver_kernel.load_twin()
    points = (0, 0, 0, 0, 1, 1, 2, 3)
    rng = random.Random(29)
    tight = 0
    for _ in range(40):
        cards = rng.sample(range(32), 12)
        hands = [sum(1 << c for c in cards[3 * i : 3 * i + 3]) for i in range(4)]
        other = [0, 0, 0, 0]
        up = down = 0
        for s in range(4):
            held = sorted(
                (c, seat)
                for seat in range(4)
                for c in range(8 * s, 8 * s + 8)
                if hands[seat] >> c & 1
            )
            new = sorted(rng.sample(range(8 * s, 8 * s + 8), len(held)))
            for (c, seat), d in zip(held, new, strict=True):
                other[seat] |= 1 << d
                up += max(0, points[d & 7] - points[c & 7])
                down += max(0, points[c & 7] - points[d & 7])
        trump, leader = rng.randrange(4), rng.randrange(4)
        v = _open_minimax(hands, leader, trump, 0)
        w = _open_minimax(other, leader, trump, 0)
        assert v - down <= w <= v + up, (hands, other, trump, leader)
        tight += w in (v - down, v + up) and up + down > 0
        keys = [
            twin._shape_key(h[1], h[2], h[3], h[0] | h[1] | h[2] | h[3], leader, 1)
            for h in (hands, other)
        ]
        assert keys[0][:2] == keys[1][:2]
        entry = v | (v << 6)
        assert twin._similar_bounds(entry, keys[0][2], keys[1][2]) == (v - down, v + up)
    assert tight > 0  # the bound is met exactly somewhere: it is no looser than it must be


# -- threads --------------------------------------------------------------------------------------
def _full_deals(seed: int, count: int) -> list[RoundState]:
    rng = random.Random(seed)
    return [
        open_state(_random_hands(rng), trump=rng.randrange(4), leader=rng.randrange(4))
        for _ in range(count)
    ]


def test_searches_in_several_threads_at_once_agree_with_one_thread() -> None:
    """The compiled search lets go of the interpreter's lock while it runs: four threads
    solving whole deals at once, each with its own solver and in its own order, get the values
    one thread gets alone. The four solvers are made here, so they share this thread's table
    and their searches take turns at its lock."""
    warm_up("numba")
    deals = _full_deals(83, 6)
    # a small table, so that the threads' searches meet in the same entries again and again
    bits = 8
    alone = [Solver("numba", tt_bits=bits).solve(st) for st in deals]
    solvers = [Solver("numba", tt_bits=bits) for _ in range(4)]
    got: dict[int, list[dict[Action, int]]] = {}

    def work(k: int) -> None:
        solver = solvers[k]
        order = deals[k:] + deals[:k]
        values = [solver.solve(st) for st in order]
        got[k] = values[len(deals) - k :] + values[: len(deals) - k]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(got) == [0, 1, 2, 3]
    for k in range(4):
        assert got[k] == alone, k


def test_each_thread_has_its_own_table() -> None:
    """The search contexts made in one thread share its transposition table; another
    thread's have a table of their own, so that two threads' searches can run at once."""
    here = [c.kernel for c in Solver("numba")._contexts]
    there: list[Any] = []
    worker = threading.Thread(target=lambda: there.append(Solver("numba")._contexts[0].kernel))
    worker.start()
    worker.join()
    assert here[0] is not None and here[1] is not None and there[0] is not None
    assert here[0].tt is here[1].tt and here[0].lock is here[1].lock
    assert there[0].tt is not here[0].tt and there[0].lock is not here[0].lock


def test_a_search_waits_while_its_table_is_in_use() -> None:
    """One search at a time uses a transposition table: a search whose table's lock another
    thread holds waits for it, and runs as soon as it is let go."""
    warm_up("numba")
    st = _full_deals(5, 1)[0]
    solver = Solver("numba")
    expected = Solver("numba").solve(st)
    kernel = solver._contexts[0].kernel
    assert kernel is not None
    got: list[dict[Action, int]] = []
    done = threading.Event()

    def work() -> None:
        got.append(solver.solve(st))
        done.set()

    with kernel.lock:
        worker = threading.Thread(target=work)
        worker.start()
        assert not done.wait(0.3)  # a whole deal takes a few ms: it is waiting for the table
    assert done.wait(10)
    worker.join()
    assert got == [expected]


def test_another_thread_runs_while_a_whole_deal_is_searched() -> None:
    """What the server relies on: its event loop keeps serving while a bot's search runs in a
    worker thread. Here the main thread sleeps a millisecond at a time while another thread
    solves whole deals; had the search kept the interpreter's lock, the main thread could not
    wake before each search ended, so its longest wait would be about a search's length."""
    warm_up("numba")
    # one of the slowest of 300 random deals to solve (693,146 nodes, 79 ms here), three times
    deals = _full_deals(142, 1) * 3
    spans: list[float] = []
    done = threading.Event()

    def work() -> None:
        for st in deals:
            t0 = time.perf_counter()
            Solver("numba").solve(st)  # a new solver: nothing remembered from the last deal
            spans.append(time.perf_counter() - t0)
        done.set()

    worker = threading.Thread(target=work)
    waits: list[float] = []
    worker.start()
    last = time.perf_counter()
    while not done.is_set():
        time.sleep(0.001)
        now = time.perf_counter()
        waits.append(now - last)
        last = now
    worker.join()
    longest = max(spans)
    assert longest > 0.02, spans  # long enough to tell the two cases apart
    assert max(waits) < longest / 2, (max(waits), spans)
