"""One table action's work in the server process, without the network or the database.

A table runtime (``twentynine.server.tables.runtime``) with four seated players, each with a
connection whose synchronous writer encodes the message as the socket would and drops it; a
store that keeps nothing. Each action: the first legal action of the seat to act, through
``TableRuntime.act`` (the table's queue, the engine, the snapshot, four views, four encoded
messages). Measured in this thread's CPU time, so other processes on the machine move it less
than they move ``benchmarks/load.py``; the figure is the least of ``--repeats`` runs.

What it leaves out, and ``load.py`` has: reading the frame, the SQLite write, the socket writes.

    uv run python benchmarks/table_action.py [--actions N] [--repeats R] [--turn-seconds S] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from twentynine.engine.records import RulesSpec
from twentynine.engine.round import to_act
from twentynine.engine.views import view
from twentynine.server.settings import Settings
from twentynine.server.tables.connection import Message, encoded
from twentynine.server.tables.runtime import Connection, Seat, TableInfo, TableRuntime


class _NoStore:
    """Keeps nothing: the database's share is in load.py's figures, not here."""

    async def load(self, table_id: str) -> None:
        return None

    async def save(self, *args: Any) -> None:
        return None

    async def add_deal(self, *args: Any, **kwargs: Any) -> None:
        return None

    async def names(self, *args: Any, **kwargs: Any) -> dict[int, str]:
        return {}


def seated_table(
    seed: int, write: Callable[[Message], bool], turn_seconds: int = 0
) -> tuple[TableRuntime, list[Connection]]:
    """A table runtime with four seated players, each with a connection whose synchronous
    writer is ``write``, and a store that keeps nothing; not started."""
    info = TableInfo("bench", "public", None, RulesSpec("standard", {}), turn_seconds=turn_seconds)
    seats = [Seat(user_id=i + 1, name=f"P{i + 1}", joined=True) for i in range(4)]
    settings = Settings(next_deal_seconds=0.0)
    runtime = TableRuntime(info, seats, _NoStore(), settings, rng=random.Random(seed))  # type: ignore[arg-type]

    async def send(message: Message) -> None:
        write(message)

    conns = []
    for i in range(4):
        conn = Connection(i + 1, f"P{i + 1}", i, send)
        conn.send_now = write
        conn.open()
        runtime.conns.add(conn)
        conns.append(conn)
    return runtime, conns


async def play(runtime: TableRuntime, conns: list[Connection], actions: int) -> float:
    """Start the game and play ``actions`` actions, each the first legal action of the seat to
    act, through ``TableRuntime.act``; the CPU seconds spent in ``act``. Stops the runtime."""
    runtime.start()
    await runtime.submit(runtime.start_game)
    cpu = 0.0
    done = 0
    try:
        while done < actions:
            game = runtime.game
            if game is None or game.round.is_over:  # the next deal comes on a timer
                await asyncio.sleep(0.001)
                continue
            seat = to_act(game.round)[0]
            action = view(game.round, seat).legal[0]
            message = {"type": "act", **action.to_json(), "version": runtime.version}
            t0 = time.thread_time()
            await runtime.act(conns[seat], message)
            cpu += time.thread_time() - t0
            done += 1
    finally:
        await runtime.stop()
    return cpu


async def _run(actions: int, seed: int, turn_seconds: int = 0) -> tuple[float, int]:
    """(CPU seconds in ``act`` for ``actions`` actions, messages encoded)."""
    written = [0]

    def write(message: Message) -> bool:
        encoded(message)
        written[0] += 1
        return True

    runtime, conns = seated_table(seed, write, turn_seconds)
    return await play(runtime, conns, actions), written[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--actions", type=int, default=8000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--turn-seconds", type=int, default=0, help="the table's turn clock (0: none)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    runs = [
        asyncio.run(_run(args.actions, args.seed, args.turn_seconds))
        for _ in range(max(1, args.repeats))
    ]
    per_action = [cpu / args.actions * 1e6 for cpu, _ in runs]
    out = {
        "actions": args.actions,
        "repeats": len(runs),
        "us_per_action_best": round(min(per_action), 1),
        "us_per_action_median": round(statistics.median(per_action), 1),
        "messages_per_action": round(runs[0][1] / args.actions, 2),
        "turn_seconds": args.turn_seconds,
        "python": platform.python_version(),
    }
    if args.json:
        print(json.dumps(out))
        return
    print(
        f"table action in process ({args.actions} actions, {len(runs)} runs"
        f"{f', a {args.turn_seconds} s turn clock' if args.turn_seconds else ''}): "
        f"best {out['us_per_action_best']} us, median {out['us_per_action_median']} us CPU "
        f"({out['messages_per_action']} messages an action)"
    )


if __name__ == "__main__":
    main()
