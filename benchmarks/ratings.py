"""What rated play costs the server: rating one game (openskill's arithmetic, and the whole
database transaction on SQLite), a leaderboard request's queries with many rated players, and
one matching pass's pairing of a long queue.

    uv run python benchmarks/ratings.py [--players N] [--games G] [--waiting W] [--json]

Each figure is the median of its runs (and the best), in milliseconds of wall time on this
machine; the database is a fresh SQLite file in a temporary directory.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from twentynine.server import migrate
from twentynine.server.accounts.models import User
from twentynine.server.db import make_engine, make_sessionmaker, utcnow
from twentynine.server.matchmaking.pairing import Waiting, tables
from twentynine.server.ratings.calc import NEW, Skill, rate
from twentynine.server.ratings.models import PlayerRating
from twentynine.server.ratings.service import leaderboard, rate_game


def timed(runs: list[float]) -> dict[str, float]:
    return {"median_ms": statistics.median(runs) * 1000, "best_ms": min(runs) * 1000}


async def measure(players: int, games: int, waiting: int) -> dict[str, Any]:
    rng = random.Random(1)
    out: dict[str, Any] = {}

    runs = []
    skills = {s: Skill(25 + rng.uniform(-5, 5), rng.uniform(1, 8)) for s in range(4)}
    for _ in range(2000):
        start = time.perf_counter()
        rate(skills, rng.randrange(2), frozenset({rng.randrange(4)}))
        runs.append(time.perf_counter() - start)
    out["openskill_rate_one_game"] = timed(runs)

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}"
        await asyncio.to_thread(migrate.upgrade, url)
        engine = make_engine(url)
        maker = make_sessionmaker(engine)
        async with maker() as db:
            users = [User(email=f"p{i}@example.com", first_name=f"P{i}") for i in range(players)]
            db.add_all(users)
            await db.flush()
            ids = [u.id for u in users]
            for uid in ids:
                sk = Skill(25 + rng.gauss(0, 4), rng.uniform(1.5, 8))
                db.add(
                    PlayerRating(
                        user_id=uid,
                        mu=sk.mu,
                        sigma=sk.sigma,
                        rating=sk.rating,
                        games=rng.randrange(0, 40),
                        last_game_at=utcnow() - dt.timedelta(days=rng.randrange(0, 200)),
                    )
                )
            await db.commit()
        runs = []
        for g in range(games):
            four = rng.sample(ids, 4)
            async with maker() as db:
                start = time.perf_counter()
                assert await rate_game(db, f"bench{g}", 1, four, rng.randrange(2))
                runs.append(time.perf_counter() - start)
        out["rate_game_sqlite"] = timed(runs)
        runs = []
        for _ in range(30):
            async with maker() as db:
                start = time.perf_counter()
                board = await leaderboard(db, rng.choice(ids))
                runs.append(time.perf_counter() - start)
        out["leaderboard_sqlite"] = {**timed(runs), "ranked": len(board["players"])}
        await engine.dispose()

    queue = [Waiting(i, NEW.rating + rng.gauss(0, 150), rng.uniform(0, 30)) for i in range(waiting)]
    runs = []
    for _ in range(20):
        start = time.perf_counter()
        seated = tables(queue)
        runs.append(time.perf_counter() - start)
    out["pairing_pass"] = {**timed(runs), "waiting": waiting, "tables": len(seated)}
    out["players"], out["games"] = players, games
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--waiting", type=int, default=400)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = asyncio.run(measure(args.players, args.games, args.waiting))
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(
        f"openskill, one game rated:      {result['openskill_rate_one_game']['median_ms']:.3f} ms"
    )
    print(f"rate_game on SQLite:            {result['rate_game_sqlite']['median_ms']:.2f} ms")
    board = result["leaderboard_sqlite"]
    print(
        f"leaderboard, {args.players} players:   {board['median_ms']:.2f} ms "
        f"({board['ranked']} shown)"
    )
    p = result["pairing_pass"]
    print(
        f"pairing {p['waiting']} waiting:           {p['median_ms']:.2f} ms ({p['tables']} tables)"
    )


if __name__ == "__main__":
    main()
