"""Your own data: the download (everything stored of the account, nothing of others'), changing
your name, and deleting the account (seats in past deals stay as "a former player", everything
else goes, sessions and open sockets end at once)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import FastAPI
from sqlalchemy import func, select

from twentynine.server.accounts.data import FORMER_PLAYER
from twentynine.server.accounts.models import LoginToken, User, UserSession
from twentynine.server.friends.models import FriendInvitation, Friendship
from twentynine.server.history.models import DealPlayer
from twentynine.server.live.hub import LiveHub
from twentynine.server.safety.models import ChatMute, UserBlock

from ..conftest import Client, LiveServer, client_for, drain, sign_in, unnumbered
from ..live.meclient import MeSocket, refused
from ..tables.wsclient import TableSocket
from ..test_authorization import played_deal


async def _me(c: Client) -> dict[str, Any]:
    r = await c.get("/api/me")
    assert r.status_code == 200, r.text
    return dict(r.json())


async def befriend(a: Client, b: Client, b_email: str) -> None:
    assert (await a.post("/api/friends/requests", json={"email": b_email})).status_code == 201
    a_id = (await _me(a))["id"]
    assert (await b.post(f"/api/friends/requests/{a_id}/accept")).status_code == 200


async def add_deal(app: FastAPI, seat_users: list[int | None]) -> int:
    record, outcome, delta = played_deal()
    store = app.state.tables.store
    deal: int = await store.add_deal(
        "tablexyz", 1, 1, record, outcome, 0, "16", delta, seat_users, False, None
    )
    return deal


async def test_download_your_data(app: FastAPI) -> None:
    ada = await sign_in(app, "ada@example.com", "Ada")  # the first account: may organise
    bea = await sign_in(app, "bea@example.com", "Bea")
    cy = await sign_in(app, "cy@example.com", "Cy")
    await befriend(bea, cy, "cy@example.com")
    bea_id, cy_id = (await _me(bea))["id"], (await _me(cy))["id"]
    await bea.post("/api/friends/invitations", json={"email": "nia@example.com"})
    await bea.post("/api/tier-requests", json={"note": "our Friday game"})
    await bea.patch("/api/me", json={"avatar": "fox"})
    deal = await add_deal(app, [bea_id, None, cy_id, None])
    r = await ada.post(
        "/api/tournaments", json={"name": "Chematoodlon", "format": "knockout", "match_deals": 1}
    )
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    r = await bea.post(f"/api/tournaments/{tid}/entries", json={"partner_email": "cy@example.com"})
    assert r.status_code == 201, r.text

    r = await bea.get("/api/me/data")
    assert r.status_code == 200
    assert "attachment" in r.headers["content-disposition"]
    data = r.json()
    assert data["account"]["email"] == "bea@example.com" and data["account"]["avatar"] == "fox"
    assert [(f["first_name"], f["status"]) for f in data["friends_and_requests"]] == [
        ("Cy", "accepted")
    ]
    assert [i["email"] for i in data["invitations_sent"]] == ["nia@example.com"]
    assert [t["note"] for t in data["tier_requests"]] == ["our Friday game"]
    assert [(d["deal_id"], d["seat"]) for d in data["deals_played"]] == [(deal, 0)]
    assert len(data["sessions"]) == 1 and "id" not in data["sessions"][0]
    assert [(e["tournament"], e["as"], e["status"]) for e in data["tournament_entries"]] == [
        ("Chematoodlon", "registered", "partner")  # waiting for the partner to confirm
    ]
    assert data["tournaments_organised"] == []
    partner = (await cy.get("/api/me/data")).json()
    assert [(e["tournament_id"], e["as"]) for e in partner["tournament_entries"]] == [
        (tid, "partner")
    ]
    organiser = (await ada.get("/api/me/data")).json()
    assert [(t["id"], t["name"]) for t in organiser["tournaments_organised"]] == [
        (tid, "Chematoodlon")
    ]
    assert organiser["tournament_entries"] == []
    text = r.text
    assert "cy@example.com" not in text  # a friend's address is theirs, not Bea's
    assert (await client_for(app).get("/api/me/data")).status_code == 401


async def test_change_your_name(app: FastAPI) -> None:
    bea = await sign_in(app, "bea@example.com", "Bea")
    r = await bea.patch("/api/me", json={"first_name": "  Beatrix "})
    assert r.status_code == 200 and r.json()["first_name"] == "Beatrix"
    assert (await bea.patch("/api/me", json={"first_name": ""})).status_code == 422
    assert (await bea.patch("/api/me", json={"first_name": "x" * 61})).status_code == 422
    assert (await _me(bea))["first_name"] == "Beatrix"


async def test_delete_your_account(app: FastAPI) -> None:
    await sign_in(app, "ada@example.com", "Ada")
    bea_phone = await sign_in(app, "bea@example.com", "Bea")
    bea_laptop = await sign_in(app, "bea@example.com", "Bea")
    cy = await sign_in(app, "cy@example.com", "Cy")
    await befriend(bea_phone, cy, "cy@example.com")
    await bea_phone.post("/api/friends/invitations", json={"email": "nia@example.com"})
    bea_id, cy_id = (await _me(bea_phone))["id"], (await _me(cy))["id"]
    deal = await add_deal(app, [bea_id, None, cy_id, None])
    assert (await bea_phone.put(f"/api/safety/mutes/{cy_id}")).is_success
    assert (await cy.put(f"/api/safety/blocks/{bea_id}")).is_success
    mine = (await bea_phone.get("/api/me/data")).json()
    assert [m["target_id"] for m in mine["more"]["chat_mutes"]] == [cy_id]
    page = app.state.live.subscribe(bea_id)

    for body in ({}, {"confirm": False}, {"confirm": "yes"}):
        assert (await bea_phone.post("/api/me/delete", json=body)).status_code == 422
    assert (await _me(bea_laptop))["email"] == "bea@example.com"  # nothing happened

    r = await bea_phone.post("/api/me/delete", json={"confirm": True})
    assert r.status_code == 200 and r.json() == {"deleted": True}
    assert unnumbered(await asyncio.wait_for(page.get(), 1)) == {
        "type": "signed_out",
        "user_id": bea_id,
        "reason": "deleted",
    }
    for c in (bea_phone, bea_laptop):
        assert (await c.get("/api/me")).status_code == 401
    async with app.state.sessionmaker() as db:
        row = await db.get(User, bea_id)
        assert row is not None
        assert (row.email, row.first_name, row.disabled) == (None, FORMER_PLAYER, True)
        assert row.deleted_at is not None
        for model, where in (
            (UserSession, UserSession.user_id == bea_id),
            (Friendship, Friendship.addressee_id == cy_id),
            (FriendInvitation, FriendInvitation.inviter_id == bea_id),
            (LoginToken, LoginToken.email == "bea@example.com"),
            (ChatMute, ChatMute.owner_id == bea_id),  # whatever goes with the account, goes
            (UserBlock, UserBlock.target_id == bea_id),
        ):
            assert await db.scalar(select(func.count()).select_from(model).where(where)) == 0
        assert await db.scalar(select(DealPlayer.seat).where(DealPlayer.user_id == bea_id)) == 0
    # Cy's history keeps the deal, with Bea's seat as a former player
    replay = (await cy.get(f"/api/web/replay/{deal}")).json()
    assert replay["names"] == [FORMER_PLAYER, None, "Cy", None]
    assert (await cy.get("/api/friends")).json()["friends"] == []
    # the address is free: signing up again makes a new account
    again = await sign_in(app, "bea@example.com", "Bea")
    assert (await _me(again))["id"] != bea_id
    assert (await again.get("/api/friends")).json()["incoming"] == []  # nothing came back


async def test_deleting_an_account_is_told_to_everyone_whose_friends_lists_show_it(
    app: FastAPI,
) -> None:
    """Their open Friends pages drop the account at once, as if it had ended each link by
    hand (before, they were told nothing and listed it, by its old name, until a reload)."""
    await sign_in(app, "ada@example.com", "Ada")
    bea = await sign_in(app, "bea@example.com", "Bea")
    cy = await sign_in(app, "cy@example.com", "Cy")
    dee = await sign_in(app, "dee@example.com", "Dee")
    eve = await sign_in(app, "eve@example.com", "Eve")
    await befriend(bea, cy, "cy@example.com")
    assert (await bea.post("/api/friends/requests", json={"email": "dee@example.com"})).is_success
    assert (await eve.post("/api/friends/requests", json={"email": "bea@example.com"})).is_success
    bea_id, cy_id, dee_id, eve_id = [(await _me(c))["id"] for c in (bea, cy, dee, eve)]
    pages = {u: app.state.live.subscribe(u) for u in (cy_id, dee_id, eve_id)}
    assert await app.state.live.presence.friends_of(cy_id) == {bea_id}  # cached now
    topics: list[tuple[str, dict[str, Any]]] = []  # what the watching pages are sent
    to_watchers = app.state.live.to_watchers

    async def watched(topic: str, message: dict[str, Any]) -> None:
        topics.append((topic, message))
        await to_watchers(topic, message)

    app.state.live.to_watchers = watched

    assert (await bea.post("/api/me/delete", json={})).status_code == 422
    assert all(page.empty() for page in pages.values())  # refused: nothing told
    assert (await bea.post("/api/me/delete", json={"confirm": True})).is_success
    gone = {"user_id": bea_id, "name": FORMER_PLAYER}
    told = {u: [unnumbered(m) for m in drain(q)] for u, q in pages.items()}
    assert told == {
        cy_id: [{"type": "friend_removed", **gone}],
        dee_id: [{"type": "friend_cancelled", **gone}],
        eve_id: [{"type": "friend_declined", **gone}],
    }
    assert await app.state.live.presence.friends_of(cy_id) == frozenset()
    listed = [m for topic, m in topics if topic == "accounts"]  # the admins' list of accounts
    assert {"type": "account_listed", "user_id": cy_id, "change": "friends"} in listed
    assert {"type": "account_listed", "user_id": bea_id, "change": "deleted"} in listed
    for c in (cy, dee, eve):
        lists = (await c.get("/api/friends")).json()
        assert lists["friends"] == lists["incoming"] == lists["outgoing"] == []


async def test_the_only_admin_cannot_delete_their_account(app: FastAPI) -> None:
    ada = await sign_in(app, "ada@example.com", "Ada")
    r = await ada.post("/api/me/delete", json={"confirm": True})
    assert r.status_code == 409 and "only admin" in r.json()["detail"]
    assert (await _me(ada))["is_admin"]
    assert (await client_for(app).post("/api/me/delete", json={"confirm": True})).status_code == 401


async def test_deleting_closes_open_sockets_and_hosted_tables(live: LiveServer) -> None:
    ada = await live.sign_in("ada@example.com", "Ada")
    bea = await live.sign_in("bea@example.com", "Bea")
    r = await bea.post("/api/tables", json={"kind": "private"})
    assert r.status_code == 201, r.text
    beas_table = r.json()["id"]
    r = await ada.post("/api/tables", json={"kind": "private"})
    adas_table, code = r.json()["id"], r.json()["invite_code"]
    r = await bea.post(f"/api/tables/{adas_table}/join", json={"code": code})
    assert r.status_code == 200, r.text
    at_home = await TableSocket(live, bea, beas_table).connect()
    visiting = await TableSocket(live, bea, adas_table, f"code={code}").connect()
    page = await MeSocket(live, bea).connect()
    bea_id = int(page.hello["user_id"]) if "user_id" in page.hello else None
    r = await bea.post("/api/me/delete", json={"confirm": True})
    assert r.status_code == 200
    # the live channel says so, then closes; it cannot come back
    told = await page.next("signed_out", timeout=2)
    assert told["reason"] == "deleted" and (bea_id is None or told["user_id"] == bea_id)
    if hasattr(LiveHub, "close_pages"):  # the live package's, landing on main
        assert await page.closed_with(2) == 4401
    assert await refused(live, bea) == 4401
    for sock in (at_home, visiting):  # the server closed both, at once
        assert sock.reader is not None
        await asyncio.wait_for(sock.reader, 2)
        assert sock.ws.close_code is not None
    assert (await ada.get(f"/api/tables/{adas_table}")).status_code == 200  # Ada's stays open
    assert (await ada.get(f"/api/tables/{beas_table}")).status_code == 404  # Bea's closed
    # and a socket cannot come back
    try:
        await TableSocket(live, bea, adas_table, f"code={code}").connect()
        raise AssertionError("a deleted account's socket was accepted")
    except Exception as e:  # refused at the handshake or closed at once
        assert "4401" in str(e), e


async def test_used_codes_and_ended_sessions_are_not_kept(app: FastAPI) -> None:
    """What the privacy page promises: a sign-in code goes once used or expired, a session
    once it ended."""
    bea = await sign_in(app, "bea@example.com", "Bea")
    assert (await bea.post("/api/auth/logout")).status_code == 200
    await sign_in(app, "cy@example.com", "Cy")
    async with app.state.sessionmaker() as db:
        codes = await db.scalars(select(LoginToken.email))
        assert list(codes) == ["cy@example.com"]  # Bea's used code went with Cy's request
        sessions = await db.scalars(select(UserSession.user_id))
        assert len(list(sessions)) == 1  # Bea's ended session went with Cy's sign-in
