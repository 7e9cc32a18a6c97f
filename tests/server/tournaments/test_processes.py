"""A tournament on two real server processes (PostgreSQL + Redis): it is created through one,
started through the other, both run an owner, and one of them is killed (kill -9) in the middle;
the other carries on and the event finishes with every round paired once and no repeat."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest_asyncio

from ..conftest import two_server_processes
from ..procs import ServerProcess
from ..test_crash import Remote


@pytest_asyncio.fixture
async def two_servers(tmp_path: Path) -> AsyncIterator[tuple[ServerProcess, ServerProcess]]:
    async with two_server_processes(tmp_path) as servers:
        yield servers


async def until(client: Any, tid: int, done: Any, seconds: float) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        doc: dict[str, Any] = (await client.get(f"/api/tournaments/{tid}")).json()
        if done(doc):
            return doc
        assert time.monotonic() < deadline, (doc["status"], doc["current_round"])
        await asyncio.sleep(0.3)


async def test_two_processes_one_killed_in_the_middle(
    two_servers: tuple[ServerProcess, ServerProcess],
) -> None:
    one, two = two_servers
    organiser = await Remote(one.url).sign_in("org@example.com", "Org")
    body = {"name": "Two towns", "format": "swiss", "rounds": 4, "match_deals": 1,
            "grace_seconds": 1, "max_teams": 10}  # fmt: skip
    tid = (await organiser.post("/api/tournaments", json=body)).json()["id"]
    r = await organiser.post(f"/api/tournaments/{tid}/bots", json={"teams": 10, "level": "random"})
    assert r.status_code == 201, r.text
    on_two = await Remote(two.url).sign_in("org@example.com", "Org")
    r = await on_two.post(f"/api/tournaments/{tid}/start")
    assert r.status_code == 200, r.text
    await until(on_two, tid, lambda d: d["current_round"] >= 2, 90)
    one.kill9()  # whichever process led the tournament (or its tables), one of them is gone
    doc = await until(on_two, tid, lambda d: d["status"] == "finished", 120)
    assert [r["number"] for r in doc["rounds"]] == [1, 2, 3, 4]
    matches = [m for r in doc["rounds"] for m in r["matches"]]
    assert len(matches) == 20 and all(m["status"] == "done" for m in matches)
    met = Counter(frozenset((m["a"], m["b"])) for m in matches)
    assert max(met.values()) == 1
    assert sum(s["points"] for s in doc["standings"]) == 20
