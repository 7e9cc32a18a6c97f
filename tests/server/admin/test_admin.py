"""Operator tools: the admin service (users, tables, tiers, disable/enable, admins) and the
``twentynine admin`` command line, on a fresh SQLite file and against a running app's database."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import select

from twentynine.server.accounts.models import User, UserSession
from twentynine.server.admin import cli
from twentynine.server.admin import service as admin
from twentynine.server.friends.models import Friendship
from twentynine.server.tables.models import GameTable

from ..conftest import Client, client_for, sign_in


async def me(c: Client) -> dict[str, Any]:
    r = await c.get("/api/me")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


async def add_tables(app: FastAPI, host_id: int) -> None:
    now = dt.datetime(2025, 1, 2, 3, 4)
    async with app.state.sessionmaker() as db:
        db.add(
            GameTable(id="hostedtable1", kind="hosted", host_id=host_id, rules={}, created_at=now)
        )
        db.add(
            GameTable(
                id="solotable001",
                kind="solo",
                host_id=None,
                rules={},
                status="playing",
                created_at=now + dt.timedelta(hours=1),
            )
        )
        await db.commit()


# -- the service ----------------------------------------------------------------------------------
async def test_list_users_and_tables(app: FastAPI) -> None:
    asha = await sign_in(app, "asha@example.com", "Asha")  # the first account: admin, standard
    bo = await sign_in(app, "bo@example.com", "Bo")
    guest = client_for(app)
    assert (await guest.post("/api/auth/guest", json={"first_name": "Visitor"})).is_success
    asha_id = int((await me(asha))["id"])
    bo_id = int((await me(bo))["id"])
    assert (await asha.post("/api/friends/requests", json={"email": "bo@example.com"})).is_success
    assert (await bo.post(f"/api/friends/requests/{asha_id}/accept")).is_success

    async with app.state.sessionmaker() as db:
        users = await admin.list_users(db)
        everyone = await admin.list_users(db, include_guests=True)
    assert [(u.id, u.email, u.tier, u.is_admin, u.disabled, u.friends) for u in users] == [
        (asha_id, "asha@example.com", "standard", True, False, 1),
        (bo_id, "bo@example.com", "basic", False, False, 1),
    ]
    assert [u.tier for u in everyone] == ["standard", "basic", "guest"]
    assert users[0].to_json()["created_at"] == users[0].created_at.isoformat()

    async with app.state.sessionmaker() as db:
        assert await admin.list_tables(db) == []
    await add_tables(app, asha_id)
    async with app.state.sessionmaker() as db:
        tables = await admin.list_tables(db)
    assert [(t.id, t.kind, t.host_id, t.host, t.status) for t in tables] == [
        ("solotable001", "solo", None, "", "playing"),  # newest first
        ("hostedtable1", "hosted", asha_id, "asha@example.com", "waiting"),
    ]


async def test_set_tier_and_make_admin(app: FastAPI) -> None:
    await sign_in(app, "asha@example.com", "Asha")
    bo = await sign_in(app, "bo@example.com", "Bo")
    assert (await me(bo))["tier"] == "basic"
    async with app.state.sessionmaker() as db:
        change = await admin.set_tier(db, "BO@example.com", "standard_guest")
    assert (change.old_tier, change.user.tier, change.friends, change.over_limit) == (
        "basic",
        "standard_guest",
        0,
        False,
    )
    assert (await me(bo))["tier"] == "standard_guest"
    assert (await bo.get("/api/friends")).json()["limit"] == 50

    async with app.state.sessionmaker() as db:
        with pytest.raises(admin.AdminError, match="unknown tier"):
            await admin.set_tier(db, "bo@example.com", "guest")
        with pytest.raises(admin.AdminError, match="no account"):
            await admin.set_tier(db, "nobody@example.com", "basic")
        with pytest.raises(admin.AdminError, match="no account"):
            await admin.make_admin(db, "nobody@example.com")
    assert (await me(bo))["tier"] == "standard_guest"

    assert (await me(bo))["is_admin"] is False
    async with app.state.sessionmaker() as db:
        user, changed = await admin.make_admin(db, "bo@example.com")
        assert changed and user.is_admin
        _, again = await admin.make_admin(db, "bo@example.com")
        assert not again
    assert (await me(bo))["is_admin"] is True


async def test_lowering_a_tier_reports_friends_over_the_limit(app: FastAPI) -> None:
    await sign_in(app, "asha@example.com", "Asha")
    async with app.state.sessionmaker() as db:
        asha = await admin.find_user(db, "asha@example.com")
        pals = [User(email=f"p{i}@example.com", first_name=f"P{i}") for i in range(11)]
        db.add_all(pals)
        await db.flush()
        for p in pals:
            db.add(Friendship(requester_id=asha.id, addressee_id=p.id, status="accepted"))
        await db.commit()
        change = await admin.set_tier(db, "asha@example.com", "basic")
    assert change.friends == 11 and change.over_limit
    async with app.state.sessionmaker() as db:
        assert (await admin.find_user(db, "asha@example.com")).tier == "basic"


async def test_disable_revokes_sessions_and_blocks_sign_in(app: FastAPI) -> None:
    await sign_in(app, "asha@example.com", "Asha")
    bo_phone = await sign_in(app, "bo@example.com", "Bo")
    bo_laptop = await sign_in(app, "bo@example.com", "Bo")
    assert (await bo_laptop.get("/api/me")).status_code == 200

    async with app.state.sessionmaker() as db:
        user, revoked = await admin.disable_user(db, "bo@example.com")
        assert user.disabled and revoked == 2
        rows = (await db.scalars(select(UserSession).where(UserSession.user_id == user.id))).all()
        assert len(rows) == 2 and all(s.revoked for s in rows)
    for c in (bo_phone, bo_laptop):
        assert (await c.get("/api/me")).status_code == 401
    r = await client_for(app).post("/api/auth/email", json={"email": "bo@example.com"})
    assert r.status_code == 403 and r.json()["detail"] == "this account is disabled"

    async with app.state.sessionmaker() as db:
        assert not (await admin.enable_user(db, "bo@example.com")).disabled
    assert (await bo_phone.get("/api/me")).status_code == 401  # old sessions stay revoked
    again = await sign_in(app, "bo@example.com", "Bo")
    assert (await me(again))["email"] == "bo@example.com"


# -- the command line -----------------------------------------------------------------------------
def test_cli_on_a_fresh_sqlite_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "fresh" / "admin.db"
    url = f"sqlite:///{path}"  # the plain form, as an operator would type it
    assert cli.main(["admin", "users", "--database-url", url]) == 0
    assert path.exists()  # made and migrated
    assert capsys.readouterr().out == "no accounts yet\n"
    assert cli.main(["admin", "users", "--json", "--database-url", url]) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert cli.main(["admin", "tables", "--database-url", url]) == 0
    assert capsys.readouterr().out == "no tables yet\n"
    assert cli.main(["admin", "tables", "--json", "--database-url", url]) == 0
    assert json.loads(capsys.readouterr().out) == []

    for argv in (
        ["admin", "tier", "x@example.com", "standard"],
        ["admin", "disable", "x@example.com"],
        ["admin", "enable", "x@example.com"],
        ["admin", "make-admin", "x@example.com"],
    ):
        assert cli.main([*argv, "--database-url", url]) == 1
        captured = capsys.readouterr()
        assert captured.err == "error: no account with the email 'x@example.com'\n"
        assert captured.out == ""

    with pytest.raises(SystemExit) as exit_info:
        cli.main(["admin", "tier", "x@example.com", "gold", "--database-url", url])
    assert exit_info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err
    assert cli.main(["admin"]) == 2
    assert "make-admin" in capsys.readouterr().out


def test_cli_defaults_to_the_configured_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("TWENTYNINE_DATABASE_URL", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("TWENTYNINE_DATA_DIR", str(tmp_path / "data"))
    assert cli.main(["admin", "users"]) == 0
    assert capsys.readouterr().out == "no accounts yet\n"
    assert (tmp_path / "data" / "twentynine.db").exists()


async def run_cli(app: FastAPI, *argv: str) -> int:
    """The command line against the app's own database (in a thread: it runs its own loop)."""
    url = app.state.settings.resolved_database_url
    return await asyncio.to_thread(cli.main, ["admin", *argv, "--database-url", url])


async def test_cli_against_a_running_server(
    app: FastAPI, capsys: pytest.CaptureFixture[str]
) -> None:
    asha = await sign_in(app, "asha@example.com", "Asha")
    bo = await sign_in(app, "bo@example.com", "Bo")
    asha_id = int((await me(asha))["id"])
    await add_tables(app, asha_id)
    capsys.readouterr()

    assert await run_cli(app, "users", "--json") == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(u["email"], u["tier"], u["is_admin"], u["friends"]) for u in listed] == [
        ("asha@example.com", "standard", True, 0),
        ("bo@example.com", "basic", False, 0),
    ]
    assert await run_cli(app, "users") == 0
    lines = capsys.readouterr().out.splitlines()
    header = ["id", "email", "name", "tier", "friends", "admin", "disabled", "created"]
    assert lines[0].split() == header
    assert lines[1].split()[1:6] == ["asha@example.com", "Asha", "standard", "0/50", "yes"]
    assert lines[2].split()[1:5] == ["bo@example.com", "Bo", "basic", "0/10"]

    assert await run_cli(app, "tables") == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["id", "kind", "host", "status", "created"]
    assert lines[1].split()[:4] == ["solotable001", "solo", "-", "playing"]
    hosted = ["hostedtable1", "hosted", "asha@example.com", "waiting", "2025-01-02", "03:04"]
    assert lines[2].split() == hosted
    assert await run_cli(app, "tables", "--json") == 0
    tables = json.loads(capsys.readouterr().out)
    assert tables[1] == {
        "id": "hostedtable1",
        "kind": "hosted",
        "host_id": asha_id,
        "host": "asha@example.com",
        "status": "waiting",
        "created_at": "2025-01-02T03:04:00",
        "name": "",
    }

    # a tier change shows at /api/me
    assert await run_cli(app, "tier", "bo@example.com", "standard") == 0
    out = capsys.readouterr().out
    assert out == "bo@example.com: basic -> standard (up to 50 friends, can host games)\n"
    assert (await me(bo))["tier"] == "standard"
    assert await run_cli(app, "tier", "bo@example.com", "basic") == 0
    assert "cannot host games" in capsys.readouterr().out
    assert (await me(bo))["tier"] == "basic"

    assert await run_cli(app, "make-admin", "bo@example.com") == 0
    assert capsys.readouterr().out == "bo@example.com: now an admin\n"
    assert (await me(bo))["is_admin"] is True
    assert await run_cli(app, "make-admin", "bo@example.com") == 0
    assert capsys.readouterr().out == "bo@example.com: already an admin\n"

    # disabled: the session stops working and the account cannot sign in again
    assert await run_cli(app, "disable", "bo@example.com") == 0
    assert capsys.readouterr().out == "bo@example.com: disabled; 1 session revoked\n"
    assert (await bo.get("/api/me")).status_code == 401
    r = await client_for(app).post("/api/auth/email", json={"email": "bo@example.com"})
    assert r.status_code == 403
    assert await run_cli(app, "users", "--json") == 0
    assert [u["disabled"] for u in json.loads(capsys.readouterr().out)] == [False, True]

    assert await run_cli(app, "enable", "bo@example.com") == 0
    assert capsys.readouterr().out == "bo@example.com: enabled; they can sign in again\n"
    assert (await bo.get("/api/me")).status_code == 401
    assert (await me(await sign_in(app, "bo@example.com", "Bo")))["tier"] == "basic"
