"""Invitations by mail to people with no account: the mail, the request that waits and becomes
a real one at sign-up, withdrawing, limits, and that nothing more is revealed about which
addresses have accounts than the request flow already says."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import FastAPI

from twentynine.server.admin import service as admin
from twentynine.server.friends import invitations, service

from ..conftest import Client, client_for, sign_in, unnumbered


async def _id(c: Client) -> int:
    return int((await c.get("/api/me")).json()["id"])


def mails_to(app: FastAPI, email: str) -> list[Any]:
    """The invitations mailed to ``email``."""
    return [m for m in app.state.mailer.outbox if m.to == email and "invites you" in m.subject]


async def test_an_invitation_becomes_a_request_at_sign_up(app: FastAPI) -> None:
    asha = await sign_in(app, "asha@example.com", "Asha")
    asha_id = await _id(asha)
    r = await asha.post("/api/friends/requests", json={"email": "Nia@Example.com"})
    assert r.status_code == 404 and r.json()["detail"] == service.NO_ACCOUNT  # as before
    r = await asha.post("/api/friends/invitations", json={"email": "Nia@Example.com"})
    assert r.status_code == 201, r.text
    assert r.json()["email"] == "nia@example.com"
    [mail] = mails_to(app, "nia@example.com")
    assert "Asha invites you" in mail.subject
    assert "asha@example.com" in mail.body and "/#/signin" in mail.body
    listed = (await asha.get("/api/friends/invitations")).json()
    assert [i["email"] for i in listed] == ["nia@example.com"]
    r = await asha.post("/api/friends/invitations", json={"email": "nia@example.com"})
    assert r.status_code == 409 and "already" in r.json()["detail"]

    ashas_page = app.state.live.subscribe(asha_id)
    nia = await sign_in(app, "nia@example.com", "Nia")
    told = unnumbered(await asyncio.wait_for(ashas_page.get(), 1))  # Asha's Friends page follows
    nia_id = (await nia.get("/api/me")).json()["id"]
    assert told == {"type": "friend_requested", "user_id": nia_id, "name": "Nia"}
    theirs = (await nia.get("/api/friends")).json()
    assert [f["id"] for f in theirs["incoming"]] == [asha_id]
    assert [f["first_name"] for f in (await asha.get("/api/friends")).json()["outgoing"]] == ["Nia"]
    assert (await asha.get("/api/friends/invitations")).json() == []  # became the request
    r = await nia.post(f"/api/friends/requests/{asha_id}/accept")
    assert r.status_code == 200
    assert [f["first_name"] for f in (await asha.get("/api/friends")).json()["friends"]] == ["Nia"]


async def test_withdrawing_an_invitation(app: FastAPI) -> None:
    asha = await sign_in(app, "asha@example.com", "Asha")
    bo = await sign_in(app, "bo@example.com", "Bo")
    r = await asha.post("/api/friends/invitations", json={"email": "nia@example.com"})
    invitation = r.json()["id"]
    assert (await bo.delete(f"/api/friends/invitations/{invitation}")).status_code == 404
    assert (await asha.delete("/api/friends/invitations/999999")).status_code == 404
    assert (await asha.delete("/api/friends/invitations/0")).status_code == 422
    assert (await asha.delete(f"/api/friends/invitations/{invitation}")).status_code == 200
    nia = await sign_in(app, "nia@example.com", "Nia")
    assert (await nia.get("/api/friends")).json()["incoming"] == []


async def test_an_invitation_reveals_no_more_than_a_request(app: FastAPI) -> None:
    """An address with an account: the request flow says so (it sends the request); the
    invitation answers 409. A disabled account's address: the request flow says "no account";
    the invitation answers exactly as for an address without one, and mails nobody."""
    asha = await sign_in(app, "asha@example.com", "Asha")
    await sign_in(app, "bo@example.com", "Bo")
    await sign_in(app, "cy@example.com", "Cy")
    async with app.state.sessionmaker() as db:
        await admin.disable_user(db, "cy@example.com")

    r = await asha.post("/api/friends/invitations", json={"email": "bo@example.com"})
    assert r.status_code == 409 and "ask them as a friend" in r.json()["detail"]
    r = await asha.post("/api/friends/requests", json={"email": "cy@example.com"})
    assert r.status_code == 404 and r.json()["detail"] == service.NO_ACCOUNT
    before = len(app.state.mailer.outbox)
    disabled = await asha.post("/api/friends/invitations", json={"email": "cy@example.com"})
    nobody = await asha.post("/api/friends/invitations", json={"email": "nobody@example.com"})
    assert disabled.status_code == nobody.status_code == 201
    assert set(disabled.json()) == set(nobody.json()) == {"id", "email", "created_at"}
    assert len(app.state.mailer.outbox) == before + 1
    assert not mails_to(app, "cy@example.com") and mails_to(app, "nobody@example.com")
    r = await asha.post("/api/friends/invitations", json={"email": "asha@example.com"})
    assert r.status_code == 400


async def test_invitations_are_rate_limited(app: FastAPI) -> None:
    asha = await sign_in(app, "asha@example.com", "Asha")
    for i in range(invitations.INVITES_PER_DAY):
        r = await asha.post("/api/friends/invitations", json={"email": f"p{i}@example.com"})
        assert r.status_code == 201, r.text
    r = await asha.post("/api/friends/invitations", json={"email": "one-more@example.com"})
    assert r.status_code == 429
    assert len((await asha.get("/api/friends/invitations")).json()) == invitations.INVITES_PER_DAY

    # one address gets a few invitations a week, from everyone together
    for n in range(invitations.MAILS_PER_ADDRESS):
        c = await sign_in(app, f"inviter{n}@example.com", "Ivy")
        r = await c.post("/api/friends/invitations", json={"email": "popular@example.com"})
        assert r.status_code == 201, r.text
    late = await sign_in(app, "late@example.com", "Lee")
    r = await late.post("/api/friends/invitations", json={"email": "popular@example.com"})
    assert r.status_code == 429
    assert len(mails_to(app, "popular@example.com")) == invitations.MAILS_PER_ADDRESS


async def test_invitations_and_the_request_limit_share_one_count(app: FastAPI) -> None:
    asha = await sign_in(app, "asha@example.com", "Asha")
    for i in range(service.REQUESTS_PER_HOUR):
        r = await asha.post("/api/friends/requests", json={"email": f"x{i}@example.com"})
        assert r.status_code == 404
    r = await asha.post("/api/friends/invitations", json={"email": "new@example.com"})
    assert r.status_code == 429 and not mails_to(app, "new@example.com")


async def test_who_may_invite(app: FastAPI) -> None:
    await sign_in(app, "asha@example.com", "Asha")
    anon = client_for(app)
    assert (await anon.get("/api/friends/invitations")).status_code == 401
    r = await anon.post("/api/friends/invitations", json={"email": "n@example.com"})
    assert r.status_code == 401
    guest = client_for(app)
    await guest.post("/api/auth/guest", json={})
    r = await guest.post("/api/friends/invitations", json={"email": "n@example.com"})
    assert r.status_code == 403 and not mails_to(app, "n@example.com")
    member = await sign_in(app, "bo@example.com", "Bo")
    for body in ({"email": "not-an-address"}, {}, {"email": "n@example.com", "x": 1}):
        assert (await member.post("/api/friends/invitations", json=body)).status_code == 422
    assert not mails_to(app, "n@example.com")
