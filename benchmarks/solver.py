"""Open-hand solver speed: the value of every legal first card of full 8-trick deals.

Each deal: the 32 cards dealt uniformly into four hands of 8, a trump suit chosen at random and
already shown, a regular round on the standard rules, the first hand to lead, no card played.
With ``--hidden``, instead: a standard deal taken through a random auction to its first lead
with trump still hidden (named in hand or face down), as the expert meets it in play.
The time measured is one ``solve`` call on that opening position (a fresh solver context each
deal, so nothing is remembered from one deal to the next): wall-clock time, and the thread's CPU
time beside it (steadier when other processes share the machine). numba compiles (or loads its
cache) and warms up on a separate deal before the timing starts; that time is reported apart.

    uv run python benchmarks/solver.py [--deals N] [--seed S] [--method M] [--tt-bits B]
        [--hidden] [--json]
    uv run python benchmarks/solver.py --compare OTHER_KERNEL.py [--deals N] [--rounds R]
        [--hidden]

``--compare`` is a paired A/B test for kernel changes: another copy of ``solver_kernel.py``
(say the committed one, ``git show HEAD:twentynine/bots/solver_kernel.py > /tmp/k.py``) is
compiled as a module of its own, and the two kernels take turns on the same deals (the order
alternating round by round), so a change of load on the machine hits both alike. On a shared
machine single runs move by +-15%; the paired sums are steady to a few percent. Measured
with the same two kernels both ways round, the installed side (A) came out about 2% faster
than it should: read a paired difference under ~3% as none, and swap the sides to check.
It also counts the deals on which the two kernels value some first card differently
(``mismatches``): a change meant to make the search faster must leave it at 0.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import random
import statistics
import sys
import time
from typing import Any

from twentynine.bots import solver_kernel
from twentynine.bots.solver import Solver, open_state
from twentynine.engine import Phase, apply, legal_actions, preset, start_round
from twentynine.engine.state import RoundState


def random_deal(rng: random.Random) -> RoundState:
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [0, 0, 0, 0]
    for i, card in enumerate(deck):
        hands[i // 8] |= 1 << card
    first_hand = rng.randrange(4)
    return open_state(hands, trump=rng.randrange(4), leader=first_hand)


def hidden_deal(rng: random.Random) -> RoundState:
    """A deal on the standard rules taken through a random auction to the first lead with trump
    still hidden (named in hand or face down, no Single Hand): the position the expert meets
    most in play."""
    rules = preset("standard")
    while True:
        deck = list(range(32))
        rng.shuffle(deck)
        st, _ = start_round(rules, rng.randrange(4), deck)
        while not st.is_over and st.phase is not Phase.PLAY:
            legal = legal_actions(st)
            st, _ = apply(st, legal[rng.randrange(len(legal))])
        if not st.is_over and not st.trump_shown and st.caller < 0:
            return st


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    k = max(0, min(len(sorted_values) - 1, round(q / 100 * len(sorted_values) + 0.5) - 1))
    return sorted_values[k]


def run(
    deals: int, seed: int, method: str, tt_bits: int = solver_kernel.TT_BITS, hidden: bool = False
) -> dict[str, Any]:
    deal = hidden_deal if hidden else random_deal
    rng = random.Random(seed)
    states = [deal(rng) for _ in range(deals)]
    start = time.perf_counter()
    Solver(method, tt_bits).solve(deal(random.Random(seed - 1)))  # type: ignore[arg-type]
    warmup = time.perf_counter() - start
    times: list[float] = []
    cpu: list[float] = []
    nodes: list[int] = []
    values: list[int] = []
    for st in states:
        solver = Solver(method, tt_bits)  # type: ignore[arg-type]
        c0 = time.thread_time()
        t0 = time.perf_counter()
        result = solver.solve(st)
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.thread_time() - c0) * 1000)
        values.append(max(result.values()))
        if solver.method != "engine":
            nodes.append(solver.kernel_nodes)
    ordered = sorted(times)
    cpu_ordered = sorted(cpu)
    out: dict[str, Any] = {
        "deals": deals,
        "seed": seed,
        "trump": "hidden" if hidden else "shown",
        "method": solver.method,
        "warmup_s": round(warmup, 3),
        "median_ms": round(statistics.median(times), 3),
        "p90_ms": round(percentile(ordered, 90), 3),
        "p99_ms": round(percentile(ordered, 99), 3),
        "max_ms": round(ordered[-1], 3),
        "mean_ms": round(statistics.fmean(times), 3),
        "cpu_median_ms": round(statistics.median(cpu), 3),
        "cpu_p90_ms": round(percentile(cpu_ordered, 90), 3),
        "cpu_p99_ms": round(percentile(cpu_ordered, 99), 3),
        "cpu_max_ms": round(cpu_ordered[-1], 3),
        "load_average": round(os.getloadavg()[0], 2),
        "mean_value": round(statistics.fmean(values), 3),
        "python": platform.python_version(),
    }
    if nodes:
        out["median_nodes"] = int(statistics.median(nodes))
        out["max_nodes"] = max(nodes)
    return out


def _load_kernel(path: str) -> Any:
    """A copy of the kernel module from ``path``, compiled apart from the installed one."""
    name = "solver_kernel_compared"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _solve_with(module: Any, st: RoundState) -> tuple[float, int, dict[Any, int]]:
    solver = Solver("numba")
    for ctx in solver._contexts:
        ctx.kernel = module.Kernel()
    c0 = time.thread_time()
    values = solver.solve(st)
    return time.thread_time() - c0, solver.kernel_nodes, values


def compare(path: str, deals: int, seed: int, rounds: int, hidden: bool = False) -> dict[str, Any]:
    """Paired A/B: the installed kernel (A) and the one at ``path`` (B), in turns."""
    deal = hidden_deal if hidden else random_deal
    modules = (solver_kernel, _load_kernel(path))
    for module in modules:  # compile, or load the cache
        _solve_with(module, deal(random.Random(seed - 1)))
    rng = random.Random(seed)
    states = [deal(rng) for _ in range(deals)]
    cpu: tuple[list[float], list[float]] = ([], [])
    nodes: tuple[list[int], list[int]] = ([], [])
    mismatches = 0
    for r in range(rounds):
        for st in states:
            answers = []
            for i in (0, 1) if r % 2 == 0 else (1, 0):
                t, n, values = _solve_with(modules[i], st)
                answers.append(values)
                cpu[i].append(t * 1000)
                if r == 0:
                    nodes[i].append(n)
            if r == 0 and answers[0] != answers[1]:
                mismatches += 1
    # deals on which the two kernels value some first card differently (0: they agree)
    out: dict[str, Any] = {"deals": deals, "seed": seed, "rounds": rounds, "mismatches": mismatches}
    for i, key in enumerate(("a", "b")):
        out[f"{key}_cpu_sum_ms"] = round(sum(cpu[i]), 1)
        out[f"{key}_cpu_median_ms"] = round(statistics.median(cpu[i]), 3)
        out[f"{key}_median_nodes"] = int(statistics.median(nodes[i]))
        out[f"{key}_sum_nodes"] = sum(nodes[i])
    out["b_over_a_cpu"] = round(sum(cpu[1]) / sum(cpu[0]), 3)
    out["load_average"] = round(os.getloadavg()[0], 2)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--method", default="auto", choices=("auto", "numba", "python", "engine"))
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--compare", metavar="KERNEL_PY", help="paired A/B against this kernel")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of a --compare")
    parser.add_argument(
        "--tt-bits", type=int, default=solver_kernel.TT_BITS, help="the table: 2**N entries"
    )
    parser.add_argument(
        "--hidden", action="store_true", help="deals after a random auction, trump still hidden"
    )
    args = parser.parse_args()
    if args.compare:
        print(json.dumps(compare(args.compare, args.deals, args.seed, args.rounds, args.hidden)))
        return
    result = run(args.deals, args.seed, args.method, args.tt_bits, args.hidden)
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"solver benchmark: {args.deals} full deals, trump {result['trump']}, value of every "
        f"first card (method {result['method']}, seed {args.seed})"
    )
    print(f"  compile / warm-up   {result['warmup_s']:>9} s   (not in the figures below)")
    print(f"  {'':<18}{'wall':>9}    {'cpu':>9}")
    for key in ("median", "p90", "p99", "max"):
        wall, cpu = result[f"{key}_ms"], result[f"cpu_{key}_ms"]
        print(f"  {key:<18}{wall:>9} ms {cpu:>9} ms")
    print(f"  {'mean':<18}{result['mean_ms']:>9} ms")
    print(f"  load average      {result['load_average']:>9}   (other processes share the cores)")
    if "median_nodes" in result:
        print(f"  nodes (median/max) {result['median_nodes']:>9} / {result['max_nodes']}")


if __name__ == "__main__":
    main()
