"""The rated queue and the pages of the site: a waiting person who closes every page (the tab,
the browser) has left, and is neither seated (a bot would keep the seat, and they would lose)
nor kept waiting; one whose page reloads keeps their place."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from twentynine.server.matchmaking import runner

from ..conftest import Client, LiveServer
from ..live.meclient import MeSocket


async def until(check: Callable[[], Awaitable[bool]], timeout: float = 15) -> None:
    async def wait() -> None:
        while not await check():
            await asyncio.sleep(0.1)

    await asyncio.wait_for(wait(), timeout)


async def status(c: Client) -> Any:
    r = await c.get("/api/matchmaking")
    assert r.status_code == 200, r.text
    return r.json()


async def test_closing_every_page_leaves_the_queue_and_a_reload_does_not(
    live: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runner, "AWAY_GRACE_S", 1.0)
    names = ["Ana", "Bo", "Cy", "Dee", "Eve"]
    ana, bo, cy, dee, eve = [await live.sign_in(f"{n.lower()}@example.com", n) for n in names]
    ids = {n: int((await c.get("/api/me")).json()["id"]) for n, c in (("Ana", ana), ("Bo", bo))}
    matchmaker = live.app.state.matchmaker
    ana_page = await MeSocket(live, ana).connect()
    bo_page = await MeSocket(live, bo).connect()
    for c in (ana, bo):
        assert (await c.post("/api/matchmaking/queue")).status_code == 200

    async def both_seen() -> bool:
        return {ids["Ana"], ids["Bo"]} <= matchmaker.seen

    await until(both_seen)  # a pass saw their pages open
    await ana_page.close()  # Ana closes the tab
    await bo_page.close()  # Bo reloads the page: it comes back at once
    bo_page = await MeSocket(live, bo).connect()
    for c in (cy, dee):  # (over HTTP only: never seen with a page, they wait as ever)
        assert (await c.post("/api/matchmaking/queue")).status_code == 200
    assert (await status(cy))["table_id"] is None  # four wait, but Ana is not seated

    async def ana_gone() -> bool:
        return (await status(ana))["queued"] is False

    await until(ana_gone)
    assert (await status(ana))["table_id"] is None
    assert (await status(bo))["queued"] is True  # the reload kept Bo's place
    assert (await status(cy))["waiting"] == 3
    r = await eve.post("/api/matchmaking/queue")
    assert r.status_code == 200 and r.json()["table_id"] is not None
    table_id = r.json()["table_id"]
    for c in (bo, cy, dee):
        assert (await status(c))["table_id"] == table_id
    await bo_page.close()
