"""How late an event loop runs while bots think in worker threads of the same process.

The server runs every bot's decision in a worker thread (``asyncio.to_thread`` in
``server/tables/bot_moves.py``) beside the event loop that serves every socket. This script
does the same on a small scale: ``--tables`` worker threads each play deal after deal with four
bots of ``--level`` (the arena's ``Table``), and the main thread's event loop sleeps 1 ms over
and over, noting how much later than asked each sleep ends. A loop that is held up while a bot
thinks is a table, a lobby and a live channel that answer late for everyone on the process.

Printed: the loop's lateness (p50, p99, p99.9, max, in ms), the bots' decisions a second, and
the Python and the solver's method. numba compiles (or loads its cache) before timing starts, and
the start-up heap is moved out of the collector's sight with the server's thresholds, as the
server does (``server/heap.py``; its paced passes, driven by the tables' traffic, are not run).

    uv run python benchmarks/bot_loop.py [--tables N] [--seconds S] [--level L] [--seed S]
        [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import random
import threading
import time

from twentynine.arena import SideStats, Table, quantile
from twentynine.bots import make_bot
from twentynine.bots.solver import resolve_method, warm_up
from twentynine.engine.rules import preset
from twentynine.engine.shuffle import uniform_deck
from twentynine.server.heap import settle_the_heap
from twentynine.server.settings import Settings


def _play(table: Table, seed: int, stop: threading.Event) -> None:
    rng = random.Random(seed)
    deal = 0
    while not stop.is_set():
        table.play(list(uniform_deck(rng)), deal % 4)
        deal += 1


async def _measure(seconds: float) -> list[float]:
    late: list[float] = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        t0 = time.perf_counter()
        await asyncio.sleep(0.001)
        late.append((time.perf_counter() - t0 - 0.001) * 1000)
    return late


def run(tables: int, seconds: float, level: str, seed: int) -> dict[str, object]:
    warm_up()
    settle_the_heap(Settings().gc_thresholds)  # as the server does once it has started
    rules = preset("standard")
    stop = threading.Event()
    boards = []
    threads = []
    for t in range(tables):
        players = [make_bot(level, seed + 4 * t + s) for s in range(4)]
        board = Table(rules, players, (SideStats("a"), SideStats("b")))
        boards.append(board)
        threads.append(threading.Thread(target=_play, args=(board, seed + t, stop), daemon=True))
    for th in threads:
        th.start()
    time.sleep(1.0)  # every table past its first decision
    before = sum(len(s.times) for b in boards for s in b.sides)
    late = sorted(asyncio.run(_measure(seconds)))
    decisions = sum(len(s.times) for b in boards for s in b.sides) - before
    stop.set()
    for th in threads:
        th.join()
    return {
        "tables": tables,
        "level": level,
        "seconds": seconds,
        "ticks": len(late),
        "late_ms_p50": round(quantile(late, 0.5), 2),
        "late_ms_p99": round(quantile(late, 0.99), 2),
        "late_ms_p999": round(quantile(late, 0.999), 2),
        "late_ms_max": round(late[-1], 2),
        "decisions_per_s": round(decisions / seconds, 1),
        "solver": resolve_method("auto"),
        "python": platform.python_version(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--tables", type=int, default=1, help="worker threads, four bots each")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long the loop is timed")
    parser.add_argument("--level", default="expert", help="the bots' level")
    parser.add_argument("--seed", type=int, default=1, help="the decks' and the bots' seed")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    out = run(args.tables, args.seconds, args.level, args.seed)
    if args.json:
        print(json.dumps(out))
        return
    late = ", ".join(
        f"{name} {out[key]} ms"
        for name, key in (
            ("p50", "late_ms_p50"),
            ("p99", "late_ms_p99"),
            ("p99.9", "late_ms_p999"),
            ("max", "late_ms_max"),
        )
    )
    print(
        f"event loop beside {out['tables']} table(s) of {out['level']} bots, "
        f"{out['seconds']:g} s ({out['ticks']} sleeps of 1 ms): late {late}; "
        f"{out['decisions_per_s']} bot decisions a second ({out['solver']}, Python {out['python']})"
    )


if __name__ == "__main__":
    main()
