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
