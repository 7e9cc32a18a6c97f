"""What the tables tell pages away from the table: ``table_invite`` when a host seats you,
``table_changed`` to those who may join or watch (and to everyone for a public table),
``your_turn`` when the table's page is not open, and presence at a table / playing."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from twentynine.server.live.presence import GRACE_S

from ..conftest import Client, LiveServer
from ..tables.wsclient import TableSocket
from .meclient import MeSocket
from .test_socket import befriend, person


async def test_a_host_seating_friends_invites_them_and_tells_the_watchers(
    live: LiveServer,
) -> None:
    host, host_id = await person(live, "host@example.com", "Hema")  # first: admin, standard
    people: list[tuple[Client, int]] = []
    for name in ("Ana", "Bo", "Cy", "Dee"):
        people.append(await person(live, f"{name.lower()}@example.com", name))
    for c, _ in people:
        await befriend(c, host, "host@example.com", (await c.get("/api/me")).json()["id"])
    stranger, _ = await person(live, "sam@example.com", "Sam")
    pages = [await MeSocket(live, c).connect() for c, _ in people]
    stranger_page = await MeSocket(live, stranger).connect()
    host_page = await MeSocket(live, host).connect()
    seated = [host_id] + [uid for _, uid in people[:3]]

    t0 = time.monotonic()
    r = await host.post("/api/tables/hosted", json={"seats": seated})
    assert r.status_code == 201, r.text
    table_id = r.json()["id"]
    for page in pages[:3]:
        invite = await page.next("table_invite", timeout=1)
        assert invite["table_id"] == table_id and invite["host_id"] == host_id
        assert invite["host_name"] == "Hema" and invite["kind"] == "hosted"
    assert time.monotonic() - t0 < 1
    # the friend who is not seated may watch: told, not invited
    watched = await pages[3].next("table_changed", timeout=1)
    assert watched["table_id"] == table_id and watched["change"] == "hosted"
    assert pages[3].of("table_invite") == []
    await host_page.next("table_changed", lambda m: m["change"] == "hosted", timeout=1)

    # it starts once all four have joined; then the host closes it
    for c in [host] + [c for c, _ in people[:3]]:
        assert (await c.post(f"/api/tables/{table_id}/join", json={})).status_code == 200
    for page in pages:
        await page.next("table_changed", lambda m: m["change"] == "started", timeout=1)
    assert (await host.post(f"/api/tables/{table_id}/close")).status_code == 200
    for page in pages:
        closed = await page.next("table_changed", lambda m: m["change"] == "closed", timeout=1)
        assert closed["status"] == "closed"
    await asyncio.sleep(0.3)
    assert [m for m in stranger_page.messages if m["type"].startswith("table_")] == []
    for page in [*pages, stranger_page, host_page]:
        await page.close()


async def test_a_public_table_is_told_to_the_pages_that_watch_the_lobby(live: LiveServer) -> None:
    a, _ = await person(live, "asha@example.com", "Asha")
    b, _ = await person(live, "bo@example.com", "Bo")
    c, _ = await person(live, "cai@example.com", "Cai")
    watcher = await MeSocket(live, b).connect()
    await watcher.send({"type": "watch", "lobby": True})
    elsewhere = await MeSocket(live, c).connect()  # a page that does not show the lobby
    await watcher.send({"type": "ping"})
    await watcher.next("pong")  # the watch is in
    r = await a.post(
        "/api/tables", json={"kind": "public", "seats": ["me", "open", "open", "open"]}
    )
    assert r.status_code == 201, r.text
    table_id = r.json()["id"]
    opened = await watcher.next("table_changed", timeout=1)
    assert opened["table_id"] == table_id and opened["change"] == "opened"
    assert opened["open_seats"] == 3 and "seq" not in opened  # a broadcast: not stored
    assert (await b.post(f"/api/tables/{table_id}/join", json={})).status_code == 200
    seats = await watcher.next("table_changed", lambda m: m["change"] == "seats", timeout=1)
    assert seats["open_seats"] == 2
    r = await a.post(f"/api/tables/{table_id}/fill-bots")
    assert r.status_code == 200, r.text
    started = await watcher.next("table_changed", lambda m: m["change"] == "started", timeout=1)
    assert started["status"] == "playing" and started["open_seats"] == 0
    # a private table is nobody else's business
    r = await a.post("/api/tables", json={"kind": "private"})
    assert r.status_code == 201
    await asyncio.sleep(0.3)
    assert not [m for m in watcher.of("table_changed") if m["kind"] == "private"]
    assert elsewhere.of("table_changed") == []  # not watching the lobby: not told
    # the lobby closed: no more
    await watcher.send({"type": "watch", "lobby": False})
    await watcher.send({"type": "ping"})
    await watcher.next("pong")
    told = len(watcher.of("table_changed"))
    r = await a.post(
        "/api/tables", json={"kind": "public", "seats": ["me", "open", "open", "open"]}
    )
    assert r.status_code == 201
    await asyncio.sleep(0.3)
    assert len(watcher.of("table_changed")) == told
    await watcher.close()
    await elsewhere.close()


async def test_a_public_tables_seated_people_hear_of_it_without_watching_the_lobby(
    live: LiveServer,
) -> None:
    """Their Join and History tabs list their public games: someone taking a seat, the game
    starting, reach those pages (stored, so a page that reconnects catches up)."""
    a, _ = await person(live, "asha@example.com", "Asha")
    b, _ = await person(live, "bo@example.com", "Bo")
    page = await MeSocket(live, a).connect()  # Asha's dashboard: not the lobby
    r = await a.post(
        "/api/tables", json={"kind": "public", "seats": ["me", "open", "open", "open"]}
    )
    assert r.status_code == 201, r.text
    table_id = r.json()["id"]
    assert (await b.post(f"/api/tables/{table_id}/join", json={})).status_code == 200
    seats = await page.next("table_changed", lambda m: m["change"] == "seats", timeout=2)
    assert seats["table_id"] == table_id and seats["open_seats"] == 2 and seats["seq"] >= 1
    assert (await a.post(f"/api/tables/{table_id}/fill-bots")).status_code == 200
    started = await page.next("table_changed", lambda m: m["change"] == "started", timeout=2)
    assert started["status"] == "playing"
    await page.close()


async def test_who_leaves_a_table_hears_of_it_on_their_other_pages(live: LiveServer) -> None:
    """Their Join tab and the count of games on the Dashboard link drop the table they left
    (else the count stays, "(1)" in the tab's title, for a table they are no longer at)."""
    a, _ = await person(live, "asha@example.com", "Asha")
    b, _ = await person(live, "bo@example.com", "Bo")
    r = await a.post(
        "/api/tables", json={"kind": "public", "seats": ["me", "open", "open", "open"]}
    )
    assert r.status_code == 201, r.text
    table_id = r.json()["id"]
    assert (await b.post(f"/api/tables/{table_id}/join", json={})).status_code == 200
    pages = [await MeSocket(live, c).connect() for c in (a, b)]
    assert (await b.post(f"/api/tables/{table_id}/leave")).status_code == 200
    left = await pages[1].next("table_changed", timeout=2)
    assert left["table_id"] == table_id and left["change"] == "seats" and left["seq"] >= 1
    assert (await a.post(f"/api/tables/{table_id}/leave")).status_code == 200  # the last
    closed = await pages[0].next("table_changed", lambda m: m["change"] == "closed", timeout=2)
    assert closed["table_id"] == table_id and closed["status"] == "closed"
    for page in pages:
        await page.close()


async def test_your_turn_reaches_a_player_whose_table_page_is_closed(live: LiveServer) -> None:
    a, a_id = await person(live, "asha@example.com", "Asha")
    friend, _ = await person(live, "bo@example.com", "Bo")
    await befriend(friend, a, "asha@example.com", (await friend.get("/api/me")).json()["id"])
    page = await MeSocket(live, a).connect()
    friend_page = await MeSocket(live, friend).connect()
    r = await a.post(
        "/api/tables",
        json={"kind": "public", "seats": ["me", "bot:random", "bot:random", "bot:random"]},
    )
    assert r.status_code == 201, r.text
    table_id = r.json()["id"]
    turn = await page.next("your_turn", timeout=3)
    assert turn["table_id"] == table_id and turn["seat"] == 0 and turn["seq"] >= 1
    # with the table open she is at the table, playing: her friend's page shows it
    sock = await TableSocket(live, a, table_id).connect()
    playing = await friend_page.next("presence", lambda m: m["state"] == "playing", timeout=1.5)
    assert playing["user_id"] == a_id
    # a reload of the table's page (its socket closed and opened again at once) is not told to
    # her friend as leaving the table
    heard = len(friend_page.of("presence"))
    await sock.close()
    await asyncio.sleep(0.15)
    sock = await TableSocket(live, a, table_id).connect()
    await asyncio.sleep(GRACE_S + 0.5)
    assert friend_page.of("presence")[heard:] == []
    # and no "your turn" comes while she looks at the table: she plays a few moves
    told = len(page.of("your_turn"))

    def hers_alone(st: dict[str, Any]) -> bool:
        # only her move is awaited (where her partner may act too, as in the doubling, a bot's
        # move may end her turn before she answers)
        return (st["view"] or {}).get("to_act") == [0]

    for _ in range(3):
        st = await sock.wait_for(hers_alone, timeout=10)
        await sock.send({"type": "act", "version": st["version"], **st["view"]["legal_json"][0]})
        await sock.wait_for(lambda s, v=st["version"]: s["version"] > v, timeout=10)
    assert len(page.of("your_turn")) == told
    # leaving the table in the middle of her turn: she is told at once
    await sock.wait_for(hers_alone, timeout=10)
    await sock.close()
    left = await page.next("your_turn", timeout=2)
    assert left["table_id"] == table_id and left["seat"] == 0
    online = await friend_page.next("presence", lambda m: m["state"] == "online", timeout=2.5)
    assert online["user_id"] == a_id
    await page.close()
    await friend_page.close()
