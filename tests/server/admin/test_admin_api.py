"""The admin page's API: every admin action refused to anonymous, guest, basic and standard
callers (and nothing changed by them), done for an admin; bad input refused; and a tier request
from the asking to the granting, the asker told live."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi import FastAPI

from twentynine.server.admin import requests as tier_requests

from ..conftest import Client, client_for, sign_in, unnumbered
from ..test_authorization import set_tier

ROLES = ("anonymous", "guest", "basic", "standard", "admin")


@dataclass
class World:
    clients: dict[str, Client]
    ids: dict[str, int]
    target: int  # a basic account the actions are done to
    asked: int  # the target's pending tier request
    other_asked: int  # another basic account's pending request (declined)
    table: str  # an open table (someone's private table)


async def _me(c: Client) -> dict[str, Any]:
    r = await c.get("/api/me")
    assert r.status_code == 200, r.text
    return dict(r.json())


async def build(app: FastAPI) -> World:
    clients = {"admin": await sign_in(app, "ada@example.com", "Ada")}  # first: the admin
    clients["standard"] = await sign_in(app, "sol@example.com", "Sol")
    await set_tier(app, "sol@example.com", "standard")
    clients["basic"] = await sign_in(app, "bea@example.com", "Bea")
    guest = client_for(app)
    assert (await guest.post("/api/auth/guest", json={"first_name": "Gus"})).status_code == 200
    clients["guest"] = guest
    clients["anonymous"] = client_for(app)
    target = await sign_in(app, "tara@example.com", "Tara")
    other = await sign_in(app, "otto@example.com", "Otto")
    r = await target.post("/api/tier-requests", json={"note": "I run our Friday game"})
    assert r.status_code == 201, r.text
    asked = int(r.json()["id"])
    r = await other.post("/api/tier-requests", json={})
    assert r.status_code == 201, r.text
    other_asked = int(r.json()["id"])
    r = await other.post("/api/tables", json={"kind": "private"})
    assert r.status_code == 201, r.text
    ids = {role: int((await _me(c))["id"]) for role, c in clients.items() if role != "anonymous"}
    return World(
        clients=clients,
        ids=ids,
        target=int((await _me(target))["id"]),
        asked=asked,
        other_asked=other_asked,
        table=r.json()["id"],
    )


def actions(w: World) -> list[tuple[str, str, dict[str, Any] | None, int]]:
    """Every admin action: method, path, body, the admin's status."""
    return [
        ("GET", "/api/admin/users", None, 200),
        ("GET", "/api/admin/users?q=tara", None, 200),
        ("POST", f"/api/admin/users/{w.target}/tier", {"tier": "standard_guest"}, 200),
        ("POST", f"/api/admin/users/{w.target}/disable", None, 200),
        ("POST", f"/api/admin/users/{w.target}/enable", None, 200),
        ("POST", f"/api/admin/users/{w.target}/admin", None, 200),
        ("GET", "/api/admin/tier-requests", None, 200),
        ("POST", f"/api/admin/tier-requests/{w.asked}/grant", None, 200),
        ("POST", f"/api/admin/tier-requests/{w.other_asked}/decline", None, 200),
        ("GET", "/api/admin/tables", None, 200),
        ("POST", f"/api/admin/tables/{w.table}/close", None, 200),
    ]


async def snapshot(app: FastAPI, w: World) -> dict[str, Any]:
    """What the admin actions change, read as an admin would."""
    admin = w.clients["admin"]
    users = (await admin.get("/api/admin/users?q=tara")).json()["accounts"]
    pending = (await admin.get("/api/admin/tier-requests")).json()
    tables = (await admin.get("/api/admin/tables")).json()
    return {
        "target": [(u["tier"], u["disabled"], u["is_admin"]) for u in users],
        "pending": sorted(r["id"] for r in pending),
        "tables": [t["id"] for t in tables],
    }


async def test_every_admin_action_is_for_admins_only(app: FastAPI) -> None:
    w = await build(app)
    before = await snapshot(app, w)
    assert before == {
        "target": [("basic", False, False)],
        "pending": sorted([w.asked, w.other_asked]),
        "tables": [w.table],
    }
    wrong: list[str] = []
    for role in ROLES[:-1]:
        for method, path, body, _ in actions(w):
            r = await w.clients[role].request(method, path, json=body)
            want = 401 if role == "anonymous" else 403
            if r.status_code != want:
                wrong.append(f"{role} {method} {path}: {r.status_code} {r.text[:100]}")
    assert wrong == []
    assert await snapshot(app, w) == before  # nobody but an admin changed anything

    for method, path, body, status in actions(w):
        r = await w.clients["admin"].request(method, path, json=body)
        if r.status_code != status:
            wrong.append(f"admin {method} {path}: {r.status_code} {r.text[:100]}")
    assert wrong == []
    after = await snapshot(app, w)
    # granted after the tier was set: the grant gives the tier asked for, standard
    assert after == {"target": [("standard", False, True)], "pending": [], "tables": []}


async def test_admin_actions_refuse_bad_input(app: FastAPI) -> None:
    w = await build(app)
    admin = w.clients["admin"]
    me = w.ids["admin"]
    big = 2**31
    cases: list[tuple[str, str, dict[str, Any] | None, int]] = [
        ("POST", "/api/admin/users/999999/tier", {"tier": "standard"}, 404),
        ("POST", f"/api/admin/users/{w.target}/tier", {"tier": "guest"}, 422),
        ("POST", f"/api/admin/users/{w.target}/tier", {"tier": "standard", "x": 1}, 422),
        ("POST", f"/api/admin/users/{w.target}/tier", None, 422),
        ("POST", f"/api/admin/users/{big}/disable", None, 422),
        ("POST", "/api/admin/users/0/enable", None, 422),
        ("POST", "/api/admin/users/abc/admin", None, 422),
        ("POST", f"/api/admin/users/{w.ids['guest']}/tier", {"tier": "standard"}, 404),
        ("POST", f"/api/admin/users/{me}/disable", None, 409),  # not yourself
        ("POST", "/api/admin/tier-requests/999999/grant", None, 404),
        ("POST", f"/api/admin/tier-requests/{big}/decline", None, 422),
        ("POST", "/api/admin/tables/nosuchtable/close", None, 404),
        ("POST", "/api/admin/tables/no%20such/close", None, 422),
        ("GET", "/api/admin/users?q=" + "x" * 321, None, 422),
    ]
    before = await snapshot(app, w)
    wrong = []
    for method, path, body, status in cases:
        r = await admin.request(method, path, json=body)
        if r.status_code != status:
            wrong.append(f"{method} {path}: {r.status_code} {r.text[:100]}")
    assert wrong == []
    assert await snapshot(app, w) == before
    assert (await _me(admin))["is_admin"] and not (await _me(admin)).get("disabled")
    # a request is decided once
    assert (await admin.post(f"/api/admin/tier-requests/{w.asked}/decline")).status_code == 200
    r = await admin.post(f"/api/admin/tier-requests/{w.asked}/grant")
    assert r.status_code == 409 and "declined already" in r.json()["detail"]


async def test_search_and_the_account_list(app: FastAPI) -> None:
    w = await build(app)
    admin = w.clients["admin"]
    found = (await admin.get("/api/admin/users?q=TARA")).json()
    assert [a["email"] for a in found["accounts"]] == ["tara@example.com"] and not found["more"]
    by_name = (await admin.get("/api/admin/users?q=ott")).json()["accounts"]
    assert [a["first_name"] for a in by_name] == ["Otto"]
    everyone = (await admin.get("/api/admin/users")).json()["accounts"]
    assert "Gus" not in [a["first_name"] for a in everyone]  # guests are not accounts
    assert (await admin.get("/api/admin/users?q=%25")).json()["accounts"] == everyone


async def test_disabling_signs_out_at_once_and_enabling_lets_in_again(app: FastAPI) -> None:
    w = await build(app)
    admin, basic = w.clients["admin"], w.clients["basic"]
    queue = app.state.live.subscribe(w.ids["basic"])
    r = await admin.post(f"/api/admin/users/{w.ids['basic']}/disable")
    assert r.status_code == 200 and r.json()["disabled"]
    assert (await basic.get("/api/me")).status_code == 401
    told = unnumbered(await asyncio.wait_for(queue.get(), 1))
    assert told == {"type": "signed_out", "user_id": w.ids["basic"], "reason": "disabled"}
    r = await client_for(app).post("/api/auth/email", json={"email": "bea@example.com"})
    assert r.status_code == 403
    assert (await admin.post(f"/api/admin/users/{w.ids['basic']}/enable")).status_code == 200
    again = await sign_in(app, "bea@example.com")
    assert (await _me(again))["email"] == "bea@example.com"


# -- the tier request, from asking to granted ----------------------------------------------------
async def test_a_tier_request_from_asking_to_granted(app: FastAPI) -> None:
    admin = await sign_in(app, "ada@example.com", "Ada")
    bea = await sign_in(app, "bea@example.com", "Bea")
    admin_id, bea_id = int((await _me(admin))["id"]), int((await _me(bea))["id"])
    admins_page = app.state.live.subscribe(admin_id)
    beas_page = app.state.live.subscribe(bea_id)

    assert (await bea.get("/api/tier-requests/mine")).json() == {"request": None}
    r = await bea.post("/api/tables/hosted", json={"players": [1, 2, 3]})
    assert r.status_code == 403 and "cannot host" in r.json()["detail"]
    assert r.headers["X-Error-Reason"] == "cannot_host"  # (the page's own words for it)
    r = await bea.post("/api/tier-requests", json={"note": "I host our Friday game"})
    assert r.status_code == 201, r.text
    asked = r.json()
    assert (asked["status"], asked["note"], asked["tier"]) == (
        "pending",
        "I host our Friday game",
        "standard",
    )
    news = unnumbered(await asyncio.wait_for(admins_page.get(), 1))
    assert news == {
        "type": "tier_request",
        "request_id": asked["id"],
        "user_id": bea_id,
        "name": "Bea",
        "tier": "standard",
        "status": "pending",
    }
    mail = app.state.mailer.outbox[0]
    assert mail.to == "ada@example.com" and "Bea" in mail.subject and "Friday" in mail.body
    # one pending request at a time
    r = await bea.post("/api/tier-requests", json={})
    assert r.status_code == 409 and "waiting" in r.json()["detail"]

    pending = (await admin.get("/api/admin/tier-requests")).json()
    assert [(p["id"], p["email"], p["note"]) for p in pending] == [
        (asked["id"], "bea@example.com", "I host our Friday game")
    ]
    r = await admin.post(f"/api/admin/tier-requests/{asked['id']}/grant")
    assert r.status_code == 200 and r.json()["status"] == "granted"

    told = [unnumbered(await asyncio.wait_for(beas_page.get(), 1)) for _ in range(2)]
    assert told[0] == {**news, "status": "granted"}
    assert told[1] == {
        "type": "account_changed",
        "user_id": bea_id,
        "name": "Bea",
        "tier": "standard",
        "is_admin": False,
    }
    assert (await _me(bea))["tier"] == "standard"
    mine = (await bea.get("/api/tier-requests/mine")).json()["request"]
    assert mine["status"] == "granted" and mine["decided_at"]
    assert (await admin.get("/api/admin/tier-requests")).json() == []
    # standard now: hosting is refused for want of friends, no longer for the tier
    r = await bea.post("/api/tables/hosted", json={"players": [1, 2, 3]})
    assert "cannot host" not in r.text
    r = await bea.post("/api/tier-requests", json={})
    assert r.status_code == 409 and "host games already" in r.json()["detail"]


async def test_a_declined_request_may_be_asked_again_within_limits(app: FastAPI) -> None:
    admin = await sign_in(app, "ada@example.com", "Ada")
    bea = await sign_in(app, "bea@example.com", "Bea")
    bea_id = int((await _me(bea))["id"])
    page = app.state.live.subscribe(bea_id)
    for _ in range(tier_requests.REQUESTS_PER_DAY):
        r = await bea.post("/api/tier-requests", json={"note": "please"})
        assert r.status_code == 201, r.text
        assert (await admin.post(f"/api/admin/tier-requests/{r.json()['id']}/decline")).is_success
        told = unnumbered(await asyncio.wait_for(page.get(), 1))
        assert (told["type"], told["status"]) == ("tier_request", "declined")
    assert (await _me(bea))["tier"] == "basic"
    r = await bea.post("/api/tier-requests", json={})
    assert r.status_code == 429


@pytest.mark.parametrize(
    ("body", "status"),
    [({"note": "x" * 501}, 422), ({"note": "a\x00b"}, 422), ({"tier": "standard"}, 422)],
)
async def test_tier_request_bad_input(app: FastAPI, body: dict[str, Any], status: int) -> None:
    await sign_in(app, "ada@example.com", "Ada")
    bea = await sign_in(app, "bea@example.com", "Bea")
    assert (await bea.post("/api/tier-requests", json=body)).status_code == status
    assert (await bea.get("/api/tier-requests/mine")).json() == {"request": None}


async def test_who_may_ask_for_a_tier(app: FastAPI) -> None:
    await sign_in(app, "ada@example.com", "Ada")
    anon = client_for(app)
    assert (await anon.post("/api/tier-requests", json={})).status_code in (401, 403)
    assert (await anon.get("/api/tier-requests/mine")).status_code == 401
    guest = client_for(app)
    await guest.post("/api/auth/guest", json={})
    r = await guest.post("/api/tier-requests", json={})
    assert r.status_code == 403 and "guests" in r.json()["detail"]
