"""Chat safety (issue 17): mute a player's chat for yourself; block a user (no friend requests
or invitations from them, no seat at a table you host, none of their chat); report a chat line,
which the admins see with the lines around it. Bad requests change nothing."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import FastAPI

from twentynine.server.tables.models import ChatMessage

from ..conftest import Client, LiveServer, client_for, drain, sign_in, unnumbered
from ..tables.test_hosted import befriend
from ..tables.wsclient import TableSocket

NAMES = ["Ann", "Bo", "Cy", "Dee"]


async def my_id(c: Client) -> int:
    return int((await c.get("/api/me")).json()["id"])


async def four_at_a_table(c: list[Client]) -> str:
    r = await c[0].post(
        "/api/tables", json={"kind": "public", "seats": ["me", "open", "open", "open"]}
    )
    assert r.status_code == 201, r.text
    table_id = str(r.json()["id"])
    for p in c[1:]:
        assert (await p.post(f"/api/tables/{table_id}/join", json={})).status_code == 200
    return table_id


async def say(sock: TableSocket, text: str) -> None:
    await sock.send({"type": "chat", "text": text})


async def heard(sock: TableSocket, text: str) -> list[str]:
    """Every line this socket has been sent, once ``text`` (said after the others) came."""

    async def waiter() -> None:
        while not any(line["text"] == text for line in sock.chat):
            sock.changed.clear()
            await sock.changed.wait()

    await asyncio.wait_for(waiter(), 10)
    return [line["text"] for line in sock.chat]


async def test_muted_and_blocked_players_chat_is_not_seen(live: LiveServer) -> None:
    c = [await live.sign_in(f"{n.lower()}@example.com", n) for n in NAMES]
    ids = [await my_id(p) for p in c]
    table_id = await four_at_a_table(c)
    socks = [await TableSocket(live, p, table_id).connect() for p in c]

    assert (await c[0].put(f"/api/safety/mutes/{ids[1]}")).json() == {
        "user_id": ids[1],
        "muted": True,
    }
    assert (await c[2].put(f"/api/safety/blocks/{ids[1]}")).json() == {
        "user_id": ids[1],
        "blocked": True,
    }
    assert (await c[0].get("/api/safety")).json() == {
        "muted": [{"id": ids[1], "name": "Bo"}],
        "blocked": [],
    }
    assert (await c[2].get("/api/safety")).json() == {
        "muted": [],
        "blocked": [{"id": ids[1], "name": "Bo"}],
    }

    await say(socks[1], "Bo speaks")
    await say(socks[3], "Dee speaks")  # after Bo's line, on the same table queue
    assert await heard(socks[3], "Dee speaks") == ["Bo speaks", "Dee speaks"]
    assert await heard(socks[0], "Dee speaks") == ["Dee speaks"]  # Ann muted Bo
    assert await heard(socks[2], "Dee speaks") == ["Dee speaks"]  # Cy blocked Bo
    assert await heard(socks[1], "Dee speaks") == ["Bo speaks", "Dee speaks"]  # Bo sees his own

    # the chat's history, over HTTP and in a reconnecting socket's first message, too
    def texts(r: Any) -> list[str]:
        return [line["text"] for line in r.json()]

    assert texts(await c[0].get(f"/api/tables/{table_id}/chat")) == ["Dee speaks"]
    assert texts(await c[3].get(f"/api/tables/{table_id}/chat")) == ["Bo speaks", "Dee speaks"]
    await socks[2].close()
    socks[2] = await TableSocket(live, c[2], table_id).connect()
    assert [line["text"] for line in socks[2].chat] == ["Dee speaks"]

    # Ann unmutes Bo: his next line reaches her
    assert (await c[0].delete(f"/api/safety/mutes/{ids[1]}")).json()["muted"] is False
    await say(socks[1], "Bo again")
    await say(socks[3], "Dee again")
    assert (await heard(socks[0], "Dee again"))[-2:] == ["Bo again", "Dee again"]
    assert (await heard(socks[2], "Dee again"))[-2:] == ["Dee speaks", "Dee again"]
    for s in socks:
        await s.close()


async def test_a_blocked_user_cannot_befriend_invite_or_sit_at_your_table(app: FastAPI) -> None:
    ann = await sign_in(app, "ann@example.com", "Ann")  # the first account: standard, may host
    bo = await sign_in(app, "bo@example.com", "Bo")
    cy = await sign_in(app, "cy@example.com", "Cy")
    ann_id, bo_id, cy_id = await my_id(ann), await my_id(bo), await my_id(cy)
    await befriend(ann, bo, "bo@example.com")

    assert (await ann.put(f"/api/safety/blocks/{bo_id}")).status_code == 200
    assert (await ann.get("/api/friends")).json()["friends"] == []  # a block ends a friendship
    r = await bo.post("/api/friends/requests", json={"email": "ann@example.com"})
    assert r.status_code == 403
    assert (await ann.get("/api/friends")).json()["incoming"] == []

    # Ann's table: Bo may not sit there, and quick join does not take him there
    r = await ann.post(
        "/api/tables", json={"kind": "public", "seats": ["me", "open", "bot:random", "bot:random"]}
    )
    table_id = r.json()["id"]
    r = await bo.post(f"/api/tables/{table_id}/join", json={})
    assert r.status_code == 403
    r = await bo.post("/api/tables/quick-join")
    assert r.json()["table"] != table_id and r.json()["created"] is True
    r = await cy.post("/api/tables/quick-join")  # others still may
    assert r.json() == {"table": table_id, "seat": 1, "created": False}

    # Cy blocks Ann: Ann can no longer invite Cy to a game she hosts
    await befriend(ann, (dee := await sign_in(app, "dee@example.com", "Dee")), "dee@example.com")
    await befriend(ann, (eve := await sign_in(app, "eve@example.com", "Eve")), "eve@example.com")
    await befriend(ann, cy, "cy@example.com")
    assert (await cy.put(f"/api/safety/blocks/{ann_id}")).status_code == 200
    players = [cy_id, await my_id(dee), await my_id(eve)]
    r = await ann.post("/api/tables/hosted", json={"players": players})
    assert r.status_code == 403

    # unblocking lets Bo ask again
    assert (await ann.delete(f"/api/safety/blocks/{bo_id}")).json()["blocked"] is False
    r = await bo.post("/api/friends/requests", json={"email": "ann@example.com"})
    assert r.status_code == 201


async def test_a_block_that_ends_a_friendship_or_a_request_is_told_to_both(app: FastAPI) -> None:
    """Both people's open pages follow a block as they follow its friends-page twin (an ended
    friendship, a request declined or withdrawn): before, they were told nothing, their lists
    kept the other, and the blocked one's presence cache kept them as a friend for minutes."""
    ann = await sign_in(app, "ann@example.com", "Ann")
    bo = await sign_in(app, "bo@example.com", "Bo")
    cy = await sign_in(app, "cy@example.com", "Cy")
    dee = await sign_in(app, "dee@example.com", "Dee")
    ann_id, bo_id, cy_id, dee_id = [await my_id(c) for c in (ann, bo, cy, dee)]
    await befriend(ann, bo, "bo@example.com")
    assert (await cy.post("/api/friends/requests", json={"email": "ann@example.com"})).is_success
    assert (await ann.post("/api/friends/requests", json={"email": "dee@example.com"})).is_success
    pages = {u: app.state.live.subscribe(u) for u in (ann_id, bo_id, cy_id, dee_id)}
    assert await app.state.live.presence.friends_of(bo_id) == {ann_id}  # cached now

    assert (await ann.put(f"/api/safety/blocks/{bo_id}")).status_code == 200
    assert (await ann.put(f"/api/safety/blocks/{cy_id}")).status_code == 200  # Cy asked Ann
    assert (await ann.put(f"/api/safety/blocks/{dee_id}")).status_code == 200  # Ann asked Dee
    told = {u: [unnumbered(m) for m in drain(q)] for u, q in pages.items()}
    ann_name = {"user_id": ann_id, "name": "Ann"}
    assert told[bo_id] == [{"type": "friend_removed", **ann_name}]
    assert told[cy_id] == [{"type": "friend_declined", **ann_name}]
    assert told[dee_id] == [{"type": "friend_cancelled", **ann_name}]
    assert [m["type"] for m in told[ann_id] if m["type"].startswith("friend_")] == [
        "friend_removed",
        "friend_declined",
        "friend_cancelled",
    ]
    assert await app.state.live.presence.friends_of(bo_id) == frozenset()
    mine = (await ann.get("/api/friends")).json()
    assert mine["friends"] == mine["incoming"] == mine["outgoing"] == []

    # blocking again, unblocking and muting end nothing more, and tell the others nothing (Ann's
    # own pages hear of each change to her lists)
    assert (await ann.put(f"/api/safety/blocks/{bo_id}")).status_code == 200
    assert (await ann.delete(f"/api/safety/blocks/{bo_id}")).status_code == 200
    assert (await ann.put(f"/api/safety/mutes/{cy_id}")).status_code == 200
    told = {uid: drain(q) for uid, q in pages.items()}
    assert [(m["type"], m["what"], m["on"]) for m in told.pop(ann_id)] == [
        ("safety_changed", "block", True),
        ("safety_changed", "block", False),
        ("safety_changed", "mute", True),
    ]
    assert all(messages == [] for messages in told.values())


async def test_bad_mute_and_block_requests_change_nothing(app: FastAPI) -> None:
    ann = await sign_in(app, "ann@example.com", "Ann")
    ann_id = await my_id(ann)
    for kind in ("mutes", "blocks"):
        assert (await ann.put(f"/api/safety/{kind}/{ann_id}")).status_code == 422
        assert (await ann.put(f"/api/safety/{kind}/99999")).status_code == 404
        assert (await ann.put(f"/api/safety/{kind}/0")).status_code == 422
        assert (await ann.put(f"/api/safety/{kind}/{2**40}")).status_code == 422
        assert (await ann.put(f"/api/safety/{kind}/x")).status_code == 422
        assert (await client_for(app).put(f"/api/safety/{kind}/{ann_id}")).status_code == 401
    assert (await client_for(app).get("/api/safety")).status_code == 401
    assert (await ann.get("/api/safety")).json() == {"muted": [], "blocked": []}
    bo = await sign_in(app, "bo@example.com", "Bo")
    bo_id = await my_id(bo)
    for _ in range(2):  # twice is once
        assert (await ann.put(f"/api/safety/mutes/{bo_id}")).status_code == 200
    assert (await ann.get("/api/safety")).json()["muted"] == [{"id": bo_id, "name": "Bo"}]
    # a forged cross-site request (no CSRF header) is refused
    r = await ann.put(f"/api/safety/blocks/{bo_id}", headers={"x-csrf-token": "forged"})
    assert r.status_code == 403
    assert (await ann.get("/api/safety")).json()["blocked"] == []


async def lines(app: FastAPI, table_id: str, said: list[tuple[int | None, str, str]]) -> list[int]:
    ids = []
    async with app.state.sessionmaker() as db:
        for user_id, name, text in said:
            row = ChatMessage(table_id=table_id, user_id=user_id, name=name, text=text)
            db.add(row)
            await db.flush()
            ids.append(row.id)
        await db.commit()
    return ids


async def test_a_reported_line_reaches_the_admins_with_its_context(app: FastAPI) -> None:
    admin = await sign_in(app, "admin@example.com", "Admin")
    ann = await sign_in(app, "ann@example.com", "Ann")
    bo = await sign_in(app, "bo@example.com", "Bo")
    ann_id, bo_id = await my_id(ann), await my_id(bo)
    r = await ann.post(
        "/api/tables", json={"kind": "public", "seats": ["me", "open", "bot:random", "bot:random"]}
    )
    table_id = r.json()["id"]
    said = [
        (ann_id, "Ann", f"line {i}") if i % 2 else (bo_id, "Bo", f"line {i}") for i in range(12)
    ]
    line_ids = await lines(app, table_id, said)
    target = line_ids[7]  # Ann's "line 7"
    admin_page = app.state.live.subscribe((await admin.get("/api/me")).json()["id"])

    r = await bo.post("/api/safety/reports", json={"message_id": target, "reason": "rude"})
    assert r.status_code == 201, r.text
    told = [unnumbered(m) for m in drain(admin_page)]
    assert {"type": "chat_reported", "report_id": r.json()["id"], "table_id": table_id} in told
    assert r.json()["message_id"] == target and r.json()["status"] == "open"
    (report,) = (await admin.get("/api/admin/reports")).json()
    assert report["text"] == "line 7" and report["author_id"] == ann_id
    assert report["author_name"] == "Ann" and report["reporter_id"] == bo_id
    assert report["reporter_name"] == "Bo" and report["reason"] == "rude"
    assert report["table_id"] == table_id
    assert [x["text"] for x in report["context"]] == [f"line {i}" for i in range(2, 13) if i < 12]

    # refused, and nothing is added
    assert (await bo.post("/api/safety/reports", json={"message_id": target})).status_code == 409
    r = await bo.post("/api/safety/reports", json={"message_id": line_ids[0]})
    assert r.status_code == 422  # his own line
    assert (await bo.post("/api/safety/reports", json={"message_id": 99999})).status_code == 404
    for body in (
        {},
        {"message_id": 0},
        {"message_id": target, "extra": 1},
        {"message_id": target, "reason": "x" * 301},
        {"message_id": "x"},
    ):
        assert (await bo.post("/api/safety/reports", json=body)).status_code == 422, body
    anon = client_for(app)
    assert (await anon.post("/api/safety/reports", json={"message_id": target})).status_code == 401
    assert (await ann.get("/api/admin/reports")).status_code == 403  # admins only
    assert (await anon.get("/api/admin/reports")).status_code == 401
    # a private table's line, for someone without its code: no such line
    r = await ann.post(
        "/api/tables", json={"kind": "private", "seats": ["me", "open", "open", "open"]}
    )
    private, code = r.json()["id"], r.json()["invite_code"]
    (hidden,) = await lines(app, private, [(ann_id, "Ann", "secret")])
    assert (await bo.post("/api/safety/reports", json={"message_id": hidden})).status_code == 404
    r = await bo.post("/api/safety/reports", json={"message_id": hidden, "code": code})
    assert r.status_code == 201
    assert len((await admin.get("/api/admin/reports")).json()) == 2

    # the admin closes one; another admin's open page is told, so its list drops it
    cy = await sign_in(app, "cy@example.com", "Cy")
    cy_id = await my_id(cy)
    assert (await admin.post(f"/api/admin/users/{cy_id}/admin")).status_code == 200
    cy_page = app.state.live.subscribe(cy_id)
    drain(admin_page)
    r = await admin.post(f"/api/admin/reports/{report['id']}/close")
    assert r.json() == {"id": report["id"], "status": "closed"}
    closing = {"type": "report_closed", "report_id": report["id"], "table_id": table_id}
    assert closing in [unnumbered(m) for m in drain(cy_page)]
    assert closing in [unnumbered(m) for m in drain(admin_page)]  # their other pages
    r = await cy.post(f"/api/admin/reports/{report['id']}/close")  # closed already
    assert r.json() == {"id": report["id"], "status": "closed"}
    assert drain(cy_page) == [] and drain(admin_page) == []  # nothing new to tell
    assert [x["text"] for x in (await admin.get("/api/admin/reports")).json()] == ["secret"]
    closed = (await admin.get("/api/admin/reports", params={"status": "closed"})).json()
    assert [x["id"] for x in closed] == [report["id"]]
    assert (await admin.post("/api/admin/reports/99999/close")).status_code == 404
    assert (await admin.get("/api/admin/reports", params={"status": "x"})).status_code == 422


async def test_reports_are_rate_limited(app: FastAPI) -> None:
    from twentynine.server.safety.service import REPORTS_PER_HOUR

    ann = await sign_in(app, "ann@example.com", "Ann")
    bo = await sign_in(app, "bo@example.com", "Bo")
    r = await ann.post(
        "/api/tables", json={"kind": "public", "seats": ["me", "open", "bot:random", "bot:random"]}
    )
    ann_id = await my_id(ann)
    ids = await lines(
        app, r.json()["id"], [(ann_id, "Ann", f"{i}") for i in range(REPORTS_PER_HOUR + 1)]
    )
    for line in ids[:-1]:
        assert (await bo.post("/api/safety/reports", json={"message_id": line})).status_code == 201
    assert (await bo.post("/api/safety/reports", json={"message_id": ids[-1]})).status_code == 429


async def test_your_data_holds_mutes_blocks_reports_and_rating_and_deletion_drops_them(
    app: FastAPI,
) -> None:
    from twentynine.server.ratings.service import rate_game

    admin = await sign_in(app, "admin@example.com", "Admin")  # (someone must stay admin)
    ann = await sign_in(app, "ann@example.com", "Ann")
    bo = await sign_in(app, "bo@example.com", "Bo")
    cy = await sign_in(app, "cy@example.com", "Cy")
    ids = [await my_id(c) for c in (admin, ann, bo, cy)]
    ann_id, bo_id, cy_id = ids[1:]
    assert (await ann.put(f"/api/safety/mutes/{bo_id}")).status_code == 200
    assert (await ann.put(f"/api/safety/blocks/{cy_id}")).status_code == 200
    assert (await cy.put(f"/api/safety/mutes/{ann_id}")).status_code == 200
    r = await bo.post(
        "/api/tables", json={"kind": "public", "seats": ["me", "open", "bot:random", "bot:random"]}
    )
    (line,) = await lines(app, r.json()["id"], [(bo_id, "Bo", "hello")])
    assert (
        await ann.post("/api/safety/reports", json={"message_id": line, "reason": "spam"})
    ).status_code == 201
    async with app.state.sessionmaker() as db:
        assert await rate_game(db, "t1", 1, ids, 1)
    assert (await ann.post("/api/matchmaking/queue")).status_code == 200

    data = (await ann.get("/api/me/data")).json()
    assert [(p["user_id"], p["first_name"]) for p in data["muted"]] == [(bo_id, "Bo")]
    assert [(p["user_id"], p["first_name"]) for p in data["blocked"]] == [(cy_id, "Cy")]
    assert [(x["text"], x["reason"]) for x in data["chat_reports_made"]] == [("hello", "spam")]
    assert data["rating"]["games"] == 1 and len(data["rating"]["history"]) == 1

    r = await ann.post("/api/me/delete", json={"confirm": True})
    assert r.status_code == 200, r.text
    assert (await cy.get("/api/safety")).json() == {"muted": [], "blocked": []}
    assert (await bo.get("/api/matchmaking")).json()["waiting"] == 0
    # the others' rated game stands: their history still holds it
    assert (await bo.get(f"/api/ratings/{bo_id}")).json()["games"] == 1


async def test_a_muted_line_from_another_process_is_not_seen(
    live_pair: tuple[LiveServer, LiveServer],
) -> None:
    a, b = live_pair
    c = [await a.sign_in(f"{n.lower()}@example.com", n) for n in NAMES]
    ids = [await my_id(p) for p in c]
    table_id = await four_at_a_table(c)
    on_b = []
    for p in (c[0], c[2], c[3]):  # Ann, Cy and Dee talk to process B; Bo to A
        on_b.append(b.same_person(p))
    ann, cy, dee = [await TableSocket(b, p, table_id).connect() for p in on_b]
    bo = await TableSocket(a, c[1], table_id).connect()
    assert (await on_b[0].put(f"/api/safety/mutes/{ids[1]}")).status_code == 200

    await say(bo, "Bo on A")
    assert await heard(cy, "Bo on A") == ["Bo on A"]  # it came over to B
    await say(dee, "Dee on B")
    assert await heard(ann, "Dee on B") == ["Dee on B"]
    assert await heard(cy, "Dee on B") == ["Bo on A", "Dee on B"]
    for s in (ann, cy, dee, bo):
        await s.close()
