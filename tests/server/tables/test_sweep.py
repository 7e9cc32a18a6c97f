"""A closed table is let go of (stopped, out of the process's memory) once no page here shows
it: a table closes in many ways (its last person leaves, its match is decided), and only the
host's and an admin's closing let go of it at once. Nothing but the sockets already open on it
reaches a closed table, and what it answers stays the same."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Coroutine
from typing import Any

import pytest

from twentynine.server.tables import manager as manager_module

from ..conftest import LiveServer
from .wsclient import TableSocket


async def on_server(live: LiveServer, work: Coroutine[Any, Any, Any]) -> Any:
    """Run ``work`` on the server's own event loop."""
    done = asyncio.run_coroutine_threadsafe(work, live.app.state.live.loop)
    return await asyncio.wrap_future(done)


async def test_a_closed_table_is_let_go_of_once_no_page_shows_it(
    live: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(manager_module, "CLOSED_KEPT_S", 0.0)
    tables = live.app.state.tables
    ana = await live.sign_in("ana@example.com", "Ana")
    r = await ana.post(
        "/api/tables", json={"kind": "public", "seats": ["me", "open", "open", "open"]}
    )
    assert r.status_code == 201, r.text
    table_id = r.json()["id"]
    sock = await TableSocket(live, ana, table_id).connect()
    assert (await ana.post(f"/api/tables/{table_id}/leave")).status_code == 200
    await sock.wait_for(lambda st: st["table"]["status"] == "closed")  # the last person left
    answer = await ana.get(f"/api/tables/{table_id}")
    runtime = tables.tables[table_id]
    await on_server(live, tables.let_go_of_closed())
    assert tables.tables.get(table_id) is runtime  # a page still shows it
    await sock.close()

    async def unseen() -> None:
        while runtime.conns:
            await asyncio.sleep(0.05)

    await asyncio.wait_for(unseen(), 5)
    await on_server(live, tables.let_go_of_closed())
    assert table_id not in tables.tables
    assert runtime.worker is not None and runtime.worker.done()  # stopped
    again = await ana.get(f"/api/tables/{table_id}")
    assert (again.status_code, again.json()) == (answer.status_code, answer.json())
    assert table_id not in tables.tables  # asking did not bring it back for good

    # an open table is kept, however long nobody looks at it
    r = await ana.post(
        "/api/tables", json={"kind": "public", "seats": ["me", "open", "open", "open"]}
    )
    open_id = r.json()["id"]
    await on_server(live, tables.let_go_of_closed())
    assert open_id in tables.tables


async def test_a_public_table_left_waiting_with_no_page_on_it_closes(
    live: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ana opens a public table and goes away without leaving: once it has been quiet for the
    set time and no page shows it, it closes and leaves the lobby (the lobby's pages are told).
    A table someone has open, one under way and one changed lately stay."""
    from ..live.meclient import MeSocket

    tables = live.app.state.tables
    ana = await live.sign_in("ana@example.com", "Ana")
    bo = await live.sign_in("bo@example.com", "Bo")

    async def public(seats: list[str]) -> str:
        r = await ana.post("/api/tables", json={"kind": "public", "seats": seats})
        assert r.status_code == 201, r.text
        return str(r.json()["id"])

    left = await public(["me", "open", "open", "open"])
    shown = await public(["me", "open", "open", "open"])
    playing = await public(["me", "bot:random", "bot:random", "bot:random"])
    sock = await TableSocket(live, ana, shown).connect()
    lobby_page = await MeSocket(live, bo).connect()
    await lobby_page.send({"type": "watch", "lobby": True})
    await lobby_page.send({"type": "ping"})
    await lobby_page.next("pong", timeout=2)

    assert await on_server(live, tables.close_abandoned()) == []  # changed lately: kept
    monkeypatch.setattr(
        tables, "settings", dataclasses.replace(tables.settings, abandoned_table_minutes=0.0)
    )
    assert await on_server(live, tables.close_abandoned()) == [left]
    told = await lobby_page.next("table_changed", lambda m: m["table_id"] == left, 2)
    assert told["change"] == "closed" and told["status"] == "closed"
    listed = {t["id"] for t in (await bo.get("/api/tables")).json()}
    assert left not in listed and shown in listed
    assert (await ana.get(f"/api/tables/{playing}")).json()["status"] == "playing"
    assert await on_server(live, tables.close_abandoned()) == []  # nothing more to close
    # the page shown closes: that table goes too
    await sock.close()
    runtime = tables.tables[shown]

    async def unseen() -> None:
        while runtime.conns:
            await asyncio.sleep(0.05)

    await asyncio.wait_for(unseen(), 5)
    assert await on_server(live, tables.close_abandoned()) == [shown]
    await lobby_page.close()
