"""The rated queue (issue 17): "Play rated" queues you; four waiting of close rating are seated
at a new rated table that starts at once, each told over the live channel; everyone hears how
many wait; quick join prefers unrated tables of players near your rating; across two server
processes (PostgreSQL + Redis) the queue is one."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import FastAPI

from twentynine.server.db import utcnow
from twentynine.server.ratings.models import PlayerRating

from ..conftest import Client, LiveServer, client_for, drain, sign_in, unnumbered
from ..live.meclient import MeSocket


async def my_id(c: Client) -> int:
    return int((await c.get("/api/me")).json()["id"])


async def test_four_in_the_queue_are_seated_at_a_rated_table(app: FastAPI) -> None:
    players = [await sign_in(app, f"p{i}@example.com", f"P{i}") for i in range(4)]
    ids = [await my_id(p) for p in players]
    watcher = await sign_in(app, "watcher@example.com", "Watcher")
    heard = app.state.live.subscribe(await my_id(watcher))

    r = await players[0].post("/api/matchmaking/queue")
    assert r.status_code == 200, r.text
    assert r.json()["queued"] is True and r.json()["waiting"] == 1
    assert r.json()["rating"] == 1000 and r.json()["band"] >= 100
    assert {"type": "rated_queue", "waiting": 1} in drain(heard)
    r = await players[0].delete("/api/matchmaking/queue")
    assert r.json()["queued"] is False and r.json()["waiting"] == 0
    assert {"type": "rated_queue", "waiting": 0} in drain(heard)

    for n, p in enumerate(players[:3]):
        r = await p.post("/api/matchmaking/queue")
        assert r.json()["waiting"] == n + 1
    assert [m["waiting"] for m in drain(heard) if m["type"] == "rated_queue"] == [1, 2, 3]
    r = await players[3].post("/api/matchmaking/queue")
    assert r.status_code == 200
    table_id = r.json()["table_id"]
    assert table_id and r.json()["queued"] is False and r.json()["waiting"] == 0
    for p in players:
        assert (await p.get("/api/matchmaking")).json()["table_id"] == table_id
    info = (await players[0].get(f"/api/tables/{table_id}")).json()
    assert info["rated"] is True and info["status"] == "playing" and info["kind"] == "public"
    assert sorted(s["user_id"] for s in info["seats"]) == sorted(ids)
    assert not any(s["bot"] for s in info["seats"])
    assert {"type": "rated_queue", "waiting": 0} in drain(heard)


def ids_at(app: FastAPI, table_id: str) -> list[int]:
    runtime = app.state.tables.tables[table_id]
    return [s.user_id for s in runtime.seats]


async def test_each_of_the_four_is_told_of_the_table(app: FastAPI) -> None:
    players = [await sign_in(app, f"p{i}@example.com", f"P{i}") for i in range(4)]
    ids = [await my_id(p) for p in players]
    told = [app.state.live.subscribe(uid) for uid in ids]
    for p in players:
        r = await p.post("/api/matchmaking/queue")
    table_id = r.json()["table_id"]
    by_seat = ids_at(app, table_id)
    for q in told:
        matched = [unnumbered(m) for m in drain(q) if m["type"] == "rated_match"]
        assert matched == [{"type": "rated_match", "table_id": table_id, "user_ids": by_seat}]


async def test_no_second_rated_game_while_one_is_under_way(app: FastAPI) -> None:
    """A player who goes back to the lobby and presses "Play rated" again would sit at two
    rated tables at once, and lose one to the bot keeping its seat."""
    players = [await sign_in(app, f"p{i}@example.com", f"P{i}") for i in range(4)]
    for p in players:
        r = await p.post("/api/matchmaking/queue")
    table_id = r.json()["table_id"]
    assert table_id
    r = await players[0].post("/api/matchmaking/queue")
    assert r.status_code == 409, r.text
    assert (await players[0].get("/api/matchmaking")).json()["queued"] is False
    # having left it (a loss), they may play again
    assert (await players[0].post(f"/api/tables/{table_id}/leave")).status_code == 200
    r = await players[0].post("/api/matchmaking/queue")
    assert r.status_code == 200 and r.json()["queued"] is True


async def test_the_queue_is_for_accounts(app: FastAPI) -> None:
    assert (await client_for(app).post("/api/matchmaking/queue")).status_code == 401
    guest = client_for(app)
    assert (await guest.post("/api/auth/guest", json={"first_name": "Visitor"})).is_success
    assert (await guest.post("/api/matchmaking/queue")).status_code == 403
    assert (await guest.get("/api/matchmaking")).status_code == 403
    me = await sign_in(app, "me@example.com", "Me")
    r = await me.delete("/api/matchmaking/queue")  # not waiting: nothing changes
    assert r.status_code == 200 and r.json()["queued"] is False and r.json()["waiting"] == 0


async def test_signing_out_leaves_the_queue(app: FastAPI) -> None:
    """Whoever signs out is not seated later at a rated table they no longer see (a bot would
    keep the seat, and they would lose)."""
    me = await sign_in(app, "me@example.com", "Me")
    other = await sign_in(app, "other@example.com", "Other")
    heard = app.state.live.subscribe(await my_id(other))
    assert (await me.post("/api/matchmaking/queue")).json()["waiting"] == 1
    assert (await me.post("/api/auth/logout")).status_code == 200
    assert (await other.get("/api/matchmaking")).json()["waiting"] == 0
    assert {"type": "rated_queue", "waiting": 0} in drain(heard)


async def set_rating(app: FastAPI, user_id: int, rating: float) -> None:
    async with app.state.sessionmaker() as db:
        db.add(
            PlayerRating(
                user_id=user_id, mu=25, sigma=3, rating=rating, games=12, last_game_at=utcnow()
            )
        )
        await db.commit()


async def open_table(c: Client, **more: Any) -> str:
    body = {"kind": "public", "seats": ["me", "open", "bot:random", "bot:random"], **more}
    r = await c.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


async def test_quick_join_prefers_tables_of_players_near_your_rating(app: FastAPI) -> None:
    weak = await sign_in(app, "weak@example.com", "Weak")
    strong = await sign_in(app, "strong@example.com", "Strong")
    me = await sign_in(app, "me@example.com", "Me")
    await set_rating(app, await my_id(weak), 900)
    await set_rating(app, await my_id(strong), 1600)
    await set_rating(app, await my_id(me), 1500)
    r = await weak.post("/api/tables", json={"kind": "public", "rated": True})
    rated = r.json()["id"]
    older = await open_table(weak)  # opened first, but far from my rating
    near = await open_table(strong)
    r = await me.post("/api/tables/quick-join")
    assert r.json() == {"table": near, "seat": 1, "created": False}
    other = await sign_in(app, "other@example.com", "Other")  # no rating: 1000, near Weak
    r = await other.post("/api/tables/quick-join")
    assert r.json()["table"] == older
    assert rated not in (near, older)  # quick join never seats anyone at a rated table


async def test_two_processes_share_one_queue(live_pair: tuple[LiveServer, LiveServer]) -> None:
    a, b = live_pair
    on_a = [await a.sign_in(f"a{i}@example.com", f"A{i}") for i in range(4)]
    made_on_b = [await a.sign_in(f"b{i}@example.com", f"B{i}") for i in range(4)]
    on_b = []
    for c in made_on_b:  # the same sessions, talking to the other process
        on_b.append(b.same_person(c))
    # live: a page on B hears the count when people queue on A; A0 (on A) hears of the table
    # that the pass on B made when B1 queued
    watcher = await MeSocket(b, on_b[3]).connect()
    told = await MeSocket(a, on_a[0]).connect()
    # two on each process, then the other four all at once on both: two tables, nobody twice
    for n, c in enumerate((on_a[0], on_a[1], on_b[0], on_b[1])):
        r = await c.post("/api/matchmaking/queue")
        assert r.status_code == 200, r.text
        if n < 3:
            await watcher.next("rated_queue", lambda m, n=n: m["waiting"] == n + 1)
    first = {(await c.get("/api/matchmaking")).json()["table_id"] for c in (on_a[0], on_b[1])}
    assert len(first) == 1 and None not in first
    matched = await told.next("rated_match")
    assert {matched["table_id"]} == first
    await watcher.next("rated_queue", lambda m: m["waiting"] == 0)
    await watcher.close()
    await told.close()
    rest = [on_a[2], on_a[3], on_b[2], on_b[3]]
    await asyncio.gather(*(c.post("/api/matchmaking/queue") for c in rest))
    for _ in range(50):  # the pass that seats them may run on either process
        tables = {(await c.get("/api/matchmaking")).json()["table_id"] for c in rest}
        if None not in tables:
            break
        await asyncio.sleep(0.2)
    assert len(tables) == 1 and None not in tables and tables != first
    for table_id, group in (
        (first.pop(), (on_a[0], on_a[1], on_b[0], on_b[1])),
        (tables.pop(), rest),
    ):
        ids = sorted([int((await c.get("/api/me")).json()["id"]) for c in group])
        for server in (a, b):  # either process serves the table, seating the four
            c = server.client()
            c.cookies.update(group[0].cookies)
            for _ in range(50):  # the pass seats them, then starts the game: it may be a moment
                info = (await c.get(f"/api/tables/{table_id}")).json()
                if info["status"] != "waiting":
                    break
                await asyncio.sleep(0.2)
            assert info["rated"] and info["status"] == "playing"
            assert sorted(s["user_id"] for s in info["seats"]) == ids
