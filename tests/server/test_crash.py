"""Crash recovery with real processes: start, play, kill -9, restart (or fail over to another
process), and finish the game from the last acknowledged action."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import httpx2

from .conftest import (
    Client,
    LiveServer,
    two_server_processes,
)
from .procs import ServerProcess, free_port
from .tables.wsclient import TableSocket, play_until, unexpected_errors


class Remote(LiveServer):
    """A LiveServer-like handle on a server in another process (codes from its dev outbox)."""

    def __init__(self, url: str) -> None:
        super().__init__(None, url)  # type: ignore[arg-type]

    async def sign_in(self, email: str, first_name: str = "Player") -> Client:
        c = self.client()
        r = await c.post("/api/auth/email", json={"email": email, "first_name": first_name})
        assert r.status_code == 202, r.text
        outbox = (await c.get("/dev/outbox")).json()
        body = next(m["body"] for m in outbox if m["to"] == email)
        code = re.search(r"code is (\d{6})", body)
        assert code
        r = await c.post("/api/auth/code", json={"email": email, "code": code.group(1)})
        assert r.status_code == 200, r.text
        return c


def deals(sock: TableSocket) -> int:
    st = sock.state
    return int(st["table"]["game"]["deals"]) if st and st["table"]["game"] else 0


async def solo_game(server: Remote) -> tuple[Client, str, TableSocket]:
    me = await server.sign_in("crash@example.com", "Crash")
    r = await me.post(
        "/api/tables",
        json={"kind": "solo", "seats": ["me", "bot:random", "bot:random", "bot:random"]},
    )
    assert r.status_code == 201, r.text
    table_id = r.json()["id"]
    return me, table_id, await TableSocket(server, me, table_id).connect()


async def play_some(sock: TableSocket, moves: int) -> None:
    start = sock.version
    await play_until([sock], lambda: sock.version >= start + moves, timeout=60)


async def reconnect(server: Remote, me: Client, table_id: str, last: int) -> TableSocket:
    for _ in range(100):
        try:
            return await TableSocket(server, me, table_id).connect(last_version=last)
        except Exception:  # the server may still be coming up
            await asyncio.sleep(0.2)
    raise AssertionError("could not reconnect")


def _history(sock: TableSocket) -> list[Any]:
    return [
        (e["seat"], e.get("card"))
        for m in sock.messages
        if m["type"] == "state"
        for e in m["events"]
        if e["type"] == "card_played"
    ]


async def test_sqlite_server_killed_and_restarted(tmp_path: Path) -> None:
    port = free_port()
    server = ServerProcess(tmp_path, port).start()
    try:
        remote = Remote(server.url)
        me, table_id, sock = await solo_game(remote)
        await play_some(sock, 8)
        acknowledged = sock.version
        view_before = sock.view
        server.kill9()
        server.start()  # the same data folder and port
        again = await reconnect(remote, me, table_id, acknowledged)
        assert again.version >= acknowledged
        if again.version == acknowledged:  # nothing moved on: the very same position
            assert again.view["hands"] == view_before["hands"]
            assert again.view["calls"] == view_before["calls"]
        target = deals(again) + 1
        await play_until([again], lambda: deals(again) >= target, timeout=90)
        assert unexpected_errors(again) == []
        await again.close()
        me2 = httpx2.AsyncClient(base_url=server.url, cookies=me.cookies)
        history = (await me2.get("/api/history/deals")).json()
        assert history, "the finished deal was stored"
    finally:
        server.stop()


async def test_postgres_redis_fail_over_to_the_other_process(tmp_path: Path) -> None:
    async with two_server_processes(tmp_path) as (one, two):
        remote_one, remote_two = Remote(one.url), Remote(two.url)
        me, table_id, sock = await solo_game(remote_one)
        await play_some(sock, 8)
        acknowledged = sock.version
        one.kill9()
        me_two = remote_two.same_person(me)
        again = await reconnect(remote_two, me_two, table_id, acknowledged)
        assert again.version >= acknowledged
        target = deals(again) + 1
        # the bots' turns resume once the other process takes over the table's lease
        await play_until([again], lambda: deals(again) >= target, timeout=120)
        assert unexpected_errors(again) == []
        await again.close()


async def test_a_seat_whose_process_died_is_drawn_as_away_on_the_other(tmp_path: Path) -> None:
    """Bo's page is on process two, Ana's on one. Process two dies (kill -9) and tells
    nobody: Ana's page still draws Bo as away once two's word in Redis lapses."""
    async with two_server_processes(tmp_path) as (one, two):
        remote_one, remote_two = Remote(one.url), Remote(two.url)
        ana = await remote_one.sign_in("ana@example.com", "Ana")
        bo = remote_two.same_person(await remote_one.sign_in("bo@example.com", "Bo"))
        r = await ana.post(
            "/api/tables", json={"kind": "public", "seats": ["me", "open", "open", "open"]}
        )
        assert r.status_code == 201, r.text
        table_id = r.json()["id"]
        r = await bo.post(f"/api/tables/{table_id}/join", json={"seat": 1})
        assert r.status_code == 200, r.text

        def bo_here(sock: TableSocket) -> bool:
            return bool(sock.state and sock.state["table"]["seats"][1]["connected"])

        ana_page = await TableSocket(remote_one, ana, table_id).connect()
        await TableSocket(remote_two, bo, table_id).connect()
        await ana_page.wait_for(lambda st: bo_here(ana_page), timeout=5)
        two.kill9()
        # the word lapses within PRESENCE_TTL (15 s); process one looks again every ~6 s
        await ana_page.wait_for(lambda st: not bo_here(ana_page), timeout=40)
        told = [e["type"] for m in ana_page.messages if m["type"] == "state" for e in m["events"]]
        assert "seat_gone" in told
        await ana_page.close()


async def test_a_player_whose_process_died_mid_game_is_counted_away(tmp_path: Path) -> None:
    """In a game under way, Bo's only page is on process two, which dies (kill -9) and tells
    nobody: once its word lapses the table counts Bo away (the countdown to a bot taking his
    seat starts, as when a page closes), instead of waiting for him for good."""
    async with two_server_processes(tmp_path) as (one, two):
        remote_one, remote_two = Remote(one.url), Remote(two.url)
        ana = await remote_one.sign_in("ana@example.com", "Ana")
        bo = remote_two.same_person(await remote_one.sign_in("bo@example.com", "Bo"))
        seats = ["me", "open", "bot:random", "bot:random"]
        r = await ana.post("/api/tables", json={"kind": "public", "seats": seats})
        assert r.status_code == 201, r.text
        table_id = r.json()["id"]
        ana_page = await TableSocket(remote_one, ana, table_id).connect()
        r = await bo.post(f"/api/tables/{table_id}/join", json={"seat": 1})
        assert r.status_code == 200, r.text
        await TableSocket(remote_two, bo, table_id).connect()

        def bo_seat(st: dict[str, Any]) -> dict[str, Any]:
            return dict(st["table"]["seats"][1])

        await ana_page.wait_for(
            lambda st: st["table"]["status"] == "playing" and bo_seat(st)["connected"], timeout=10
        )
        assert bo_seat(ana_page.state)["takeover_at"] is None
        two.kill9()
        # the word lapses within PRESENCE_TTL (15 s); process one looks again every ~6 s
        await ana_page.wait_for(lambda st: bo_seat(st)["takeover_at"] is not None, timeout=45)
        told = [e for m in ana_page.messages if m["type"] == "state" for e in m["events"]]
        assert {"type": "seat_away", "seat": 1, "seconds": 60} in told
        await ana_page.close()
