"""Deleting an account that takes part in events: an organiser's is refused while an event of
theirs is not over (its match tables are hosted by the account and would close, leaving the
matches waiting for ever; nobody else may start, run or end it), until they end it; an
entrant's leaves the events not started, and their name leaves the team names."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI

from twentynine.server.tournaments import account_data
from twentynine.server.tournaments.service import Stale

from ..conftest import drain
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


async def test_an_entrant_who_deletes_the_account_leaves_events_not_started(
    event_app: FastAPI,
) -> None:
    """Ana entered with Bo, then deleted her account: the entry stayed, under her name ('Ana &
    Bo', though the account's name is gone), and Bo could not enter again ('already
    registered'). Her entries in events not started are withdrawn, and a team name made of
    her first name no longer shows it."""
    org, ana, bo, cy, dee = await people(event_app, "Org", "Ana", "Bo", "Cy", "Dee")
    waiting = (await create(org, name="Next week"))["id"]
    running = (await create(org, name="Tonight", grace_seconds=600))["id"]
    await register_pair(ana, bo, waiting, "bo@example.com")
    await register_pair(ana, cy, running, "cy@example.com")
    await org.post(f"/api/tournaments/{running}/bots", json={"teams": 1, "level": "random"})
    r = await org.post(f"/api/tournaments/{running}/start")
    assert r.status_code == 200, r.text
    r = await dee.post(f"/api/tournaments/{waiting}/entries", json={"name": "Ana's fans"})
    assert r.status_code == 201, r.text
    versions = {
        t: (await org.get(f"/api/tournaments/{t}")).json()["version"] for t in (waiting, running)
    }
    page = event_app.state.live.subscribe(await me(dee))  # a page of Dee's (told as every page)

    r = await ana.post("/api/me/delete", json={"confirm": True})
    assert r.status_code == 200, r.text
    # the open pages of both events are told they changed, with the version stored
    told = [m for m in drain(page) if m["type"] == "tournament_changed"]
    stored = {t: (await org.get(f"/api/tournaments/{t}")).json()["version"] for t in versions}
    assert sorted((m["tournament_id"], m["version"]) for m in told) == sorted(stored.items())
    assert all(stored[t] == versions[t] + 1 for t in versions)
    doc = (await org.get(f"/api/tournaments/{waiting}")).json()
    (theirs,) = [e for e in doc["entries"] if e["players"][0]["user_id"] != await me(dee)]
    assert theirs["status"] == "withdrawn"
    assert "Ana" not in theirs["name"]
    assert [e["name"] for e in doc["entries"] if e["id"] != theirs["id"]] == ["Ana's fans"]
    r = await bo.post(f"/api/tournaments/{waiting}/entries", json={})
    assert r.status_code == 201, r.text  # Bo may enter again
    doc = (await org.get(f"/api/tournaments/{running}")).json()
    (played,) = [e for e in doc["entries"] if not e["bot"]]
    assert played["status"] == "entered"  # a started event keeps its teams (and results)
    assert "Ana" not in played["name"], played["name"]


async def me(client: Any) -> int:
    user_id: int = (await client.get("/api/me")).json()["id"]
    return user_id


async def test_a_team_named_after_its_players_follows_a_new_name(event_app: FastAPI) -> None:
    """Ana entered with Bo ("Ana & Bo") in an event not started and one under way, and in one
    that is over; Dee's team chose its name. Ana renames herself: the two events not over say
    "Anandi & Bo", and their open pages are told; the finished one keeps the name it was played
    under, and a chosen name stays. Her match's table takes the new team name."""
    org, ana, bo, cy, dee = await people(event_app, "Org", "Ana", "Bo", "Cy", "Dee")
    waiting = (await create(org, name="Next week"))["id"]
    running = (await create(org, name="Tonight", grace_seconds=600))["id"]
    over = (await create(org, name="Last week"))["id"]
    for event in (waiting, running, over):
        await register_pair(ana, bo, event, "bo@example.com")
    await register_pair(cy, dee, waiting, "dee@example.com")
    r = await dee.post(f"/api/tournaments/{running}/entries", json={"name": "Ana's fans"})
    assert r.status_code == 201, r.text
    await org.post(f"/api/tournaments/{running}/bots", json={"teams": 2, "level": "random"})
    assert (await org.post(f"/api/tournaments/{running}/start")).status_code == 200
    assert (await org.post(f"/api/tournaments/{over}/end")).status_code == 200
    events = (waiting, running, over)
    versions = {t: (await org.get(f"/api/tournaments/{t}")).json()["version"] for t in events}
    page = event_app.state.live.subscribe(await me(cy))

    # a change of something else renames nothing
    assert (await ana.patch("/api/me", json={"card_deck": "large"})).status_code == 200
    assert (await ana.patch("/api/me", json={"first_name": "Anandi"})).status_code == 200
    told = [m for m in drain(page) if m["type"] == "tournament_changed"]
    docs = {t: (await org.get(f"/api/tournaments/{t}")).json() for t in events}
    assert sorted((m["tournament_id"], m["version"]) for m in told) == sorted(
        (t, docs[t]["version"]) for t in (waiting, running)
    )
    assert docs[over]["version"] == versions[over]
    names = {t: sorted(e["name"] for e in docs[t]["entries"] if not e["bot"]) for t in events}
    assert names[waiting] == ["Anandi & Bo", "Cy & Dee"]
    assert names[running] == ["Ana's fans", "Anandi & Bo"]
    assert names[over] == ["Ana & Bo"]
    # her match's table is named after the teams: it says the new name too
    tables = [
        m["table_id"]
        for rnd in docs[running]["rounds"]
        for m in rnd["matches"]
        if m.get("table_id")
    ]
    shown = [(await bo.get(f"/api/tables/{table_id}")).json()["name"] for table_id in tables]
    assert any("Anandi & Bo" in name for name in shown), shown
    assert not any("Ana & Bo" in name for name in shown), shown


async def test_a_new_name_waits_out_an_organiser_changing_the_event(
    event_app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The event's version was taken meanwhile (the organiser changed it): the team name is
    read and renamed again, once; the profile's change itself never fails over it."""
    org, ana, bo = await people(event_app, "Org", "Ana", "Bo")
    event = (await create(org, name="Next week"))["id"]
    await register_pair(ana, bo, event, "bo@example.com")
    version = (await org.get(f"/api/tournaments/{event}")).json()["version"]
    real_bump, calls = account_data.bump, []

    async def raced(db: Any, t: Any) -> None:
        calls.append(t.id)
        if len(calls) == 1:
            raise Stale("taken meanwhile")
        await real_bump(db, t)

    monkeypatch.setattr(account_data, "bump", raced)
    assert (await ana.patch("/api/me", json={"first_name": "Anandi"})).status_code == 200
    doc = (await org.get(f"/api/tournaments/{event}")).json()
    assert [e["name"] for e in doc["entries"]] == ["Anandi & Bo"]
    assert doc["version"] == version + 1 and calls == [event, event]

    async def always(db: Any, t: Any) -> None:
        raise Stale("taken meanwhile")

    monkeypatch.setattr(account_data, "bump", always)
    assert (await ana.patch("/api/me", json={"first_name": "Ana"})).status_code == 200
    doc = (await org.get(f"/api/tournaments/{event}")).json()
    assert [e["name"] for e in doc["entries"]] == ["Anandi & Bo"]  # left as it was
    assert (await ana.get("/api/me")).json()["first_name"] == "Ana"
