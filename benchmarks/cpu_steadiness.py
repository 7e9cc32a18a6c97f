"""How steady this machine's CPU is: a fixed piece of work (a loop of additions) done once a
millisecond for a while, on this process's core, each timed in this thread's CPU; then the
windows of 100 ms whose pieces took on average ``--factor`` times the median or more.

A virtual machine's CPU can run slower for a moment without the guest seeing it as stolen time
(``steal`` in ``/proc/stat`` stays flat): the work just costs more CPU. On the machine of the
thirty-first session such windows came every 1.4–1.6 s, each 100–300 ms of work at 2–6 times
its cost, on a quiet machine as under load; every server running then is slowed alike, and the
one nearer a full core falls behind (``benchmarks/load.py``'s bad seconds).

    uv run python benchmarks/cpu_steadiness.py [--seconds S] [--factor F] [--json]
    (pin it with ``taskset -c N`` to watch one core)
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import time
from collections import defaultdict
from typing import Any


def piece(n: int = 400) -> int:
    """The fixed work: ``n`` additions."""
    total = 0
    for i in range(n):
        total += i
    return total


def sample(seconds: float, every: float = 0.001) -> list[tuple[float, float]]:
    """(seconds since the start, the piece's CPU seconds), one a ``every`` seconds."""
    rows = []
    start = time.perf_counter()
    while (now := time.perf_counter()) - start < seconds:
        c0 = time.thread_time()
        piece()
        rows.append((now - start, time.thread_time() - c0))
        time.sleep(every)
    return rows


def slow_windows(
    rows: list[tuple[float, float]], window: float = 0.1, factor: float = 1.5
) -> list[tuple[float, float]]:
    """The windows of ``window`` seconds whose pieces cost on average ``factor`` times the
    median piece or more: (the window's start, its mean over the median), in time order."""
    if not rows:
        return []
    median = statistics.median(cpu for _, cpu in rows)
    if median <= 0:
        return []
    by_window: dict[int, list[float]] = defaultdict(list)
    for t, cpu in rows:
        by_window[int(t / window + 1e-9)].append(cpu)  # (0.3 / 0.1 is 2.999…)
    out = []
    for k in sorted(by_window):
        ratio = statistics.mean(by_window[k]) / median
        if ratio >= factor:
            out.append((round(k * window, 3), round(ratio, 2)))
    return out


def episodes(windows: list[tuple[float, float]], window: float = 0.1) -> list[float]:
    """The start of each run of slow windows (windows at most one apart count as one run)."""
    starts: list[float] = []
    last = None
    for t, _ in windows:
        if last is None or t - last > 2 * window + 1e-9:
            starts.append(t)
        last = t
    return starts


def measure(seconds: float, factor: float = 1.5) -> dict[str, Any]:
    """Sample for ``seconds`` and sum it up (``benchmarks/load.py`` takes it before a run)."""
    rows = sample(seconds)
    slow = slow_windows(rows, factor=factor)
    runs = episodes(slow)
    gaps = [b - a for a, b in itertools.pairwise(runs)]
    return {
        "seconds": seconds,
        "factor": factor,
        "pieces": len(rows),
        "piece_cpu_us_median": round(statistics.median(c for _, c in rows) * 1e6, 1),
        "slow_windows": len(slow),
        "slow_window_share": round(len(slow) / max(1.0, seconds / 0.1), 3),
        "worst_ratio": max((r for _, r in slow), default=None),
        "episodes": len(runs),
        "episode_gap_s_median": round(statistics.median(gaps), 2) if gaps else None,
        "cpus": sorted(os.sched_getaffinity(0)),
        "windows": slow,
    }


def describe(out: dict[str, Any], seconds: float, factor: float) -> str:
    """``measure``'s result in one line; a steady run says so instead of a worst and a gap."""
    line = (
        f"{out['pieces']} pieces over {seconds:.0f} s on CPUs {out['cpus']}: median "
        f"{out['piece_cpu_us_median']} us of CPU; {out['slow_windows']} windows of 100 ms at "
        f">= {factor}x it ({out['slow_window_share']:.1%} of the time"
    )
    if not out["slow_windows"]:
        return line + "): steady throughout"
    line += f", worst {out['worst_ratio']}x), in {out['episodes']} episodes"
    gap = out["episode_gap_s_median"]
    return line + ("" if gap is None else f", a median {gap} s apart")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--factor", type=float, default=1.5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out = measure(args.seconds, args.factor)
    if args.json:
        print(json.dumps(out))
        return
    print(describe(out, args.seconds, args.factor))
    for t, ratio in out["windows"]:
        print(f"  {t:7.1f} s  {ratio:.1f}x")


if __name__ == "__main__":
    main()
