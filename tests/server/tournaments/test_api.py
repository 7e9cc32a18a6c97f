"""The tournaments API: who may do what, bad input refused with a clear 4xx and nothing
changed, the organiser's decisions (approve, adjust a result, re-pair, end early), live
notices, exports."""

from __future__ import annotations

import asyncio
import csv
import datetime as dt
import io
from typing import Any

from fastapi import FastAPI
from sqlalchemy import select

from twentynine.server.refusals import REASON_HEADER
from twentynine.server.tournaments.models import Tournament, TournamentLog

from ..conftest import LiveServer, drain
from .conftest import create, finished, people, register_pair, wait_for


async def me(client: Any) -> int:
    user_id: int = (await client.get("/api/me")).json()["id"]
    return user_id


async def test_creating_needs_a_standard_account_and_a_sound_body(event_app: FastAPI) -> None:
    organiser, basic = await people(event_app, "Org", "Basic")
    r = await basic.post("/api/tournaments", json={"name": "x", "format": "knockout"})
    assert r.status_code == 403
    # each with the reason a page words in its own language (None: pydantic's own check,
    # which a form's fields already make)
    bad = [
        ({"name": "x", "format": "swiss"}, "swiss_rounds_needed"),
        ({"name": "x", "format": "knockout", "rounds": 3}, "rounds_swiss_only"),
        ({"name": "x", "format": "round_robin", "max_teams": 9}, "round_robin_size"),
        ({"name": "x", "format": "league"}, None),
        ({"name": "", "format": "knockout"}, None),
        ({"name": "   ", "format": "knockout"}, "tournament_name"),  # spaces are no name
        (  # could never start
            {"name": "x", "format": "swiss", "rounds": 3, "max_teams": 4},
            "swiss_too_few_teams",
        ),
        ({"name": "x", "format": "knockout", "rules": {"preset": "nope"}}, "bad_rules"),
        (
            {"name": "x", "format": "knockout", "conference_url": "http://meet.example.com/a"},
            "https_link",
        ),
        (
            {"name": "x", "format": "swiss", "rounds": 2, "third_place": True},
            "third_place_knockout",
        ),
        ({"name": "x", "format": "knockout", "match_deals": -1}, None),
        ({"name": "x", "format": "knockout", "surprise": 1}, None),
        (
            {
                "name": "x",
                "format": "knockout",
                "registration_opens_at": "2030-01-02T00:00:00Z",
                "registration_closes_at": "2030-01-01T00:00:00Z",
            },
            "registration_order",
        ),
        (
            {"name": "x", "format": "knockout", "registration_closes_at": "2020-01-01T00:00:00Z"},
            "registration_past",
        ),
    ]
    for body, reason in bad:
        r = await organiser.post("/api/tournaments", json=body)
        assert r.status_code == 422, (body, r.text)
        assert r.headers.get(REASON_HEADER) == reason, (body, r.text)
    assert (await organiser.get("/api/tournaments")).json() == []
    doc = await create(organiser, description="For the department", entry_note="Pay Rs. 5")
    assert doc["status"] == "registration" and doc["you"]["organiser"]
    listed = (await basic.get("/api/tournaments")).json()
    assert [t["id"] for t in listed] == [doc["id"]] and listed[0]["registration_open"]
    assert listed[0]["you"] == {"organiser": False, "entered": False}
    assert (await organiser.get("/api/tournaments")).json()[0]["you"]["organiser"] is True


async def test_registration_refusals(event_app: FastAPI) -> None:
    org, ana, bo, cy, _dee = await people(event_app, "Org", "Ana", "Bo", "Cy", "Dee")
    tid = (await create(org, max_teams=2))["id"]
    url = f"/api/tournaments/{tid}/entries"
    assert (await ana.post(url, json={"partner_email": "nobody@example.com"})).status_code == 404
    assert (await ana.post(url, json={"partner_email": "ana@example.com"})).status_code == 422
    assert (
        await ana.post(url, json={"partner_email": "bo@example.com", "x": 1})
    ).status_code == 422
    entry = await register_pair(ana, bo, tid, "bo@example.com")
    assert (await ana.post(url, json={})).status_code == 409  # registered twice
    assert (await cy.post(url, json={"partner_email": "bo@example.com"})).status_code == 409
    # only the named partner confirms, once
    assert (await cy.post(f"{url}/{entry}/confirm")).status_code == 403
    assert (await bo.post(f"{url}/{entry}/confirm")).status_code == 409
    assert (await cy.post(f"{url}/999/confirm")).status_code == 404
    r = await cy.post(url, json={"partner_email": "dee@example.com"})
    assert r.status_code == 201
    assert (await org.post(f"/api/tournaments/{tid}/bots", json={"teams": 1})).status_code == 409
    r = await org.post(url, json={})
    assert r.status_code == 409 and "full" in r.json()["detail"]
    assert r.headers["X-Error-Reason"] == "field_full"  # (a page says it in its language)
    # withdrawing: the entrants or the organiser
    assert (await cy.post(f"{url}/{entry}/withdraw")).status_code == 403
    assert (await bo.post(f"{url}/{entry}/withdraw")).status_code == 200
    assert (await org.post(url, json={})).status_code == 201  # room again
    r = await ana.get("/api/tournaments/999")
    assert r.status_code == 404 and r.headers["X-Error-Reason"] == "no_tournament"
    assert (await ana.get("/api/tournaments/0")).status_code == 422
    # registration closes (the time it was set to passes)
    soon = (dt.datetime.now(dt.UTC) + dt.timedelta(minutes=1)).isoformat()
    closed = (await create(org, registration_closes_at=soon))["id"]
    async with event_app.state.sessionmaker() as db:
        row = await db.get(Tournament, closed)
        row.closes_at = dt.datetime.now(dt.UTC).replace(tzinfo=None) - dt.timedelta(seconds=1)
        await db.commit()
    r = await ana.post(f"/api/tournaments/{closed}/entries", json={})
    assert r.status_code == 409 and "closed" in r.json()["detail"]
    assert r.headers["X-Error-Reason"] == "registration_closed"
    later = (dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)).isoformat()
    not_yet = (await create(org, registration_opens_at=later))["id"]
    assert (await ana.post(f"/api/tournaments/{not_yet}/entries", json={})).status_code == 409
    from ..conftest import client_for

    async with client_for(event_app) as nobody:
        assert (await nobody.post(url, json={})).status_code == 401
        assert (await nobody.get(f"/api/tournaments/{tid}")).status_code == 200


async def test_organiser_only_actions(event_app: FastAPI) -> None:
    org, ana = await people(event_app, "Org", "Ana")
    tid = (await create(org))["id"]
    base = f"/api/tournaments/{tid}"
    assert (await ana.post(f"{base}/bots", json={"teams": 2})).status_code == 403
    assert (await ana.post(f"{base}/start")).status_code == 403
    assert (await ana.post(f"{base}/end")).status_code == 403
    assert (await org.post(f"{base}/bots", json={"teams": 2, "level": "genius"})).status_code == 422
    assert (await org.post(f"{base}/bots", json={"teams": 0})).status_code == 422
    assert (await org.post(f"{base}/start")).status_code == 409  # nobody entered
    assert (await org.post(f"{base}/bots", json={"teams": 2, "level": "random"})).status_code == 201
    doc = (await org.get(base)).json()
    assert [e["bot"] for e in doc["entries"]] == ["random", "random"] and doc["version"] == 1
    assert (await ana.post(f"{base}/matches/1/result", json={"winner": 1})).status_code == 403


async def test_approval_and_the_live_notices(event_app: FastAPI) -> None:
    org, ana, bo = await people(event_app, "Org", "Ana", "Bo")
    ids = [await me(c) for c in (org, ana, bo)]
    queues = [event_app.state.live.subscribe(i) for i in ids]
    tid = (await create(org, approval=True, grace_seconds=600, format="knockout"))["id"]
    entry = await register_pair(ana, bo, tid, "bo@example.com")
    partner_notice = [
        {k: v for k, v in m.items() if k not in ("id", "seq")}  # the live stream number
        for m in drain(queues[2])
        if m["type"] == "tournament_partner"
    ]
    assert partner_notice == [
        {"type": "tournament_partner", "tournament_id": tid, "tournament": "Chematoodlon",
         "entry_id": entry, "from": "Ana"}
    ]  # fmt: skip
    assert any(m["type"] == "tournament_entry" for m in drain(queues[0]))
    doc = (await org.get(f"/api/tournaments/{tid}")).json()
    assert doc["entries"][0]["status"] == "pending"
    base = f"/api/tournaments/{tid}/entries/{entry}"
    assert (await ana.post(f"{base}/approve", json={"paid": True})).status_code == 403
    r = await org.post(f"{base}/approve", json={"paid": True})
    assert r.status_code == 200 and r.json()["entries"][0]["status"] == "entered"
    assert r.json()["entries"][0]["paid"] is True
    await org.post(f"/api/tournaments/{tid}/bots", json={"teams": 1, "level": "random"})
    r = await org.post(f"/api/tournaments/{tid}/start")
    assert r.status_code == 200, r.text
    doc = r.json()
    assert doc["status"] == "running" and doc["current_round"] == 1
    (match,) = doc["rounds"][0]["matches"]
    for q in queues[1:]:
        notices = [m for m in drain(q) if m["type"] == "tournament_match"]
        assert notices and notices[0]["table_id"] == match["table_id"]
        assert notices[0]["round"] == 1 and notices[0]["opponent"] == "Random bots 1"
    # the entrants see the table waiting for them, seated
    r = await ana.get("/api/tables/mine")
    assert match["table_id"] in str(r.json())
    assert (await org.post(f"/api/tournaments/{tid}/start")).status_code == 409


async def test_repair_adjust_end_and_exports(event_app: FastAPI) -> None:
    org, ana, bo, cy, dee, eve, fay = await people(
        event_app, "Org", "Ana", "Bo", "Cy", "Dee", "Eve", "Fay"
    )
    tid = (await create(org, format="swiss", rounds=1, grace_seconds=600))["id"]
    first = await register_pair(ana, bo, tid, "bo@example.com")
    second = await register_pair(cy, dee, tid, "dee@example.com")
    third = await register_pair(eve, fay, tid, "fay@example.com")
    doc = (await org.post(f"/api/tournaments/{tid}/start")).json()
    base = f"/api/tournaments/{tid}"
    # round 1: seeds 1 and 2 meet, seed 3 sits out; the people's tables wait for them
    ((a, b),) = [(m["a"], m["b"]) for m in doc["rounds"][0]["matches"]]
    assert (a, b) == (first, second) and doc["rounds"][0]["byes"] == [third]
    bad = [
        ({"matches": [[first, second]]}, "repair_every_team"),
        ({"matches": [[first, second], [third, third]]}, "repair_every_team"),
        ({"matches": [[first, second], [third, 999]]}, "repair_every_team"),
        ({"matches": [[first, None], [second, None], [third, None]]}, "one_bye"),
        ({"matches": "everyone"}, None),
    ]
    for body, reason in bad:
        r = await org.post(f"{base}/rounds/1/pairing", json=body)
        assert r.status_code == 422 and r.headers.get(REASON_HEADER) == reason, (body, r.text)
    good = {"matches": [[first, third], [second, None]]}
    assert (await ana.post(f"{base}/rounds/1/pairing", json=good)).status_code == 403
    r = await org.post(f"{base}/rounds/2/pairing", json=good)
    assert r.status_code == 409 and r.headers[REASON_HEADER] == "repair_current_only"
    old_table = doc["rounds"][0]["matches"][0]["table_id"]
    r = await org.post(f"{base}/rounds/1/pairing", json=good)
    assert r.status_code == 200, r.text
    rnd = r.json()["rounds"][0]
    assert [[m["a"], m["b"]] for m in rnd["matches"]] == [[first, third]]
    assert rnd["byes"] == [second]
    assert rnd["matches"][0]["table_id"] != old_table
    assert (await ana.get(f"/api/tables/{old_table}")).status_code == 404  # closed
    target = rnd["matches"][0]
    url = f"{base}/matches/{target['id']}/result"
    r = await org.post(url, json={"winner": 999})
    assert r.status_code == 422 and r.headers[REASON_HEADER] == "winner_not_in_match"
    r = await org.post(f"{base}/matches/999/result", json={"winner": first})
    assert r.status_code == 404 and r.headers[REASON_HEADER] == "no_match"
    r = await org.post(url, json={"winner": third, "score": [0, 1], "reason": "Ana left"})
    assert r.status_code == 200, r.text
    m = r.json()["rounds"][0]["matches"][0]
    assert m["status"] == "done" and m["winner"] == third and m["result"]["adjusted"]
    async with event_app.state.sessionmaker() as db:
        logged = list(
            await db.scalars(select(TournamentLog).where(TournamentLog.action == "result_adjusted"))
        )
    assert len(logged) == 1 and logged[0].detail["after"]["winner"] == third
    assert logged[0].detail["before"]["winner"] is None
    assert logged[0].detail["reason"] == "Ana left"
    # the only round is complete: the owner finishes the tournament by itself
    doc = await wait_for(ana, tid, finished, seconds=20)
    # the bye and the adjusted win: a point each, Buchholz 0, no card points; equal, so they
    # share first place, listed by seed
    assert [(p["place"], p["entry"]) for p in doc["ranking"]] == [
        (1, second),
        (1, third),
        (3, first),
    ]
    assert (await org.post(f"{base}/end")).status_code == 409
    rows = list(csv.reader(io.StringIO((await ana.get(f"{base}/export.csv")).text)))
    assert rows[0][:3] == ["place", "team", "players"] and rows[1][1] == "Cy & Dee"
    assert len(rows) == 4
    matches = list(csv.reader(io.StringIO((await ana.get(f"{base}/export.csv?part=matches")).text)))
    assert matches[0][0] == "round" and [row[2] for row in matches[1:]] == ["match", "bye"]
    assert (await ana.get(f"{base}/export.csv?part=bogus")).status_code == 422
    exported = (await ana.get(f"{base}/export.json")).json()
    assert exported["ranking"] == doc["ranking"] and exported["id"] == tid


async def test_ending_early(event_app: FastAPI) -> None:
    org, ana, bo = await people(event_app, "Org", "Ana", "Bo")
    tid = (await create(org, grace_seconds=600))["id"]
    await register_pair(ana, bo, tid, "bo@example.com")
    await org.post(f"/api/tournaments/{tid}/bots", json={"teams": 1, "level": "random"})
    await org.post(f"/api/tournaments/{tid}/start")
    assert (await ana.post(f"/api/tournaments/{tid}/end")).status_code == 403
    r = await org.post(f"/api/tournaments/{tid}/end")
    assert r.status_code == 200 and r.json()["status"] == "finished"
    assert r.json()["rounds"][0]["matches"][0]["status"] == "void"
    assert (await org.post(f"/api/tournaments/{tid}/end")).status_code == 409


async def test_individuals_are_drawn_into_pairs(event_app: FastAPI) -> None:
    org, *players = await people(event_app, "Org", "A", "B", "C", "D", "E")
    tid = (await create(org, team_mode="individuals", format="round_robin", grace_seconds=600))[
        "id"
    ]
    for p in players:
        r = await p.post(f"/api/tournaments/{tid}/entries", json={})
        assert r.status_code == 201, r.text
    r = await players[0].post(
        f"/api/tournaments/{tid}/entries", json={"partner_email": "b@example.com"}
    )
    assert r.status_code == 409  # already in
    r = await org.post(f"/api/tournaments/{tid}/entries", json={"partner_email": "x@example.com"})
    assert r.status_code == 422
    doc = (await org.post(f"/api/tournaments/{tid}/start")).json()
    teams = [e for e in doc["entries"] if e["status"] == "entered"]
    assert len(teams) == 3
    people_in = sorted(p["name"] for e in teams for p in e["players"] if p["user_id"])
    assert people_in == ["A", "B", "C", "D", "E"]
    assert sum(1 for e in teams for p in e["players"] if p["bot"]) == 1  # the odd one's partner
    assert [len(e["players"]) for e in teams] == [2, 2, 2]


async def test_a_no_show_forfeits_when_the_organiser_says_so(event_app: FastAPI) -> None:
    org, ana, bo = await people(event_app, "Org", "Ana", "Bo")
    tid = (await create(org, no_show="forfeit", grace_seconds=1))["id"]
    pair = await register_pair(ana, bo, tid, "bo@example.com")
    await org.post(f"/api/tournaments/{tid}/bots", json={"teams": 1, "level": "random"})
    await org.post(f"/api/tournaments/{tid}/start")
    doc = await wait_for(org, tid, finished, seconds=30)
    (m,) = doc["rounds"][0]["matches"]
    assert m["result"]["forfeit"] and m["winner"] != pair
    assert doc["ranking"][0]["entry"] == m["winner"]


async def test_pages_are_told_of_each_deal_and_each_step(event_app: FastAPI) -> None:
    """Everyone signed in hears of a deal stored at a match table (the scores changed) and of
    each stored step (a result, the end), so open pages update by themselves."""
    org, watcher = await people(event_app, "Org", "Wat")
    queue = event_app.state.live.subscribe(await me(watcher))
    tid = (await create(org))["id"]
    await org.post(f"/api/tournaments/{tid}/bots", json={"teams": 2, "level": "random"})
    await org.post(f"/api/tournaments/{tid}/start")
    await wait_for(org, tid, finished, seconds=30)
    await asyncio.sleep(0.3)  # the last message follows its step's commit
    seen = drain(queue)
    doc = (await org.get(f"/api/tournaments/{tid}")).json()
    (match,) = doc["rounds"][0]["matches"]
    scores = [m for m in seen if m["type"] == "tournament_score"]
    assert scores and all(m == {"type": "tournament_score", "tournament_id": tid,
                                "match_id": match["id"]} for m in scores)  # fmt: skip
    assert len(scores) >= match["result"]["deals"]
    changed = [m for m in seen if m["type"] == "tournament_changed"]
    assert changed[-1]["version"] == doc["version"]


async def test_the_organiser_replaces_a_player(event_app: FastAPI) -> None:
    org, ana, bo, cy, dee = await people(event_app, "Org", "Ana", "Bo", "Cy", "Dee")
    tid = (await create(org))["id"]
    entry = await register_pair(ana, bo, tid, "bo@example.com")
    await register_pair(dee, org, tid, "org@example.com")
    bo_id, ana_id = await me(bo), await me(ana)
    url = f"/api/tournaments/{tid}/entries/{entry}/replace"
    swap = {"user_id": bo_id, "email": "cy@example.com"}
    assert (await ana.post(url, json=swap)).status_code == 403
    assert (
        await org.post(url, json={"user_id": 999, "email": "cy@example.com"})
    ).status_code == 422
    assert (await org.post(url, json={**swap, "email": "nobody@example.com"})).status_code == 404
    assert (await org.post(url, json={**swap, "email": "dee@example.com"})).status_code == 409
    assert (await org.post(url, json={**swap, "x": 1})).status_code == 422
    r = await org.post(url, json=swap)
    assert r.status_code == 200, r.text
    (e,) = [e for e in r.json()["entries"] if e["id"] == entry]
    assert [p["name"] for p in e["players"]] == ["Ana", "Cy"] and e["name"] == "Ana & Cy"
    assert [p["user_id"] for p in e["players"]] == [ana_id, await me(cy)]
    # Bo is free to enter again; Cy cannot register twice
    assert (await cy.post(f"/api/tournaments/{tid}/entries", json={})).status_code == 409
    assert (await bo.post(f"/api/tournaments/{tid}/entries", json={})).status_code == 201


async def test_the_organiser_calls_the_players_before_the_start(event_app: FastAPI) -> None:
    """ "Starts in 10 minutes" reaches every entrant whose entry stands (both of a pair, one
    whose partner has yet to confirm), not a withdrawn one nor anyone else; once a minute at
    most, before the start only, by the organiser only; logged."""
    org, ana, bo, cy, dee, eve = await people(event_app, "Org", "Ana", "Bo", "Cy", "Dee", "Eve")
    ids = dict(zip(("org", "ana", "bo", "cy", "dee", "eve"),
                   [await me(c) for c in (org, ana, bo, cy, dee, eve)], strict=True))  # fmt: skip
    queues = {name: event_app.state.live.subscribe(i) for name, i in ids.items()}
    tid = (await create(org, grace_seconds=600))["id"]
    base = f"/api/tournaments/{tid}"
    await register_pair(ana, bo, tid, "bo@example.com")
    r = await cy.post(f"{base}/entries", json={"partner_email": "dee@example.com"})
    assert r.status_code == 201, r.text  # Dee has not confirmed yet
    r = await eve.post(f"{base}/entries", json={"name": "Eve alone"})
    withdrawn = r.json()["you"]["entry_id"]
    assert (await eve.post(f"{base}/entries/{withdrawn}/withdraw")).status_code == 200
    for q in queues.values():
        drain(q)

    assert (await ana.post(f"{base}/call", json={"minutes": 10})).status_code == 403
    assert (await org.post(f"{base}/call", json={"minutes": 0})).status_code == 422
    assert (await org.post(f"{base}/call", json={"when": "soon"})).status_code == 422
    assert (await org.post("/api/tournaments/999/call", json={})).status_code == 404
    r = await org.post(f"{base}/call", json={"minutes": 10})
    assert r.status_code == 200 and r.json() == {"called": 4}, r.text
    call = {"type": "tournament_call", "tournament_id": tid, "tournament": "Chematoodlon",
            "minutes": 10, "from": "Org"}  # fmt: skip
    for name in ("ana", "bo", "cy", "dee"):
        got = [m for m in drain(queues[name]) if m["type"] == "tournament_call"]
        assert [{k: v for k, v in m.items() if k != "seq"} for m in got] == [call], name
    for name in ("org", "eve"):
        assert not [m for m in drain(queues[name]) if m["type"] == "tournament_call"], name
    r = await org.post(f"{base}/call", json={})
    assert r.status_code == 429, r.text  # a minute between calls
    async with event_app.state.sessionmaker() as db:
        logged = list(
            await db.scalars(select(TournamentLog).where(TournamentLog.action == "called"))
        )
    assert [(x.tournament_id, x.detail) for x in logged] == [(tid, {"minutes": 10, "people": 4})]
    await org.post(f"{base}/bots", json={"teams": 1, "level": "random"})
    assert (await org.post(f"{base}/start")).status_code == 200
    assert (await org.post(f"{base}/call", json={})).status_code == 409


async def test_the_call_reaches_an_entrant_on_another_process(
    live_pair: tuple[LiveServer, LiveServer],
) -> None:
    """The organiser calls through one process (PostgreSQL + Redis); an entrant whose page is
    on the other gets the call there."""
    one, two = live_pair
    org = await one.sign_in("org@example.com", "Org")
    ana = await two.sign_in("ana@example.com", "Ana")
    tid = (await create(org, team_mode="individuals"))["id"]
    assert (await ana.post(f"/api/tournaments/{tid}/entries", json={})).status_code == 201
    heard = two.app.state.live.subscribe(await me(ana))
    r = await org.post(f"/api/tournaments/{tid}/call", json={"minutes": 5})
    assert r.status_code == 200 and r.json() == {"called": 1}, r.text
    while (message := await asyncio.wait_for(heard.get(), 5))["type"] != "tournament_call":
        pass
    assert message["tournament_id"] == tid and message["minutes"] == 5
    assert message["from"] == "Org"


async def test_two_calls_at_once_make_one(event_app: FastAPI) -> None:
    """The organiser's double click (or two tabs): one call goes out, the other is refused."""
    org, ana = await people(event_app, "Org", "Ana")
    tid = (await create(org, team_mode="individuals"))["id"]
    assert (await ana.post(f"/api/tournaments/{tid}/entries", json={})).status_code == 201
    heard = event_app.state.live.subscribe(await me(ana))
    url = f"/api/tournaments/{tid}/call"
    answers = await asyncio.gather(org.post(url, json={}), org.post(url, json={}))
    assert sorted(r.status_code for r in answers)[0] == 200
    assert sorted(r.status_code for r in answers)[1] in (409, 429)
    calls = [m for m in drain(heard) if m["type"] == "tournament_call"]
    assert len(calls) == 1
