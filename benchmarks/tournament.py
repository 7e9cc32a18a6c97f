"""Tournaments: how long pairing a Swiss round takes (the maximum-weight matching) and how long a
whole event of bots takes on one process.

Pairing: fields of 16, 64 and 128 teams, a Swiss of as many rounds as the field allows (at most 8),
random results; the time of each round's ``swiss_pairing`` (CPU, this thread), the worst round
reported. Event: a 16-team Swiss of 4 rounds of one-deal matches played by random bots at once
(``bot_delay_ms=0``, no pause between deals) on SQLite in a temporary directory, from start to
the final ranking (wall time: the tables, their bots and the owner share the process).

    uv run python benchmarks/tournament.py [--seed S] [--no-event] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from twentynine.server.tournaments.pairing import swiss_max_rounds, swiss_pairing


def pairing_times(teams: int, rng: random.Random) -> dict[str, Any]:
    entries = list(range(1, teams + 1))
    points = dict.fromkeys(entries, 0.0)
    played: set[frozenset[int]] = set()
    had_bye: set[int] = set()
    times = []
    for _ in range(min(8, swiss_max_rounds(teams))):
        ranked = sorted(entries, key=lambda e: (-points[e], e))
        start = time.thread_time()
        pairing = swiss_pairing(ranked, dict(points), played, had_bye)
        times.append((time.thread_time() - start) * 1000)
        for a, b in pairing.matches:
            played.add(frozenset((a, b)))
            won = rng.choice((1.0, 0.5, 0.0))
            points[a] += won
            points[b] += 1 - won
    return {"teams": teams, "rounds": len(times), "worst_ms": max(times),
            "mean_ms": sum(times) / len(times)}  # fmt: skip


async def whole_event() -> dict[str, Any]:
    from asgi_lifespan import LifespanManager

    from tests.server.conftest import sign_in
    from twentynine.server.app import create_app
    from twentynine.server.settings import Settings

    with tempfile.TemporaryDirectory() as d:
        settings = Settings(
            data_dir=Path(d), database_url=f"sqlite+aiosqlite:///{d}/b.db", secret_key="bench",
            dev_mode=True, bot_delay_ms=0, next_deal_seconds=0.0,
            extra={"tournament_poll_seconds": 0.2},
        )  # fmt: skip
        app = create_app(settings)
        async with LifespanManager(app):
            org = await sign_in(app, "org@example.com", "Org")
            body = {"name": "Bench", "format": "swiss", "rounds": 4, "match_deals": 1}
            tid = (await org.post("/api/tournaments", json=body)).json()["id"]
            await org.post(f"/api/tournaments/{tid}/bots", json={"teams": 16, "level": "random"})
            start = time.perf_counter()
            await org.post(f"/api/tournaments/{tid}/start")
            while (await org.get(f"/api/tournaments/{tid}")).json()["status"] != "finished":
                await asyncio.sleep(0.05)
            seconds = time.perf_counter() - start
    return {"event": "16-team Swiss, 4 rounds, one-deal matches, random bots", "seconds": seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-event", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    out: dict[str, Any] = {"pairing": [pairing_times(n, rng) for n in (16, 64, 128)]}
    if not args.no_event:
        out["event"] = asyncio.run(whole_event())
    if args.json:
        print(json.dumps(out, indent=1))
        return
    for p in out["pairing"]:
        print(f"Swiss pairing, {p['teams']} teams, {p['rounds']} rounds: "
              f"mean {p['mean_ms']:.1f} ms, worst {p['worst_ms']:.1f} ms a round")  # fmt: skip
    if "event" in out:
        print(f"{out['event']['event']}: {out['event']['seconds']:.2f} s from start to ranking")


if __name__ == "__main__":
    main()
