"""One owner at a time: the lease on a tournament's row, and the compare-and-set on its version
that keeps a step from being taken twice."""

from __future__ import annotations

import asyncio

import pytest
from fastapi import FastAPI

from twentynine.server.tournaments.models import Tournament
from twentynine.server.tournaments.owner import TournamentOwner
from twentynine.server.tournaments.service import Stale, bump

from .conftest import create, people


async def test_only_one_owner_holds_a_tournament(event_app: FastAPI) -> None:
    org = (await people(event_app, "Org"))[0]
    tid = (await create(org))["id"]
    ours: TournamentOwner = event_app.state.tournaments
    other = TournamentOwner(event_app)  # as another process would run
    other.lease_seconds = 0.5
    await ours.stop()  # ours lets go of everything; the other takes it
    assert await other._lease(tid)
    assert not await ours._lease(tid)  # held by the other
    assert await other._lease(tid)  # its holder renews it
    await asyncio.sleep(0.6)  # the other stops renewing (a crash): the lease lapses
    other.held.clear()
    assert await ours._lease(tid)
    assert not await other._lease(tid)
    await ours.stop()  # a clean stop gives it back at once
    assert await other._lease(tid)


async def test_a_step_is_taken_once(event_app: FastAPI) -> None:
    org = (await people(event_app, "Org"))[0]
    tid = (await create(org))["id"]
    maker = event_app.state.sessionmaker
    async with maker() as one, maker() as two:
        a = await one.get(Tournament, tid)
        b = await two.get(Tournament, tid)
        assert a is not None and b is not None and a.version == b.version
        await bump(one, a)
        await one.commit()
        with pytest.raises(Stale):  # the second saw the same version: refused
            await bump(two, b)
        await two.rollback()
    async with maker() as db:
        row = await db.get(Tournament, tid)
        assert row is not None and row.version == a.version


async def test_only_a_tournament_tables_deals_are_looked_up(event_app: FastAPI) -> None:
    """Every stored deal reaches the owner; it looks for a match only behind a deal of a
    tournament's table (or of a table this process does not hold), not behind each of the
    other tables' deals (1,000 tables ending a deal together made as many queries)."""
    from types import SimpleNamespace

    owner: TournamentOwner = event_app.state.tournaments
    looked: list[str] = []

    async def deal_ended(table_id: str) -> None:
        looked.append(table_id)

    owner._deal_ended = deal_ended  # type: ignore[method-assign]
    held = event_app.state.tables.tables
    for table_id, kind in (("pub1", "public"), ("priv1", "private"), ("tour1", "tournament")):
        held[table_id] = SimpleNamespace(info=SimpleNamespace(kind=kind))
    try:
        for table_id in ("pub1", "priv1", "tour1", "elsewhere1"):
            await owner.on_deal_end(table_id)
        await asyncio.gather(*owner.pending)
    finally:
        for table_id in ("pub1", "priv1", "tour1"):
            del held[table_id]
    assert looked == ["tour1", "elsewhere1"]
