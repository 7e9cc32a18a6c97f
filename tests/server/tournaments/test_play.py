"""Whole tournaments played by bots: a 16-team Swiss of 4 rounds, a 12-team knockout with byes,
a 6-team round robin with a server restart in the middle. In each, one team is two people who
never come to their tables: after the grace period bots play their seats."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from sqlalchemy import select

from twentynine.server.history.models import DealHistory
from twentynine.server.tables.models import GameTable

from .conftest import (
    create,
    fast_settings,
    finished,
    people,
    register_pair,
    running,
    wait_for,
)


async def field_with_no_shows(app: FastAPI, teams: int, **fields: Any) -> tuple[Any, int, int]:
    """The organiser's client, the tournament id and the entry of the pair who never come;
    bots fill the rest of the field."""
    organiser, ana, bo = await people(app, "Org", "Ana", "Bo")
    doc = await create(organiser, grace_seconds=1, max_teams=teams, **fields)
    tid = doc["id"]
    pair = await register_pair(ana, bo, tid, "bo@example.com")
    r = await organiser.post(
        f"/api/tournaments/{tid}/bots", json={"teams": teams - 1, "level": "random"}
    )
    assert r.status_code == 201, r.text
    r = await organiser.post(f"/api/tournaments/{tid}/start")
    assert r.status_code == 200, r.text
    return organiser, tid, pair


async def tables_of(app: FastAPI, ids: list[str]) -> dict[str, GameTable]:
    async with app.state.sessionmaker() as db:
        rows = await db.scalars(select(GameTable).where(GameTable.id.in_(ids)))
        return {r.id: r for r in rows}


async def deals_of(app: FastAPI, table_id: str) -> list[DealHistory]:
    async with app.state.sessionmaker() as db:
        return list(
            await db.scalars(
                select(DealHistory).where(DealHistory.table_id == table_id).order_by(DealHistory.id)
            )
        )


def all_matches(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for rnd in doc["rounds"] for m in rnd["matches"]]


async def check_no_shows_played_by_bots(app: FastAPI, doc: dict[str, Any], pair: int) -> None:
    """Every match of the absent pair was played, their two seats by stand-in bots."""
    theirs = [m for m in all_matches(doc) if pair in (m["a"], m["b"])]
    assert theirs
    tables = await tables_of(app, [m["table_id"] for m in theirs])
    for m in theirs:
        row = tables[m["table_id"]]
        seats = {0, 2} if m["a"] == pair else {1, 3}
        assert row.state is not None
        assert {int(s) for s in row.state["standins"]} == seats
        assert not m["result"]["forfeit"]
        assert m["result"]["deals"] >= 1
        assert len(await deals_of(app, m["table_id"])) >= m["result"]["deals"]


async def check_results_match_deals(app: FastAPI, doc: dict[str, Any]) -> None:
    """Each result is what its table's stored deals say: one scored deal a match, won by the
    team whose contract it was if it made it."""
    for m in all_matches(doc):
        assert m["status"] == "done"
        deals = await deals_of(app, m["table_id"])
        counted = deals[: m["result"]["deals"]]
        scored = [d for d in counted if d.outcome != "invalid"]
        assert len(scored) == 1  # match_deals 1: decided by the first scored deal
        d = scored[0]
        winning_team = d.bidder_team if d.outcome == "won" else 1 - d.bidder_team
        assert m["winner"] == (m["a"] if winning_team == 0 else m["b"])


async def test_a_16_team_swiss_of_4_rounds(event_app: FastAPI) -> None:
    organiser, tid, pair = await field_with_no_shows(event_app, 16, format="swiss", rounds=4)
    doc = await wait_for(organiser, tid, finished)
    assert len(doc["rounds"]) == 4
    met = Counter(frozenset((m["a"], m["b"])) for m in all_matches(doc))
    assert len(met) == 32 and max(met.values()) == 1  # 8 a round, nobody met twice
    for rnd in doc["rounds"]:
        playing = [e for m in rnd["matches"] for e in (m["a"], m["b"])]
        assert sorted(playing) == sorted({e["id"] for e in doc["entries"]}) and not rnd["byes"]
    points = {s["entry"]: s["points"] for s in doc["standings"]}
    assert sum(points.values()) == 32  # a point a match
    assert [r["entry"] for r in doc["ranking"]] == [s["entry"] for s in doc["standings"]]
    await check_results_match_deals(event_app, doc)
    await check_no_shows_played_by_bots(event_app, doc, pair)


async def test_a_12_team_knockout_with_byes(event_app: FastAPI) -> None:
    organiser, tid, pair = await field_with_no_shows(event_app, 12, format="knockout")
    doc = await wait_for(organiser, tid, finished)
    seeds = {e["id"]: e["seed"] for e in doc["entries"]}
    assert doc["rounds"][0]["byes"] and sorted(seeds[b] for b in doc["rounds"][0]["byes"]) == [
        1,
        2,
        3,
        4,
    ]
    assert [len(r["matches"]) for r in doc["rounds"]] == [4, 4, 2, 1]  # no third-place match
    # a round's teams are the previous round's winners (and the byes)
    for before, after in itertools.pairwise(doc["rounds"]):
        winners = [m["winner"] for m in before["matches"]] + before["byes"]
        assert sorted(e for m in after["matches"] for e in (m["a"], m["b"])) == sorted(winners)
    final = doc["rounds"][-1]["matches"][0]
    places = Counter(r["place"] for r in doc["ranking"])
    assert places == {1: 1, 2: 1, 3: 2, 5: 4, 9: 4}
    assert doc["ranking"][0]["entry"] == final["winner"]
    assert not doc["standings"]
    await check_results_match_deals(event_app, doc)
    if any(pair in (m["a"], m["b"]) for m in all_matches(doc)):
        await check_no_shows_played_by_bots(event_app, doc, pair)


async def test_a_6_team_round_robin_survives_a_restart(event_url: str, tmp_path: Path) -> None:
    settings = fast_settings(event_url, tmp_path)
    async with running(settings) as app:
        organiser, tid, pair = await field_with_no_shows(app, 6, format="round_robin")
        doc = await wait_for(organiser, tid, lambda d: d["current_round"] >= 3)
        assert doc["status"] == "running"  # two rounds at least are still to be played
        await organiser.aclose()
    # the server stops in the middle of the event (tables in play) and starts again
    async with running(settings) as app:
        client = (await people(app, "Org"))[0]
        doc = await wait_for(client, tid, finished)
        assert len(doc["rounds"]) == 5
        met = Counter(frozenset((m["a"], m["b"])) for m in all_matches(doc))
        assert len(met) == 15 and set(met.values()) == {1}  # everyone met everyone once
        lines = doc["standings"]
        assert [line["played"] for line in lines] == [5] * 6
        assert sum(line["points"] for line in lines) == 15
        await check_results_match_deals(app, doc)
        await check_no_shows_played_by_bots(app, doc, pair)


async def test_knockout_matches_of_two_deals_are_never_left_level(event_app: FastAPI) -> None:
    """Two deals a match: a match level after them plays on a deal at a time (the table goes on
    past the engine's end of the match) until a team is ahead; each result is the first point
    where a team led after at least two scored deals."""
    organiser = (await people(event_app, "Org"))[0]
    tid = (await create(organiser, format="knockout", match_deals=2, max_teams=8))["id"]
    r = await organiser.post(f"/api/tournaments/{tid}/bots", json={"teams": 8, "level": "random"})
    assert r.status_code == 201, r.text
    assert (await organiser.post(f"/api/tournaments/{tid}/start")).status_code == 200
    doc = await wait_for(organiser, tid, finished)
    for m in all_matches(doc):
        deals = (await deals_of(event_app, m["table_id"]))[: m["result"]["deals"]]
        won = [0, 0]
        scored = 0
        for i, d in enumerate(deals):
            if d.outcome == "invalid":
                continue
            scored += 1
            won[d.bidder_team if d.outcome == "won" else 1 - d.bidder_team] += 1
            decided = scored >= 2 and won[0] != won[1]
            assert decided == (i == len(deals) - 1), (m["id"], i, won)  # stops at the first lead
        assert m["result"]["score"] == won and won[0] != won[1]
        assert m["winner"] == (m["a"] if won[0] > won[1] else m["b"])


async def test_a_knockout_with_a_third_place_match(event_app: FastAPI) -> None:
    organiser = (await people(event_app, "Org"))[0]
    tid = (await create(organiser, max_teams=4, third_place=True))["id"]
    await organiser.post(f"/api/tournaments/{tid}/bots", json={"teams": 4, "level": "random"})
    await organiser.post(f"/api/tournaments/{tid}/start")
    doc = await wait_for(organiser, tid, finished)
    semis, last = doc["rounds"]
    assert [m["kind"] for m in last["matches"]] == ["match", "third_place"]
    final, third = last["matches"]
    losers = {m["a"] if m["winner"] == m["b"] else m["b"] for m in semis["matches"]}
    assert {third["a"], third["b"]} == losers
    assert {final["a"], final["b"]} == {m["winner"] for m in semis["matches"]}
    places = {r["entry"]: r["place"] for r in doc["ranking"]}
    assert places[final["winner"]] == 1 and places[third["winner"]] == 3
    assert sorted(places.values()) == [1, 2, 3, 4]
