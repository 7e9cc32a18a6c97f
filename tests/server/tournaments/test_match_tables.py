"""A match's table belongs to the tournament: the organiser (its host) may neither close it (the
match would wait for a table that is gone) nor reset it (the result is read from the stored
deals); the result is set on the tournament's page instead."""

from __future__ import annotations

from fastapi import FastAPI

from .conftest import create, people, register_pair


async def test_the_organiser_can_neither_close_nor_reset_a_match_table(
    event_app: FastAPI,
) -> None:
    org, ana, bo = await people(event_app, "Org", "Ana", "Bo")
    tid = (await create(org, match_deals=0, grace_seconds=600))["id"]
    await register_pair(ana, bo, tid, "bo@example.com")
    await org.post(f"/api/tournaments/{tid}/bots", json={"teams": 1, "level": "random"})
    r = await org.post(f"/api/tournaments/{tid}/start")
    assert r.status_code == 200, r.text
    (match,) = r.json()["rounds"][0]["matches"]
    table = match["table_id"]
    for player in (ana, bo):
        r = await player.post(f"/api/tables/{table}/join", json={})
        assert r.status_code == 200, r.text
    assert r.json()["status"] == "playing"
    for what in ("score", "round", "deck", "all"):
        r = await org.post(f"/api/tables/{table}/reset", json={"what": what})
        assert r.status_code == 409, (what, r.text)
        assert "tournament" in r.json()["detail"]
    r = await org.post(f"/api/tables/{table}/close")
    assert r.status_code == 409, r.text
    assert "tournament" in r.json()["detail"]
    r = await ana.get(f"/api/tables/{table}")
    assert r.status_code == 200 and r.json()["status"] == "playing", r.text
    doc = (await org.get(f"/api/tournaments/{tid}")).json()
    assert doc["rounds"][0]["matches"][0]["status"] in ("waiting", "playing")


async def test_an_admin_does_not_close_a_match_table_either(event_app: FastAPI) -> None:
    """From the admin page's open tables: closing a match's table would leave the match
    waiting for ever (no result is ever read); the refusal says what to do instead."""
    admin, ana, bo = await people(event_app, "Admin", "Ana", "Bo")
    tid = (await create(admin, grace_seconds=600))["id"]
    await register_pair(ana, bo, tid, "bo@example.com")
    await admin.post(f"/api/tournaments/{tid}/bots", json={"teams": 1, "level": "random"})
    r = await admin.post(f"/api/tournaments/{tid}/start")
    (match,) = r.json()["rounds"][0]["matches"]
    table = match["table_id"]
    listed = (await admin.get("/api/admin/tables")).json()
    assert [t["kind"] for t in listed if t["id"] == table] == ["tournament"]
    r = await admin.post(f"/api/admin/tables/{table}/close")
    assert r.status_code == 409, r.text
    assert "tournament" in r.json()["detail"]
    r = await ana.get(f"/api/tables/{table}")
    assert r.status_code == 200 and r.json()["status"] != "closed", r.text
