"""An organiser's account and their events: deleting the account while an event of theirs is
not over is refused (its match tables are hosted by the account and would close, leaving the
matches waiting for ever; nobody else may start, run or end it), until they end it."""

from __future__ import annotations

from fastapi import FastAPI

from .conftest import create, people, register_pair


async def test_an_organiser_ends_their_events_before_deleting_the_account(
    event_app: FastAPI,
) -> None:
    admin, org, ana, bo = await people(event_app, "Admin", "Org", "Ana", "Bo")
    org_id = (await org.get("/api/me")).json()["id"]
    r = await admin.post(f"/api/admin/users/{org_id}/tier", json={"tier": "standard"})
    assert r.status_code == 200, r.text
    waiting = (await create(org, name="Next week"))["id"]
    tid = (await create(org, grace_seconds=600))["id"]
    await register_pair(ana, bo, tid, "bo@example.com")
    await org.post(f"/api/tournaments/{tid}/bots", json={"teams": 1, "level": "random"})
    r = await org.post(f"/api/tournaments/{tid}/start")
    (match,) = r.json()["rounds"][0]["matches"]

    r = await org.post("/api/me/delete", json={"confirm": True})
    assert r.status_code == 409, r.text
    assert "tournament" in r.json()["detail"]
    assert (await org.get("/api/me")).status_code == 200  # still signed in, still there
    table = await ana.get(f"/api/tables/{match['table_id']}")
    assert table.status_code == 200 and table.json()["status"] != "closed", table.text

    for event in (tid, waiting):
        r = await org.post(f"/api/tournaments/{event}/end")
        assert r.status_code == 200, r.text
    r = await org.post("/api/me/delete", json={"confirm": True})
    assert r.status_code == 200, r.text
