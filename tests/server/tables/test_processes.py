"""Many processes, one truth: two server apps on one PostgreSQL and one Redis serve the same
table; each player's socket goes to either one; every action lands once, in one order."""

from __future__ import annotations

import asyncio

from ..conftest import Client, LiveServer
from .test_hosted import befriend
from .test_public import ALL_BOTS, events, info
from .wsclient import TableSocket, deal_in_play, play_until, unexpected_errors


async def ana_and_bo(live_pair: tuple[LiveServer, LiveServer]) -> tuple[Client, Client, str]:
    """Ana signed in on process a, Bo on b, and a public table of Ana's with three open seats."""
    a, b = live_pair
    ana = await a.sign_in("ana@example.com", "Ana")
    bo = b.same_person(await a.sign_in("bo@example.com", "Bo"))
    r = await ana.post(
        "/api/tables", json={"kind": "public", "seats": ["me", "open", "open", "open"]}
    )
    assert r.status_code == 201, r.text
    return ana, bo, str(r.json()["id"])


async def test_two_processes_serve_one_table(live_pair: tuple[LiveServer, LiveServer]) -> None:
    a, b = live_pair
    names = ["Host", "Ana", "Bo", "Cy"]
    emails = [f"{n.lower()}@example.com" for n in names]
    clients: list[Client] = [await a.sign_in(e, n) for e, n in zip(emails, names, strict=True)]
    ids = [(await c.get("/api/me")).json()["id"] for c in clients]
    for c, e in zip(clients[1:], emails[1:], strict=True):
        await befriend(clients[0], c, e)
    r = await clients[0].post("/api/tables/hosted", json={"seats": ids})
    table_id = r.json()["id"]
    # seats 2 and 3 talk to the second process, with the same session cookies
    on_b = [b.same_person(src) for src in clients[2:]]
    http = [clients[0], clients[1], *on_b]
    servers = [a, a, b, b]
    for c in http:
        r = await c.post(f"/api/tables/{table_id}/join", json={})
        assert r.status_code == 200, r.text
    socks = [
        await TableSocket(server, c, table_id).connect()
        for server, c in zip(servers, http, strict=True)
    ]

    await deal_in_play(socks)  # (a first deal can end invalid before the sockets connect)
    started = socks[0].state["table"]["game"]["deals"] if socks[0].state else 0

    def cards_seen(sock: TableSocket) -> list[tuple[int, str]]:
        return [
            (e["seat"], e["card"])
            for m in sock.messages
            if m["type"] == "state"
            for e in m["events"]
            if e["type"] == "card_played"
        ]

    def two_deals() -> bool:  # the deal in play ended and the next one is dealt, with cards
        # played (a deal can end invalid after its auction, before any card: then play on)
        return bool(cards_seen(socks[0])) and all(
            s.state and s.state["table"]["game"]["deals"] > started for s in socks
        )

    await play_until(socks, two_deals, timeout=120)
    for s in socks:
        assert unexpected_errors(s) == []
    # every socket saw the same history: versions without gaps or repeats
    for s in socks:
        versions = [m["version"] for m in s.messages if m["type"] == "state"]
        assert versions == sorted(versions)
    finals = {s.version for s in socks}
    await socks[0].wait_for(lambda st: st["version"] >= max(finals))
    await socks[3].wait_for(lambda st: st["version"] >= max(finals))
    played = cards_seen(socks[0])
    # the same cards in the same order on both processes
    assert played and played == cards_seen(socks[3])
    for s in socks:
        await s.close()


async def test_a_seat_connected_on_the_other_process_is_drawn_as_here(
    live_pair: tuple[LiveServer, LiveServer],
) -> None:
    """Ana's page is on process a, Bo's on b: each page draws the other's seat as connected
    (not away), and sees it go and come back, within a second, though no change is stored."""
    a, b = live_pair
    ana, bo, table_id = await ana_and_bo(live_pair)
    assert (await bo.post(f"/api/tables/{table_id}/join", json={"seat": 1})).status_code == 200

    def connected(sock: TableSocket, seat: int) -> bool:
        return bool(sock.state and sock.state["table"]["seats"][seat]["connected"])

    ana_page = await TableSocket(a, ana, table_id).connect()
    bo_page = await TableSocket(b, bo, table_id).connect()
    assert connected(bo_page, 0)  # Ana's page is open on the other process
    await ana_page.wait_for(lambda st: connected(ana_page, 1), timeout=1)
    version = ana_page.version

    await bo_page.close()
    await ana_page.wait_for(lambda st: not connected(ana_page, 1), timeout=1)
    back = await TableSocket(b, bo, table_id).connect()
    await ana_page.wait_for(lambda st: connected(ana_page, 1), timeout=1)
    assert ana_page.version == back.version == version  # told, not stored
    told = [e["type"] for m in ana_page.messages if m["type"] == "state" for e in m["events"]]
    assert told.count("seat_gone") == 1 and told.count("seat_here") >= 2
    for sock in (ana_page, back):
        await sock.close()


async def test_a_watcher_on_the_other_process_keeps_the_bots_dealing(
    live_pair: tuple[LiveServer, LiveServer],
) -> None:
    """Alice leaves her table of bots; Bob watches it through the process that does not run
    it. The table deals on while he watches, and pauses once he goes too."""
    a, b = live_pair
    alice = await a.sign_in("alice@example.com", "Alice")
    bob = b.same_person(await a.sign_in("bob@example.com", "Bob"))
    r = await alice.post(
        "/api/tables", json={"kind": "public", "seats": ALL_BOTS, "takeover_seconds": 1}
    )
    assert r.status_code == 201, r.text
    table_id = r.json()["id"]
    sock = await TableSocket(a, alice, table_id).connect()
    watcher = await TableSocket(b, bob, table_id).connect()
    await sock.close()  # after a second her stand-in plays the seat
    await watcher.wait_for(lambda st: bool(st["table"]["seats"][0]["standin"]), timeout=10)
    # the deals end and new ones come while Bob watches from the other process
    await watcher.wait_for(lambda st: events(watcher).count("new_deal") >= 2, timeout=60)
    assert "paused" not in events(watcher)
    await watcher.close()
    for _ in range(600):
        if (await info(alice, table_id))["status"] == "paused":
            break
        await asyncio.sleep(0.1)
    assert (await info(alice, table_id))["status"] == "paused"


async def test_a_new_name_made_on_one_process_reaches_the_table_on_the_other(
    live_pair: tuple[LiveServer, LiveServer],
) -> None:
    """Ana sits at her table through process a; she renames herself through b. Bo's page on
    b and her own on a show the new name within a second, and her chat on a carries it; a
    viewer's new name, made on the other process, is on his chat lines too."""
    a, b = live_pair
    ana, bo, table_id = await ana_and_bo(live_pair)
    ana_page = await TableSocket(a, ana, table_id).connect()
    bo_page = await TableSocket(b, bo, table_id).connect()
    r = await b.same_person(ana).patch("/api/me", json={"first_name": "Anandi"})
    assert r.status_code == 200, r.text
    for page in (ana_page, bo_page):
        await page.wait_for(lambda st: st["table"]["seats"][0]["name"] == "Anandi", timeout=1)
        assert events(page).count("seat_renamed") == 1
        assert page.state is not None and page.state["table"]["name"] == "Anandi's table"
    await ana_page.send({"type": "chat", "text": "namaste"})
    for _ in range(20):
        if bo_page.chat:
            break
        await asyncio.sleep(0.1)
    assert [(line["name"], line["text"]) for line in bo_page.chat] == [("Anandi", "namaste")]
    # Bo, who only watches through b, renames himself through a: his next line carries it
    r = await a.same_person(bo).patch("/api/me", json={"first_name": "Bodhi"})
    assert r.status_code == 200, r.text
    await bo_page.send({"type": "chat", "text": "hello"})
    for _ in range(20):
        if len(ana_page.chat) == 2:
            break
        await asyncio.sleep(0.1)
    assert [(line["name"], line["spectator"]) for line in ana_page.chat[1:]] == [("Bodhi", True)]
    for page in (ana_page, bo_page):
        assert unexpected_errors(page) == []
        await page.close()
