"""Open-hand solver speed: the value of every legal first card of full 8-trick deals.

Each deal: the 32 cards dealt uniformly into four hands of 8, a trump suit chosen at random and
already shown, a regular round on the standard rules, the first hand to lead, no card played.
The time measured is one ``solve`` call on that opening position (a fresh solver context each
deal, so nothing is remembered from one deal to the next): wall-clock time, and the thread's CPU
time beside it (steadier when other processes share the machine). numba compiles (or loads its
cache) and warms up on a separate deal before the timing starts; that time is reported apart.

    uv run python benchmarks/solver.py [--deals N] [--seed S] [--method M] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import time
from typing import Any

from twentynine.bots.solver import Solver, open_state
from twentynine.engine.state import RoundState


def random_deal(rng: random.Random) -> RoundState:
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [0, 0, 0, 0]
    for i, card in enumerate(deck):
        hands[i // 8] |= 1 << card
    first_hand = rng.randrange(4)
    return open_state(hands, trump=rng.randrange(4), leader=first_hand)


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    k = max(0, min(len(sorted_values) - 1, round(q / 100 * len(sorted_values) + 0.5) - 1))
    return sorted_values[k]


def run(deals: int, seed: int, method: str) -> dict[str, Any]:
    rng = random.Random(seed)
    states = [random_deal(rng) for _ in range(deals)]
    solver = Solver(method)  # type: ignore[arg-type]
    start = time.perf_counter()
    Solver(method).solve(random_deal(random.Random(seed - 1)))  # type: ignore[arg-type]
    warmup = time.perf_counter() - start
    times: list[float] = []
    cpu: list[float] = []
    nodes: list[int] = []
    values: list[int] = []
    for st in states:
        solver = Solver(method)  # type: ignore[arg-type]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--method", default="auto", choices=("auto", "numba", "python", "engine"))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run(args.deals, args.seed, args.method)
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"solver benchmark: {args.deals} full deals, trump shown, value of every first card "
        f"(method {result['method']}, seed {args.seed})"
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
