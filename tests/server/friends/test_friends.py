"""Friends by email: request, accept, decline, cancel, remove, crossing requests; the tiers'
friend limits on both sides; every refusal; guests, anonymous callers and CSRF."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from twentynine.server.admin import service as admin
from twentynine.server.friends import service
from twentynine.server.friends.models import Friendship

from ..conftest import Client, client_for, sign_in


async def member(app: FastAPI, email: str, name: str, tier: str = "basic") -> tuple[Client, int]:
    """A signed-in account with the given tier (set by the admin service)."""
    c = await sign_in(app, email, name)
    me = (await c.get("/api/me")).json()
    await set_tier(app, email, tier)
    return c, int(me["id"])


async def set_tier(app: FastAPI, email: str, tier: str) -> None:
    async with app.state.sessionmaker() as db:
        await admin.set_tier(db, email, tier)


async def friends_of(c: Client) -> dict[str, Any]:
    r = await c.get("/api/friends")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def ids(people: list[dict[str, Any]]) -> list[int]:
    return [p["id"] for p in people]


async def links(app: FastAPI) -> int:
    async with app.state.sessionmaker() as db:
        return int(await db.scalar(select(func.count()).select_from(Friendship)) or 0)


async def are_friends(app: FastAPI, a: int, b: int) -> bool:
    async with app.state.sessionmaker() as db:
        return await service.are_friends(db, a, b)


async def make_friends(requester: Client, addressee: Client, email: str, requester_id: int) -> None:
    r = await requester.post("/api/friends/requests", json={"email": email})
    assert r.status_code == 201, r.text
    r = await addressee.post(f"/api/friends/requests/{requester_id}/accept")
    assert r.status_code == 200, r.text


# -- the flow -------------------------------------------------------------------------------------
async def test_request_accept_list_and_remove(app: FastAPI) -> None:
    asha, asha_id = await member(app, "asha@example.com", "Asha", "standard")
    bo, bo_id = await member(app, "bo@example.com", "Bo", "basic")
    empty = {"friends": [], "incoming": [], "outgoing": [], "limit": 50, "count": 0}
    assert await friends_of(asha) == empty

    # by email, in any case
    r = await asha.post("/api/friends/requests", json={"email": "Bo@Example.COM"})
    assert r.status_code == 201
    bo_card = {"id": bo_id, "first_name": "Bo", "email": "bo@example.com"}
    asha_card = {"id": asha_id, "first_name": "Asha", "email": "asha@example.com"}
    assert r.json() == {"status": "requested", "user": bo_card}
    mine, theirs = await friends_of(asha), await friends_of(bo)
    assert mine["outgoing"] == [bo_card] and mine["incoming"] == [] and mine["count"] == 0
    assert theirs["incoming"] == [asha_card] and theirs["outgoing"] == [] and theirs["limit"] == 10
    assert not await are_friends(app, asha_id, bo_id)  # a request is not a friendship

    r = await bo.post(f"/api/friends/requests/{asha_id}/accept")
    assert r.status_code == 200 and r.json() == {"status": "accepted", "user": asha_card}
    mine, theirs = await friends_of(asha), await friends_of(bo)
    assert mine == {"friends": [bo_card], "incoming": [], "outgoing": [], "limit": 50, "count": 1}
    assert theirs == {
        "friends": [asha_card],
        "incoming": [],
        "outgoing": [],
        "limit": 10,
        "count": 1,
    }
    assert await are_friends(app, asha_id, bo_id) and await are_friends(app, bo_id, asha_id)
    async with app.state.sessionmaker() as db:
        assert await service.friend_ids(db, asha_id) == {bo_id}
        assert await service.friend_ids(db, bo_id) == {asha_id}
        assert not await service.are_friends(db, asha_id, asha_id)

    # the requester removes the friend
    r = await asha.delete(f"/api/friends/{bo_id}")
    assert r.status_code == 200 and r.json() == {"status": "removed", "user": bo_card}
    assert (await friends_of(bo))["friends"] == [] and (await friends_of(bo))["count"] == 0
    assert not await are_friends(app, asha_id, bo_id) and await links(app) == 0
    r = await asha.delete(f"/api/friends/{bo_id}")
    assert r.status_code == 404 and r.json()["detail"] == "you are not friends with that account"

    # and the addressee can remove too
    await make_friends(asha, bo, "bo@example.com", asha_id)
    r = await bo.delete(f"/api/friends/{asha_id}")
    assert r.status_code == 200 and r.json()["status"] == "removed"
    assert (await friends_of(asha))["friends"] == [] and not await are_friends(app, asha_id, bo_id)


async def test_lists_are_sorted_by_name(app: FastAPI) -> None:
    asha, _ = await member(app, "asha@example.com", "asha", "standard")
    people = (("z@example.com", "Zia"), ("b@example.com", "bina"), ("c@example.com", "Cy"))
    for email, name in people:
        await member(app, email, name)
        assert (await asha.post("/api/friends/requests", json={"email": email})).status_code == 201
    names = [p["first_name"] for p in (await friends_of(asha))["outgoing"]]
    assert names == ["bina", "Cy", "Zia"]


async def test_decline_and_cancel(app: FastAPI) -> None:
    asha, asha_id = await member(app, "asha@example.com", "Asha", "standard")
    bo, bo_id = await member(app, "bo@example.com", "Bo")

    assert (await asha.post("/api/friends/requests", json={"email": "bo@example.com"})).is_success
    # only the addressee answers, only the requester cancels
    r = await asha.post(f"/api/friends/requests/{bo_id}/accept")
    assert r.status_code == 404 and r.json()["detail"] == "no friend request from that account"
    r = await asha.post(f"/api/friends/requests/{bo_id}/decline")
    assert r.status_code == 404 and r.json()["detail"] == "no friend request from that account"
    r = await bo.delete(f"/api/friends/requests/{asha_id}")
    assert r.status_code == 404 and r.json()["detail"] == "no friend request to that account"
    r = await bo.delete(f"/api/friends/{asha_id}")  # not friends yet
    assert r.status_code == 404
    assert await links(app) == 1

    r = await bo.post(f"/api/friends/requests/{asha_id}/decline")
    assert r.status_code == 200 and r.json()["status"] == "declined"
    assert r.json()["user"]["id"] == asha_id
    assert (await friends_of(asha))["outgoing"] == [] and (await friends_of(bo))["incoming"] == []
    assert not await are_friends(app, asha_id, bo_id) and await links(app) == 0
    r = await bo.post(f"/api/friends/requests/{asha_id}/decline")
    assert r.status_code == 404
    r = await bo.post(f"/api/friends/requests/{asha_id}/accept")  # nothing left to accept
    assert r.status_code == 404

    # a declined request can be made again, and withdrawn
    assert (await asha.post("/api/friends/requests", json={"email": "bo@example.com"})).is_success
    r = await asha.delete(f"/api/friends/requests/{bo_id}")
    assert r.status_code == 200 and r.json() == {
        "status": "cancelled",
        "user": {"id": bo_id, "first_name": "Bo", "email": "bo@example.com"},
    }
    assert (await friends_of(bo))["incoming"] == [] and await links(app) == 0
    r = await asha.delete(f"/api/friends/requests/{bo_id}")
    assert r.status_code == 404 and r.json()["detail"] == "no friend request to that account"
    r = await bo.post(f"/api/friends/requests/{asha_id}/accept")
    assert r.status_code == 404


async def test_crossing_request_accepts_the_other(app: FastAPI) -> None:
    asha, asha_id = await member(app, "asha@example.com", "Asha", "standard")
    bo, bo_id = await member(app, "bo@example.com", "Bo")
    assert (await asha.post("/api/friends/requests", json={"email": "bo@example.com"})).is_success
    r = await bo.post("/api/friends/requests", json={"email": "asha@example.com"})
    assert r.status_code == 200
    assert r.json() == {
        "status": "accepted",
        "user": {"id": asha_id, "first_name": "Asha", "email": "asha@example.com"},
    }
    assert await are_friends(app, asha_id, bo_id)
    assert await links(app) == 1  # one friendship, not two requests
    assert ids((await friends_of(asha))["friends"]) == [bo_id]
    assert (await friends_of(bo))["incoming"] == [] and (await friends_of(bo))["outgoing"] == []


async def test_request_errors(app: FastAPI) -> None:
    asha, asha_id = await member(app, "asha@example.com", "Asha", "standard")
    bo, bo_id = await member(app, "bo@example.com", "Bo")

    async def ask(c: Client, body: dict[str, Any]) -> tuple[int, Any]:
        r = await c.post("/api/friends/requests", json=body)
        return r.status_code, r.json()["detail"]

    assert await ask(asha, {"email": "nobody@example.com"}) == (404, "no account with that email")
    status, detail = await ask(asha, {"email": "ASHA@example.com"})
    assert status == 400 and "your own" in detail
    assert (await ask(asha, {"email": "not-an-email"}))[0] == 422
    assert (await ask(asha, {"email": "bo@example.com", "note": "hi"}))[0] == 422
    assert (await ask(asha, {}))[0] == 422

    assert (await asha.post("/api/friends/requests", json={"email": "bo@example.com"})).is_success
    assert await ask(asha, {"email": "bo@example.com"}) == (
        409,
        "you have already asked Bo to be friends",
    )
    assert (await bo.post(f"/api/friends/requests/{asha_id}/accept")).status_code == 200
    assert await ask(asha, {"email": "bo@example.com"}) == (409, "you are already friends with Bo")
    assert await ask(bo, {"email": "asha@example.com"}) == (
        409,
        "you are already friends with Asha",
    )
    r = await bo.post(f"/api/friends/requests/{asha_id}/accept")
    assert r.status_code == 409 and r.json()["detail"] == "you are already friends with Asha"
    assert await links(app) == 1

    # unknown ids and your own id
    for path in (
        "/api/friends/requests/999999/accept",
        "/api/friends/requests/999999/decline",
        f"/api/friends/requests/{bo_id}/accept",  # bo's own id
    ):
        assert (await bo.post(path)).status_code == 404, path
    assert (await bo.delete("/api/friends/requests/999999")).status_code == 404
    assert (await bo.delete("/api/friends/999999")).status_code == 404
    assert (await bo.post("/api/friends/requests/abc/accept")).status_code == 422

    # a disabled account cannot be found by email
    await member(app, "cy@example.com", "Cy")
    async with app.state.sessionmaker() as db:
        await admin.disable_user(db, "cy@example.com")
    assert await ask(asha, {"email": "cy@example.com"}) == (404, "no account with that email")


async def test_friend_requests_are_rate_limited(app: FastAPI) -> None:
    asha, _ = await member(app, "asha@example.com", "Asha", "standard")
    await member(app, "bo@example.com", "Bo")
    for i in range(service.REQUESTS_PER_HOUR):
        r = await asha.post("/api/friends/requests", json={"email": f"guess{i}@example.com"})
        assert r.status_code == 404
    r = await asha.post("/api/friends/requests", json={"email": "bo@example.com"})
    assert r.status_code == 429 and "too many" in r.json()["detail"]
    assert await links(app) == 0


# -- limits ---------------------------------------------------------------------------------------
async def test_limits_on_both_sides(app: FastAPI) -> None:
    ann, ann_id = await member(app, "ann@example.com", "Ann", "basic")
    dee, dee_id = await member(app, "dee@example.com", "Dee", "standard")
    zed, zed_id = await member(app, "zed@example.com", "Zed", "standard")
    eve, _ = await member(app, "eve@example.com", "Eve", "standard")
    # before Ann is full: she asks Dee, and Zed asks her
    assert (await ann.post("/api/friends/requests", json={"email": "dee@example.com"})).is_success
    assert (await zed.post("/api/friends/requests", json={"email": "ann@example.com"})).is_success
    # ten friends fill a basic account
    pals: list[tuple[Client, int]] = []
    for i in range(10):
        pal, pal_id = await member(app, f"pal{i}@example.com", f"Pal{i}", "standard")
        await make_friends(pal, ann, "ann@example.com", pal_id)
        pals.append((pal, pal_id))
    view = await friends_of(ann)
    assert (view["count"], view["limit"]) == (10, 10)
    assert ids(view["outgoing"]) == [dee_id] and ids(view["incoming"]) == [zed_id]

    full = "you have reached the 10 friends of a basic account"
    # Ann's own limit: the 11th request, accepting, and a crossing request all fail
    r = await ann.post("/api/friends/requests", json={"email": "eve@example.com"})
    assert r.status_code == 409 and r.json()["detail"] == full
    assert (await friends_of(eve))["incoming"] == []
    r = await ann.post(f"/api/friends/requests/{zed_id}/accept")
    assert r.status_code == 409 and r.json()["detail"] == full
    r = await ann.post("/api/friends/requests", json={"email": "zed@example.com"})
    assert r.status_code == 409 and r.json()["detail"] == full
    # others may still ask her: a request only checks the requester
    r = await eve.post("/api/friends/requests", json={"email": "ann@example.com"})
    assert r.status_code == 201

    # the other side is full: Dee (with room) cannot accept Ann's request, nor cross it
    theirs = "Ann has reached their friend limit"
    r = await dee.post(f"/api/friends/requests/{ann_id}/accept")
    assert r.status_code == 409 and r.json()["detail"] == theirs
    r = await dee.post("/api/friends/requests", json={"email": "ann@example.com"})
    assert r.status_code == 409 and r.json()["detail"] == theirs
    assert ids((await friends_of(dee))["incoming"]) == [ann_id]  # the request is still there
    assert not await are_friends(app, ann_id, dee_id)
    view = await friends_of(ann)
    assert view["count"] == 10 and len(view["friends"]) == 10

    # a place frees up: Dee can accept now, and Ann is full again
    pal0, pal0_id = pals[0]
    assert (await pal0.delete(f"/api/friends/{ann_id}")).status_code == 200
    r = await dee.post(f"/api/friends/requests/{ann_id}/accept")
    assert r.status_code == 200 and await are_friends(app, ann_id, dee_id)
    r = await ann.post(f"/api/friends/requests/{zed_id}/accept")
    assert r.status_code == 409 and r.json()["detail"] == full

    # a standard account has room for 50
    await set_tier(app, "ann@example.com", "standard")
    r = await ann.post(f"/api/friends/requests/{zed_id}/accept")
    assert r.status_code == 200
    view = await friends_of(ann)
    assert (view["count"], view["limit"]) == (11, 50)

    # back to basic: the friends are kept, new ones refused
    await set_tier(app, "ann@example.com", "basic")
    view = await friends_of(ann)
    assert (view["count"], view["limit"]) == (11, 10)
    r = await ann.post(f"/api/friends/requests/{pal0_id}/accept")
    assert r.status_code == 404  # (no request) — and a new request is refused by the limit
    r = await ann.post("/api/friends/requests", json={"email": "pal0@example.com"})
    assert r.status_code == 409 and r.json()["detail"] == full


async def test_the_acceptors_limit_when_the_requester_has_room(app: FastAPI) -> None:
    """A full standard_guest account cannot accept; the message names its own tier."""
    sam, sam_id = await member(app, "sam@example.com", "Sam", "standard_guest")
    kim, kim_id = await member(app, "kim@example.com", "Kim", "basic")
    async with app.state.sessionmaker() as db:
        await _give_friends(db, sam_id, 50)
    assert (await kim.post("/api/friends/requests", json={"email": "sam@example.com"})).is_success
    r = await sam.post(f"/api/friends/requests/{kim_id}/accept")
    assert r.status_code == 409
    assert r.json()["detail"] == "you have reached the 50 friends of a standard guest account"
    assert (await friends_of(sam))["count"] == 50
    # and from Kim's side, accepting Sam's (crossing) request names Sam
    r = await kim.post("/api/friends/requests", json={"email": "sam@example.com"})
    assert r.status_code == 409 and r.json()["detail"] == "you have already asked Sam to be friends"
    await kim.delete(f"/api/friends/requests/{sam_id}")
    async with app.state.sessionmaker() as db:
        db.add(Friendship(requester_id=sam_id, addressee_id=kim_id, status="pending"))
        await db.commit()
    r = await kim.post(f"/api/friends/requests/{sam_id}/accept")
    assert r.status_code == 409 and r.json()["detail"] == "Sam has reached their friend limit"


async def _give_friends(db: Any, user_id: int, n: int) -> None:
    """``n`` made-up accounts, all friends of ``user_id`` (faster than signing them all in)."""
    from twentynine.server.accounts.models import User

    users = [User(email=f"made{user_id}-{i}@example.com", first_name=f"M{i}") for i in range(n)]
    db.add_all(users)
    await db.flush()
    for i, u in enumerate(users):
        pair = (u.id, user_id) if i % 2 else (user_id, u.id)
        db.add(Friendship(requester_id=pair[0], addressee_id=pair[1], status="accepted"))
    await db.commit()


def widen_race(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Make the service pause after ``name`` reads, so racing requests surely interleave there
    unless something (the account locks) keeps them apart."""
    real = getattr(service, name)

    async def slow(*args: Any) -> Any:
        result = await real(*args)
        await asyncio.sleep(0.05)
        return result

    monkeypatch.setattr(service, name, slow)


async def test_racing_acceptances_do_not_pass_the_limit(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, ann_id = await member(app, "ann@example.com", "Ann", "basic")
    async with app.state.sessionmaker() as db:
        await _give_friends(db, ann_id, 9)
    others = [await member(app, f"o{i}@example.com", f"O{i}", "standard") for i in range(3)]
    for c, _ in others:
        assert (await c.post("/api/friends/requests", json={"email": "ann@example.com"})).is_success
    widen_race(monkeypatch, "friend_count")
    results = await asyncio.gather(
        *(ann.post(f"/api/friends/requests/{oid}/accept") for _, oid in others)
    )
    assert sorted(r.status_code for r in results) == [200, 409, 409]
    assert (await friends_of(ann))["count"] == 10


async def test_racing_crossing_requests_make_one_friendship(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    asha, asha_id = await member(app, "asha@example.com", "Asha", "standard")
    bo, bo_id = await member(app, "bo@example.com", "Bo", "standard")
    widen_race(monkeypatch, "_links")
    a, b = await asyncio.gather(
        asha.post("/api/friends/requests", json={"email": "bo@example.com"}),
        bo.post("/api/friends/requests", json={"email": "asha@example.com"}),
    )
    assert sorted((a.json()["status"], b.json()["status"])) == ["accepted", "requested"]
    assert await are_friends(app, asha_id, bo_id) and await links(app) == 1


# -- who may ------------------------------------------------------------------------------------
async def test_guests_anonymous_and_csrf(app: FastAPI, anon: Client) -> None:
    asha, asha_id = await member(app, "asha@example.com", "Asha", "standard")
    await member(app, "bo@example.com", "Bo")

    # anonymous: 401 everywhere
    assert (await anon.get("/api/friends")).status_code == 401
    r = await anon.post("/api/friends/requests", json={"email": "bo@example.com"})
    assert r.status_code == 401
    assert (await anon.post(f"/api/friends/requests/{asha_id}/accept")).status_code == 401
    assert (await anon.delete(f"/api/friends/{asha_id}")).status_code == 401

    # guests cannot have friends
    guest = client_for(app)
    assert (await guest.post("/api/auth/guest", json={"first_name": "Visitor"})).is_success
    r = await guest.get("/api/friends")
    assert r.status_code == 403 and "guests cannot have friends" in r.json()["detail"]
    r = await guest.post("/api/friends/requests", json={"email": "asha@example.com"})
    assert r.status_code == 403 and "guests cannot have friends" in r.json()["detail"]
    assert (await guest.post(f"/api/friends/requests/{asha_id}/accept")).status_code == 403
    assert (await guest.delete(f"/api/friends/requests/{asha_id}")).status_code == 403
    assert (await friends_of(asha))["incoming"] == []

    # a state change without the CSRF header is refused before it happens
    for header in ({"x-csrf-token": ""}, {"x-csrf-token": "wrong"}):
        r = await asha.post(
            "/api/friends/requests", json={"email": "bo@example.com"}, headers=header
        )
        assert r.status_code == 403 and "CSRF" in r.json()["detail"]
    assert (await friends_of(asha))["outgoing"] == [] and await links(app) == 0
    # (reading needs none)
    assert (await asha.get("/api/friends")).status_code == 200
