"""Public tables (seed 002): anyone signed in opens a table with bots in any seats; it is in the
lobby with its open seats; others join until no seat is empty (or the host seats bots); quick join
takes the first open seat, else opens a new table with bots; a private table needs its invite
code; the only person at a table of bots may pause it; leaving hands the seat to a bot, and the
last person to leave closes the table."""

from __future__ import annotations

import asyncio
from typing import Any

import websockets
from fastapi import FastAPI

from twentynine.server.tables.runtime import STANDIN_LEVEL

from ..conftest import Client, LiveServer, client_for, sign_in
from .wsclient import TableSocket, play_until, unexpected_errors

BOTS_AND_OPEN = ["me", "open", "bot:random", "open"]
ALL_BOTS = ["me", "bot:random", "bot:random", "bot:random"]


async def open_table(c: Client, seats: list[str], kind: str = "public") -> dict[str, Any]:
    r = await c.post("/api/tables", json={"kind": kind, "seats": seats})
    assert r.status_code == 201, r.text
    table: dict[str, Any] = r.json()
    return table


async def my_id(c: Client) -> int:
    r = await c.get("/api/me")
    assert r.status_code == 200, r.text
    return int(r.json()["id"])


async def lobby(c: Client) -> dict[str, dict[str, Any]]:
    r = await c.get("/api/tables")
    assert r.status_code == 200, r.text
    return {t["id"]: t for t in r.json()}


async def info(c: Client, table_id: str, query: str = "") -> dict[str, Any]:
    r = await c.get(f"/api/tables/{table_id}{query}")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


async def join(c: Client, table_id: str, **body: Any) -> dict[str, Any]:
    r = await c.post(f"/api/tables/{table_id}/join", json=body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


async def quick_join(c: Client) -> dict[str, Any]:
    r = await c.post("/api/tables/quick-join")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


async def close_code(live: LiveServer, c: Client, table_id: str, query: str = "") -> int:
    """The close code of a socket the server refuses."""
    cookies = "; ".join(f"{k}={v}" for k, v in c.cookies.items())
    url = f"{live.ws_url}/ws/tables/{table_id}{query}"
    async with websockets.connect(url, additional_headers={"Cookie": cookies}) as ws:
        try:
            message = await asyncio.wait_for(ws.recv(), 5)
        except websockets.ConnectionClosed as e:
            assert e.rcvd is not None
            return e.rcvd.code
    raise AssertionError(f"the socket was not refused: {message!r}")


async def refused(sock: TableSocket, message: dict[str, Any]) -> str:
    """Send ``message`` and return the reason of the error it brings back."""
    before = len(sock.errors)
    await sock.send(message)
    reason: str = (await sock.wait_error(before + 1))["reason"]
    return reason


def events(sock: TableSocket) -> list[str]:
    return [e["type"] for m in sock.messages if m["type"] == "state" for e in m["events"]]


async def test_a_public_table_is_in_the_lobby_and_starts_when_no_seat_is_empty(
    app: FastAPI,
) -> None:
    alice = await sign_in(app, "alice@example.com", "Alice")
    bob = await sign_in(app, "bob@example.com", "Bob")
    cy = await sign_in(app, "cy@example.com", "Cy")
    dee = await sign_in(app, "dee@example.com", "Dee")
    eve = await sign_in(app, "eve@example.com", "Eve")
    alice_id, bob_id = await my_id(alice), await my_id(bob)

    table = await open_table(alice, BOTS_AND_OPEN)
    table_id = table["id"]
    assert table["kind"] == "public" and table["status"] == "waiting"
    assert table["invite_code"] is None
    assert [(s["user_id"], s["bot"]) for s in table["seats"]] == [
        (alice_id, ""),
        (None, ""),
        (None, "random"),
        (None, ""),
    ]
    # the lobby: everyone signed in sees it with its two open seats (a bot's seat is not open)
    listed = (await lobby(bob))[table_id]
    assert listed["open_seats"] == 2 and listed["status"] == "waiting"
    assert [s["name"] for s in listed["seats"]] == ["Alice", "", "Bot", ""]
    assert (await client_for(app).get("/api/tables")).status_code == 401

    # Bob takes the first open seat; Cy asks for seat 3; with no seat empty the game starts
    assert await join(bob, table_id) == {"table": table_id, "seat": 1, "status": "waiting"}
    assert (await lobby(eve))[table_id]["open_seats"] == 1
    assert await join(cy, table_id, seat=3) == {"table": table_id, "seat": 3, "status": "playing"}
    now = await info(eve, table_id)
    assert now["status"] == "playing" and now["game"] is not None
    assert [s["user_id"] for s in now["seats"]][:2] == [alice_id, bob_id]
    listed = (await lobby(eve))[table_id]
    assert listed["status"] == "playing" and listed["open_seats"] == 0

    # during play a person may take the bot's seat; after that the table is full
    assert await join(dee, table_id) == {"table": table_id, "seat": 2, "status": "playing"}
    assert (await info(eve, table_id))["seats"][2]["bot"] == ""
    r = await eve.post(f"/api/tables/{table_id}/join", json={})
    assert r.status_code == 409, r.text
    # joining again keeps your seat
    assert (await join(bob, table_id))["seat"] == 1


async def test_the_host_fills_the_empty_seats_with_bots(app: FastAPI) -> None:
    alice = await sign_in(app, "alice@example.com", "Alice")
    bob = await sign_in(app, "bob@example.com", "Bob")
    table_id = (await open_table(alice, ["me", "open", "open", "open"]))["id"]
    assert (await join(bob, table_id))["seat"] == 1
    r = await bob.post(f"/api/tables/{table_id}/fill-bots")
    assert r.status_code == 403, r.text  # only the host seats bots
    assert (await info(bob, table_id))["status"] == "waiting"

    r = await alice.post(f"/api/tables/{table_id}/fill-bots")
    assert r.status_code == 200, r.text
    assert r.json() == {"status": "playing"}
    seats = (await info(bob, table_id))["seats"]
    assert [s["bot"] for s in seats] == ["", "", STANDIN_LEVEL, STANDIN_LEVEL]
    assert (await lobby(bob))[table_id]["open_seats"] == 0


async def test_quick_join_takes_the_first_open_seat_else_opens_a_table(app: FastAPI) -> None:
    alice = await sign_in(app, "alice@example.com", "Alice")
    people = [await sign_in(app, f"p{i}@example.com", f"P{i}") for i in range(4)]
    private = await open_table(alice, ["me", "open", "open", "open"], kind="private")
    first = (await open_table(alice, BOTS_AND_OPEN))["id"]

    # the open seats of the public table, in order; never the private table's
    assert await quick_join(people[0]) == {"table": first, "seat": 1, "created": False}
    assert await quick_join(people[1]) == {"table": first, "seat": 3, "created": False}
    assert (await info(alice, first))["status"] == "playing"
    # a seat a bot keeps warm is taken next
    assert await quick_join(people[2]) == {"table": first, "seat": 2, "created": False}

    # no seat anywhere: a new public table, the newcomer with three bots, already playing
    made = await quick_join(people[3])
    assert made["created"] is True and made["seat"] == 0 and made["table"] != first
    new = await info(people[3], made["table"])
    assert new["kind"] == "public" and new["status"] == "playing"
    assert new["host_id"] == await my_id(people[3])
    assert all(s["bot"] for s in new["seats"][1:])
    assert made["table"] in await lobby(alice)

    # someone already seated at the first table is not seated there twice
    again = await quick_join(people[0])
    assert again["table"] == made["table"] and again["created"] is False
    assert (await info(alice, private["id"], f"?code={private['invite_code']}"))["seats"][1][
        "user_id"
    ] is None

    guest = client_for(app)
    assert (await guest.post("/api/auth/guest", json={"first_name": "Visitor"})).is_success
    assert (await guest.post("/api/tables/quick-join")).status_code == 403


async def test_a_private_table_needs_its_invite_code(live: LiveServer) -> None:
    alice = await live.sign_in("alice@example.com", "Alice")
    bob = await live.sign_in("bob@example.com", "Bob")
    table = await open_table(alice, BOTS_AND_OPEN, kind="private")
    table_id, code = table["id"], table["invite_code"]
    assert isinstance(code, str) and code
    assert table_id not in await lobby(bob)
    assert table_id not in await lobby(alice)
    assert (await info(alice, table_id))["invite_code"] == code

    # without the code (or with a wrong one) the table does not exist for Bob
    for query in ("", "?code=wrong", f"?code={code}x"):
        assert (await bob.get(f"/api/tables/{table_id}{query}")).status_code == 404
        assert (await bob.get(f"/api/tables/{table_id}/chat{query}")).status_code == 404
        assert await close_code(live, bob, table_id, query) == 4404
    for body in ({}, {"code": "wrong"}):
        r = await bob.post(f"/api/tables/{table_id}/join", json=body)
        assert r.status_code == 404, r.text

    # with it he may look, watch and join
    seen = await info(bob, table_id, f"?code={code}")
    assert seen["kind"] == "private" and "invite_code" not in seen
    assert (await bob.get(f"/api/tables/{table_id}/chat?code={code}")).json() == []
    sock = await TableSocket(live, bob, table_id, query=f"code={code}").connect()
    assert sock.state is not None and sock.state["table"]["you"]["spectator"] is True
    await sock.close()
    assert await join(bob, table_id, code=code) == {
        "table": table_id,
        "seat": 1,
        "status": "waiting",
    }
    # seated, he needs the code no more
    assert (await info(bob, table_id))["seats"][1]["user_id"] == await my_id(bob)


async def test_the_only_person_at_a_table_of_bots_pauses_and_resumes(live: LiveServer) -> None:
    alice = await live.sign_in("alice@example.com", "Alice")
    bob = await live.sign_in("bob@example.com", "Bob")
    table_id = (await open_table(alice, ALL_BOTS))["id"]
    assert (await info(alice, table_id))["status"] == "playing"

    # over HTTP: someone who is not at the table cannot; Alice can, once each way
    assert (await bob.post(f"/api/tables/{table_id}/pause")).status_code == 403
    r = await alice.post(f"/api/tables/{table_id}/pause")
    assert r.status_code == 200 and r.json() == {"status": "paused"}
    assert (await alice.post(f"/api/tables/{table_id}/pause")).status_code == 409
    r = await alice.post(f"/api/tables/{table_id}/resume")
    assert r.status_code == 200 and r.json() == {"status": "playing"}
    assert (await alice.post(f"/api/tables/{table_id}/resume")).status_code == 409

    # over the socket: paused, nothing can be played; resumed, the game goes on
    sock = await TableSocket(live, alice, table_id).connect()
    watcher = await TableSocket(live, bob, table_id).connect()
    await sock.wait_for(lambda st: bool(st["view"]["legal"]))
    move = sock.view["legal_json"][0]
    await sock.send({"type": "pause"})
    paused = await sock.wait_for(lambda st: st["table"]["status"] == "paused")
    assert "paused" in events(sock)
    # a paused table offers no move (it takes none), though it is still Alice's turn
    assert paused["view"]["legal"] == [] and paused["view"]["legal_json"] == []
    assert 0 in paused["view"]["to_act"]
    again = await TableSocket(live, alice, table_id).connect()  # a fresh snapshot: the same
    assert again.view["legal"] == [] and again.view["legal_json"] == []
    await again.close()
    paused_at = sock.version
    assert await refused(sock, {"type": "act", **move}) == "not_playing"
    assert await refused(watcher, {"type": "resume"}) == "not_alone"
    assert sock.version == paused_at
    # nobody joins a paused table (its one person could never resume it)
    assert (await bob.post(f"/api/tables/{table_id}/join", json={})).status_code == 409
    await sock.send({"type": "resume"})
    resumed = await sock.wait_for(lambda st: st["table"]["status"] == "playing")
    assert "resumed" in events(sock)
    assert resumed["view"]["legal_json"][0] == move  # offered again
    resumed_at = sock.version
    await play_until([sock], lambda: sock.version >= resumed_at + 8)  # Alice and the bots
    assert [e["reason"] for e in unexpected_errors(sock)] == ["not_playing"]

    # a spectator at a public table sees no hand (until a deal is over) and cannot show any
    during = await watcher.wait_for(lambda st: st["view"]["phase"] != "over")
    assert all(h is None for h in during["view"]["hands"])
    assert await refused(watcher, {"type": "toggle", "seat": 0}) == "no_hands"

    # with a second person at the table, neither may pause
    await watcher.close()
    assert (await join(bob, table_id))["status"] == "playing"
    for person in (alice, bob):
        assert (await person.post(f"/api/tables/{table_id}/pause")).status_code == 403
    assert await refused(sock, {"type": "pause"}) == "not_alone"
    assert (await info(alice, table_id))["status"] == "playing"
    await sock.close()


async def test_a_table_nobody_plays_or_watches_pauses_until_someone_opens_it(
    live: LiveServer,
) -> None:
    """Bots do not deal on for ever at a table everyone left: between deals, a table where no
    person plays their own seat and nobody has it open pauses; it deals on when someone opens
    it again."""
    alice = await live.sign_in("alice@example.com", "Alice")
    bob = await live.sign_in("bob@example.com", "Bob")
    r = await alice.post(
        "/api/tables", json={"kind": "public", "seats": ALL_BOTS, "takeover_seconds": 1}
    )
    assert r.status_code == 201, r.text
    table_id = r.json()["id"]
    sock = await TableSocket(live, alice, table_id).connect()
    watcher = await TableSocket(live, bob, table_id).connect()
    await sock.close()  # Alice goes; after a second her stand-in plays the seat
    await watcher.wait_for(lambda st: bool(st["table"]["seats"][0]["standin"]), timeout=10)

    # while Bob watches, the bots deal on
    def deals_seen() -> int:
        return events(watcher).count("new_deal")

    await watcher.wait_for(lambda st: deals_seen() >= 1, timeout=60)
    assert "paused" not in events(watcher)
    # Bob goes too: at the deal's end the table pauses, and stays so
    await watcher.close()
    for _ in range(600):
        if (await info(bob, table_id))["status"] == "paused":
            break
        await asyncio.sleep(0.1)
    paused = await info(bob, table_id)
    assert paused["status"] == "paused"
    await asyncio.sleep(0.5)
    assert (await info(bob, table_id))["version"] == paused["version"]

    # Alice opens it again: it resumes, she has her seat back and a new deal is dealt
    back = await TableSocket(live, alice, table_id).connect()
    await back.wait_for(lambda st: st["table"]["status"] == "playing", timeout=5)
    await back.wait_for(lambda st: "new_deal" in events(back), timeout=10)
    told = [e for m in back.messages if m["type"] == "state" for e in m["events"]]
    assert {"type": "resumed", "reason": "someone_here"} in told
    assert not back.state["table"]["seats"][0]["standin"]  # type: ignore[index]
    await back.close()


async def test_leaving_hands_the_seat_to_a_bot_and_the_last_one_out_closes(
    live: LiveServer,
) -> None:
    alice = await live.sign_in("alice@example.com", "Alice")
    bob = await live.sign_in("bob@example.com", "Bob")
    table_id = (await open_table(alice, ["me", "open", "bot:random", "bot:random"]))["id"]
    assert (await join(bob, table_id))["status"] == "playing"
    sock = await TableSocket(live, alice, table_id).connect()

    r = await bob.post(f"/api/tables/{table_id}/leave")
    assert r.status_code == 200 and r.json() == {"left": True}
    await sock.wait_for(lambda st: bool(st["table"]["seats"][1]["bot"]))
    seat = (await info(alice, table_id))["seats"][1]
    assert seat["user_id"] is None and seat["bot"] == STANDIN_LEVEL
    assert (await bob.post(f"/api/tables/{table_id}/leave")).status_code == 409
    # the bot plays Bob's seat: Alice plays on with the bots until it has played a card
    since = len(sock.messages)

    def seat_1_played() -> bool:
        return any(
            e["type"] == "card_played" and e["seat"] == 1
            for m in sock.messages[since:]
            if m["type"] == "state"
            for e in m["events"]
        )

    await play_until([sock], seat_1_played)
    assert unexpected_errors(sock) == []

    # the last person leaves: the table closes and is gone
    r = await alice.post(f"/api/tables/{table_id}/leave")
    assert r.status_code == 200, r.text
    await sock.wait_for(lambda st: st["table"]["status"] == "closed")
    await sock.close()
    assert (await alice.get(f"/api/tables/{table_id}")).status_code == 404
    assert table_id not in await lobby(bob)
    assert await close_code(live, alice, table_id) == 4404

    # before the game starts, leaving empties the seat again
    waiting = (await open_table(bob, ["me", "open", "open", "open"]))["id"]
    assert (await join(alice, waiting))["seat"] == 1
    assert (await lobby(alice))[waiting]["open_seats"] == 2
    assert (await alice.post(f"/api/tables/{waiting}/leave")).status_code == 200
    listed = (await lobby(alice))[waiting]
    assert listed["open_seats"] == 3 and listed["seats"][1]["user_id"] is None
    assert (await bob.post(f"/api/tables/{waiting}/leave")).status_code == 200
    assert waiting not in await lobby(alice)
    assert (await bob.get(f"/api/tables/{waiting}")).status_code == 404


async def test_a_closed_table_offers_no_move(live: LiveServer) -> None:
    """Closed on the player's turn: the last state the socket gets lists no legal move."""
    alice = await live.sign_in("alice@example.com", "Alice")
    table_id = (await open_table(alice, ALL_BOTS))["id"]
    sock = await TableSocket(live, alice, table_id).connect()
    await sock.wait_for(lambda st: bool(st["view"]["legal"]))
    assert (await alice.post(f"/api/tables/{table_id}/close")).status_code == 200
    closed = await sock.wait_for(lambda st: st["table"]["status"] == "closed")
    assert closed["view"]["legal"] == [] and closed["view"]["legal_json"] == []
    assert closed["view"]["to_act"]  # whose turn it was stays shown
    await sock.close()
