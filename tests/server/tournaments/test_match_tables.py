"""A match's table belongs to the tournament: the organiser (its host) may neither close it (the
match would wait for a table that is gone) nor reset it (the result is read from the stored
deals); the result is set on the tournament's page instead."""

from __future__ import annotations

import asyncio

from fastapi import FastAPI

from ..conftest import LiveServer
from ..tables.wsclient import TableSocket
from .conftest import create, people, register_pair, start_against_a_bot


async def test_the_organiser_can_neither_close_nor_reset_a_match_table(
    event_app: FastAPI,
) -> None:
    org, ana, bo = await people(event_app, "Org", "Ana", "Bo")
    tid = (await create(org, match_deals=0, grace_seconds=600))["id"]
    await register_pair(ana, bo, tid, "bo@example.com")
    match = await start_against_a_bot(org, tid)
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
    table = (await start_against_a_bot(admin, tid))["table_id"]
    listed = (await admin.get("/api/admin/tables")).json()
    assert [t["kind"] for t in listed if t["id"] == table] == ["tournament"]
    r = await admin.post(f"/api/admin/tables/{table}/close")
    assert r.status_code == 409, r.text
    assert "tournament" in r.json()["detail"]
    r = await ana.get(f"/api/tables/{table}")
    assert r.status_code == 200 and r.json()["status"] != "closed", r.text


async def test_a_player_replaced_before_the_match_begins_gives_up_the_seat(
    event_app: FastAPI,
) -> None:
    """Bo does not come to round 1; the organiser puts Cy in his place while the match's table
    waits. Cy gets the seat (and the notice with the table), and can join; Bo no longer holds
    it (before, the replacement counted only from the next round: Cy could not sit down, and
    after the grace a bot played Bo's seat)."""
    org, ana, bo, cy = await people(event_app, "Org", "Ana", "Bo", "Cy")
    tid = (await create(org, grace_seconds=600))["id"]
    entry = await register_pair(ana, bo, tid, "bo@example.com")
    match = await start_against_a_bot(org, tid)
    table = match["table_id"]
    bo_id = (await bo.get("/api/me")).json()["id"]
    cy_id = (await cy.get("/api/me")).json()["id"]
    heard = event_app.state.live.subscribe(cy_id)
    r = await org.post(
        f"/api/tournaments/{tid}/entries/{entry}/replace",
        json={"user_id": bo_id, "email": "cy@example.com"},
    )
    assert r.status_code == 200, r.text
    seats = (await ana.get(f"/api/tables/{table}")).json()["seats"]
    assert [s["user_id"] for s in seats if s["user_id"] in (bo_id, cy_id)] == [cy_id]
    notice = await asyncio.wait_for(heard.get(), 5)
    while notice["type"] != "tournament_match":  # (the table's own news comes too)
        notice = await asyncio.wait_for(heard.get(), 5)
    assert notice["table_id"] == table and notice["entry_id"] == entry
    r = await cy.post(f"/api/tables/{table}/join", json={})
    assert r.status_code == 200, r.text
    r = await bo.post(f"/api/tables/{table}/join", json={})
    assert r.status_code == 403, r.text


async def test_the_video_call_link_goes_to_the_players_and_the_organiser_only(
    live: LiveServer,
) -> None:
    """The tournament's page gives its video-call link to the organiser and the entrants only;
    anyone signed in may watch a match, and its table gave the link to every watcher (on its
    page, and from GET /api/tables/{id})."""
    org, ana, bo, dee = [
        await live.sign_in(f"{n.lower()}@example.com", n) for n in ("Org", "Ana", "Bo", "Dee")
    ]
    link = "https://meet.example.com/room-of-the-event"
    tid = (await create(org, grace_seconds=600, conference_url=link))["id"]
    await register_pair(ana, bo, tid, "bo@example.com")
    table = (await start_against_a_bot(org, tid))["table_id"]
    assert (await dee.get(f"/api/tournaments/{tid}")).json()["conference_url"] == ""
    for client, sees in ((ana, link), (org, link), (dee, "")):
        r = await client.get(f"/api/tables/{table}")
        assert r.status_code == 200, r.text
        assert r.json()["conference_url"] == sees
        socket = await TableSocket(live, client, table).connect()
        assert socket.state is not None
        shown = socket.state["table"]["you"].get(
            "conference_url", socket.state["table"]["conference_url"]
        )
        assert shown == sees
        await socket.close()


async def match_link_reaches_the_table(organiser_at: LiveServer, player_at: LiveServer) -> None:
    """Each match has its own video call: the organiser sets a match's link on the tournament's
    page after its table opened. Its players' open table sockets get it in a state at once
    (the link button appears by itself); a watcher's do not; a table loaded afresh has it."""
    org = await organiser_at.sign_in("org@example.com", "Org")
    ana, bo, dee = [
        await player_at.sign_in(f"{n.lower()}@example.com", n) for n in ("Ana", "Bo", "Dee")
    ]
    tid = (await create(org, grace_seconds=600, conference_per_match=True))["id"]
    await register_pair(ana, bo, tid, "bo@example.com")
    match = await start_against_a_bot(org, tid)
    table = match["table_id"]
    anas = await TableSocket(player_at, ana, table).connect()
    dees = await TableSocket(player_at, dee, table).connect()
    for socket in (anas, dees):
        assert socket.state is not None and socket.state["table"]["you"]["conference_url"] == ""
    link = "https://meet.example.com/match-one"
    r = await org.post(
        f"/api/tournaments/{tid}/matches/{match['id']}/conference", json={"conference_url": link}
    )
    assert r.status_code == 200, r.text
    state = await anas.wait_for(lambda s: s["table"]["you"]["conference_url"] == link, 10)
    assert state["table"]["conference_url"] == ""  # (the shared part is every watcher's)
    await dees.wait_for(lambda s: s["version"] >= state["version"], 10)
    assert dees.state is not None and dees.state["table"]["you"]["conference_url"] == ""
    assert (await bo.get(f"/api/tables/{table}")).json()["conference_url"] == link
    assert (await dee.get(f"/api/tables/{table}")).json()["conference_url"] == ""
    for socket in (anas, dees):
        await socket.close()
    again = await TableSocket(organiser_at, bo, table).connect()
    assert again.state is not None and again.state["table"]["you"]["conference_url"] == link
    await again.close()


async def test_a_match_link_set_later_reaches_its_table(live: LiveServer) -> None:
    await match_link_reaches_the_table(live, live)


async def test_a_match_link_set_on_another_process_reaches_its_table(
    live_pair: tuple[LiveServer, LiveServer],
) -> None:
    await match_link_reaches_the_table(*live_pair)
