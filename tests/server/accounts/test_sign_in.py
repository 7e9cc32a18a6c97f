"""Sign-in by email code and link, guests, profile, sign-out, CSRF, rate limits."""

from __future__ import annotations

from fastapi import FastAPI
from sqlalchemy import select

from twentynine.server.accounts.models import LoginToken
from twentynine.server.admin import service as admin

from ..conftest import Client, client_for, last_code, sign_in


async def test_health(anon: Client) -> None:
    r = await anon.get("/healthz")
    assert r.status_code == 200 and r.json() == {"status": "ok"}


async def test_sign_up_with_code_first_user_is_admin(app: FastAPI, anon: Client) -> None:
    r = await anon.post("/api/auth/email", json={"email": "Asha@Example.com", "first_name": "Asha"})
    assert r.status_code == 202
    code, _ = last_code(app, "asha@example.com")
    r = await anon.post("/api/auth/code", json={"email": "asha@example.com", "code": code})
    assert r.status_code == 200
    me = r.json()
    assert me["first_name"] == "Asha" and me["tier"] == "standard" and me["is_admin"]
    cookie = r.headers.get_list("set-cookie")
    session = next(c for c in cookie if c.startswith("tn_session="))
    assert "HttpOnly" in session and "samesite=lax" in session.lower()
    assert (await anon.get("/api/me")).json()["email"] == "asha@example.com"
    # the code works once
    r = await client_for(app).post(
        "/api/auth/code", json={"email": "asha@example.com", "code": code}
    )
    assert r.status_code == 400
    # the second account gets the default tier and no admin
    other = await sign_in(app, "bo@example.com", "Bo")
    me2 = (await other.get("/api/me")).json()
    assert me2["tier"] == "basic" and not me2["is_admin"]


async def test_sign_in_with_link(app: FastAPI, anon: Client) -> None:
    await anon.post("/api/auth/email", json={"email": "c@example.com", "first_name": "C"})
    _, link = last_code(app, "c@example.com")
    r = await anon.get(f"/auth/link/{link}")
    assert r.status_code == 303
    assert (await anon.get("/api/me")).status_code == 200
    again = client_for(app)
    assert (await again.get(f"/auth/link/{link}")).status_code == 400


async def test_new_account_needs_first_name_and_bad_input_is_refused(anon: Client) -> None:
    r = await anon.post("/api/auth/email", json={"email": "new@example.com"})
    assert r.status_code == 400 and "first name" in r.json()["detail"]
    assert (await anon.post("/api/auth/email", json={"email": "not-an-email"})).status_code == 422
    r = await anon.post("/api/auth/code", json={"email": "x@example.com", "code": "12"})
    assert r.status_code == 422


async def test_wrong_codes_void_the_code(app: FastAPI, anon: Client) -> None:
    await anon.post("/api/auth/email", json={"email": "d@example.com", "first_name": "D"})
    code, _ = last_code(app, "d@example.com")
    wrong = "000000" if code != "000000" else "111111"
    for _ in range(5):
        r = await anon.post("/api/auth/code", json={"email": "d@example.com", "code": wrong})
        assert r.status_code == 400
    r = await anon.post("/api/auth/code", json={"email": "d@example.com", "code": code})
    assert r.status_code == 400


async def test_sign_in_requests_are_rate_limited(anon: Client) -> None:
    codes = []
    for _ in range(11):
        r = await anon.post("/api/auth/email", json={"email": "e@example.com", "first_name": "E"})
        codes.append(r.status_code)
    assert codes[:10] == [202] * 10 and codes[10] == 429


async def test_guest_profile_logout_and_csrf(app: FastAPI, anon: Client) -> None:
    r = await anon.post("/api/auth/guest", json={"first_name": "Visitor"})
    assert r.status_code == 200 and r.json()["is_guest"]
    r = await anon.patch("/api/me", json={"table_theme": "blue", "language": "bn"})
    assert r.status_code == 200 and r.json()["language"] == "bn"
    bad = await anon.patch("/api/me", json={"language": "xx"})
    assert bad.status_code == 422
    # without the CSRF header a state-changing request is refused
    r = await anon.patch("/api/me", json={"first_name": "X"}, headers={"x-csrf-token": "nope"})
    assert r.status_code == 403
    assert (await anon.post("/api/auth/logout")).status_code == 200
    assert (await anon.get("/api/me")).status_code == 401


async def test_outbox_only_in_dev_mode_on_loopback(app: FastAPI, anon: Client) -> None:
    assert (await anon.get("/dev/outbox")).status_code == 200
    import httpx2

    remote = httpx2.AsyncClient(
        transport=httpx2.ASGITransport(app=app, client=("203.0.113.9", 4000)), base_url="http://x"
    )
    assert (await remote.get("/dev/outbox")).status_code == 404


async def test_a_new_account_starts_in_the_page_language(app: FastAPI) -> None:
    """The sign-up's page was in Hindi: the new account is too (before, every new account
    was English, and the page turned English the moment its person signed up). An existing
    account keeps its own language, whatever the page asking; an unknown one is refused."""
    new = client_for(app)
    body = {"email": "meera@example.com", "first_name": "Meera", "language": "hi"}
    assert (await new.post("/api/auth/email", json=body)).status_code == 202
    code, _ = last_code(app, "meera@example.com")
    r = await new.post("/api/auth/code", json={"email": "meera@example.com", "code": code})
    assert r.status_code == 200 and r.json()["language"] == "hi", r.text
    again = client_for(app)
    body = {"email": "meera@example.com", "language": "bn"}
    assert (await again.post("/api/auth/email", json=body)).status_code == 202
    code, _ = last_code(app, "meera@example.com")
    r = await again.post("/api/auth/code", json={"email": "meera@example.com", "code": code})
    assert r.status_code == 200 and r.json()["language"] == "hi", r.text
    plain = await sign_in(app, "ravi@example.com", "Ravi")  # no language asked: English
    assert (await plain.get("/api/me")).json()["language"] == "en"
    body = {"email": "x@example.com", "first_name": "X", "language": "fr"}
    assert (await client_for(app).post("/api/auth/email", json=body)).status_code == 422
    r = await client_for(app).post(
        "/api/auth/code", json={"email": "x@example.com", "code": "123456"}
    )
    assert r.status_code == 400 and r.headers["X-Error-Reason"] == "wrong_code"


async def test_a_disabled_accounts_code_and_link_are_refused_and_left_as_they_were(
    app: FastAPI, anon: Client
) -> None:
    """A refusal changes nothing: the account's code and link are not used up by it (found by
    the HTTP fuzzer), and work once the account is enabled again, within their time."""
    await sign_in(app, "e@example.com", "E")
    await anon.post("/api/auth/email", json={"email": "e@example.com"})
    code, link = last_code(app, "e@example.com")
    async with app.state.sessionmaker() as db:
        await admin.disable_user(db, "e@example.com")

    async def unused() -> list[bool]:
        async with app.state.sessionmaker() as db:
            rows = await db.scalars(select(LoginToken).where(LoginToken.email == "e@example.com"))
            return [t.used_at is None for t in rows]

    before = await unused()
    assert before[-1]  # the newest: the code and link just sent
    r = await anon.get(f"/auth/link/{link}")
    assert r.status_code == 403 and "disabled" in r.text
    r = await anon.post("/api/auth/code", json={"email": "e@example.com", "code": code})
    assert r.status_code == 403 and r.json()["detail"] == "this account is disabled"
    assert await unused() == before
    assert (await anon.get("/api/me")).status_code == 401

    async with app.state.sessionmaker() as db:
        await admin.enable_user(db, "e@example.com")
    assert (await anon.get(f"/auth/link/{link}")).status_code == 303
    assert (await anon.get("/api/me")).json()["email"] == "e@example.com"
