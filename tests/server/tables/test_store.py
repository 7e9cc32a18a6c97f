"""The table store's group commit: changes handed in together share a transaction, yet each
keeps its own compare-and-set and its own answer."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import select

from twentynine.server.history.models import DealHistory
from twentynine.server.tables.models import GameTable
from twentynine.server.tables.store import StaleVersion, TableStore


async def _tables(app: FastAPI, n: int) -> list[str]:
    ids = [f"store{i:04d}" for i in range(n)]
    async with app.state.sessionmaker() as db:
        for table_id in ids:
            db.add(GameTable(id=table_id, kind="public", rules={}, version=0))
        await db.commit()
    return ids


async def _stored(app: FastAPI) -> dict[str, tuple[int, Any, str]]:
    async with app.state.sessionmaker() as db:
        rows = await db.scalars(select(GameTable))
        return {r.id: (r.version, r.state, r.status) for r in rows}


#: a test of the SQLite writer alone (PostgreSQL changes always go through the writer task)
SQLITE_ONLY = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


@contextlib.contextmanager
def sqlite_write_lock(store: TableStore) -> Iterator[None]:
    """Another connection holds SQLite's write lock (as a request's transaction can)."""
    assert store.sqlite is not None
    other = sqlite3.connect(store.sqlite.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.execute("COMMIT")
        other.close()


async def test_changes_arriving_together_share_a_transaction(app: FastAPI) -> None:
    store = TableStore(app.state.sessionmaker)
    ids = await _tables(app, 40)
    saves = [store.save(t, 0, 1, {"n": i}, "playing") for i, t in enumerate(ids)]
    if store.sqlite is None:
        await asyncio.gather(*saves)
    else:  # on SQLite only a change that finds the write lock taken waits for a transaction
        with sqlite_write_lock(store):
            waiting = asyncio.gather(*saves)
            await asyncio.sleep(0.05)
            assert not waiting.done()  # none written while the lock is held
        await waiting
        assert store.sqlite.handed_over == 40 and store.sqlite.written_at_once == 0
    assert store.changes == 40 and store.handed_in == 40
    assert store.batches < 40  # the first goes alone, the rest wait for it and go together
    stored = await _stored(app)
    assert all(stored[t] == (1, {"n": i}, "playing") for i, t in enumerate(ids))
    await store.close()


@SQLITE_ONLY
async def test_on_sqlite_a_change_is_written_at_once_when_the_lock_is_free(
    app: FastAPI, database_url: str
) -> None:
    store = TableStore(app.state.sessionmaker)
    assert store.sqlite is not None
    ids = await _tables(app, 3)
    # the save ends without waiting for anything: committed on the spot
    save = store.save(ids[0], 0, 1, {"a": 1}, "playing")
    with pytest.raises(StopIteration):  # the coroutine ends at its first step
        save.send(None)
    assert (await _stored(app))[ids[0]] == (1, {"a": 1}, "playing")
    with pytest.raises(StaleVersion):  # the compare-and-set holds there too
        await store.save(ids[0], 0, 1, {"a": 2}, "playing")
    with pytest.raises(TypeError):  # a snapshot that cannot be stored changes nothing
        await store.save(ids[1], 0, 1, {"bad": object()}, "playing")
    assert (await _stored(app))[ids[1]] == (0, None, "waiting")
    # while the lock is taken the change waits for the writer's thread; once it is free,
    # changes are written at once again
    with sqlite_write_lock(store):
        waiting = asyncio.ensure_future(store.save(ids[1], 0, 1, {"b": 1}, "playing"))
        await asyncio.sleep(0.05)
        assert not waiting.done()
    await waiting
    await store.save(ids[2], 0, 1, {"c": 1}, "playing")
    # at once: a, the stale a, c (the one that could not be stored failed before any writing)
    assert (store.sqlite.written_at_once, store.sqlite.handed_over) == (3, 1)
    stored = await _stored(app)
    assert [stored[t] for t in ids] == [
        (1, {"a": 1}, "playing"),
        (1, {"b": 1}, "playing"),
        (1, {"c": 1}, "playing"),
    ]
    await store.close()


@SQLITE_ONLY
async def test_on_sqlite_the_write_ahead_log_is_checkpointed_and_starts_again(
    app: FastAPI, database_url: str
) -> None:
    store = TableStore(app.state.sessionmaker)
    assert store.sqlite is not None
    store.sqlite.CHECKPOINT_EVERY = 20
    store.sqlite.RESTART_EVERY = 2  # the log starts again every 40 changes
    (table_id,) = await _tables(app, 1)
    big = {"padding": "x" * 3000}
    for v in range(200):
        await store.save(table_id, v, v + 1, big, "playing")
        await store.sqlite.checkpointed()
    assert store.sqlite.checkpoints >= 9
    # the log holds only what came since the last checkpoint, not 200 snapshots
    probe = sqlite3.connect(store.sqlite.path, isolation_level=None)
    _busy, frames, _moved = probe.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    probe.close()
    assert 0 <= frames < 100, frames
    assert (await _stored(app))[table_id] == (200, big, "playing")
    await store.close()


async def test_a_stale_change_is_refused_alone(app: FastAPI) -> None:
    store = TableStore(app.state.sessionmaker)
    ids = await _tables(app, 3)
    results = await asyncio.gather(
        store.save(ids[0], 0, 1, {"a": 1}, "playing"),
        store.save(ids[1], 5, 6, {"b": 1}, "playing"),  # the stored version is 0, not 5
        store.save(ids[2], 0, 1, {"c": 1}, "playing"),
        return_exceptions=True,
    )
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], StaleVersion)
    stored = await _stored(app)
    assert stored[ids[0]] == (1, {"a": 1}, "playing")
    assert stored[ids[1]] == (0, None, "waiting")
    assert stored[ids[2]] == (1, {"c": 1}, "playing")


async def test_a_failing_change_does_not_fail_its_batch(app: FastAPI) -> None:
    store = TableStore(app.state.sessionmaker)
    ids = await _tables(app, 3)
    # a state JSON cannot encode fails in the database layer, inside the shared transaction
    results = await asyncio.gather(
        store.save(ids[0], 0, 1, {"a": 1}, "playing"),
        store.save(ids[1], 0, 1, {"bad": object()}, "playing"),
        store.save(ids[2], 0, 1, {"c": 1}, "playing"),
        return_exceptions=True,
    )
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], Exception) and not isinstance(results[1], StaleVersion)
    stored = await _stored(app)
    assert stored[ids[0]][0] == 1 and stored[ids[2]][0] == 1
    assert stored[ids[1]] == (0, None, "waiting")
    await store.flush()


async def test_one_table_in_order(app: FastAPI) -> None:
    """A table's changes come one after another (its queue waits for each): every version."""
    store = TableStore(app.state.sessionmaker)
    (table_id,) = await _tables(app, 1)
    for v in range(20):
        await store.save(table_id, v, v + 1, {"v": v + 1}, "playing")
    with pytest.raises(StaleVersion):
        await store.save(table_id, 3, 4, {"v": 4}, "playing")
    assert (await _stored(app))[table_id] == (20, {"v": 20}, "playing")


async def test_what_the_writer_stores_reads_back_through_the_orm(
    app: FastAPI, database_url: str
) -> None:
    """On a SQLite file the writer has its own connection and thread (plain sqlite3): what it
    writes must read back through SQLAlchemy exactly as SQLAlchemy's own writes do."""
    from twentynine.server.db import utcnow
    from twentynine.server.tables.models import TableSeat

    store = TableStore(app.state.sessionmaker)
    assert (store.sqlite is not None) == database_url.startswith("sqlite")
    (table_id,) = await _tables(app, 1)
    async with app.state.sessionmaker() as db:
        for seat in range(4):
            db.add(TableSeat(table_id=table_id, seat=seat))
        await db.commit()
    state = {"game": {"deals": [1, 2], "names": ["Ана", "नेपाल"], "none": None}, "ok": True}
    before = utcnow()
    seats = [(0, None, "expert", False), (2, None, "", True)]
    await store.save(table_id, 0, 1, state, "playing", seats)
    await store.save(table_id, 1, 2, None, "paused")
    async with app.state.sessionmaker() as db:
        row = await db.get(GameTable, table_id)
        assert row is not None
        assert (row.version, row.state, row.status) == (2, None, "paused")
        assert before <= row.updated_at <= utcnow()
        got = {
            s.seat: (s.user_id, s.bot, s.joined)
            for s in await db.scalars(select(TableSeat).where(TableSeat.table_id == table_id))
        }
    assert got == {
        0: (None, "expert", False),
        1: (None, "", False),
        2: (None, "", True),
        3: (None, "", False),
    }
    await store.save(table_id, 2, 3, state, "playing")
    assert (await _stored(app))[table_id] == (3, state, "playing")
    await store.close()


async def test_deals_ending_together_are_all_stored_one_transaction_at_a_time_on_sqlite(
    app: FastAPI,
) -> None:
    """Many tables ending a deal at once: every record is stored with its players and told to
    the listeners once; on SQLite their transactions come one after another (none waits for
    the file's write lock ahead of the tables' own changes)."""
    store = TableStore(app.state.sessionmaker)
    ids = await _tables(app, 30)
    told: list[str] = []

    async def listener(table_id: str) -> None:
        told.append(table_id)

    store.deal_listeners.append(listener)
    open_now = most = 0
    maker = store.maker

    @contextlib.asynccontextmanager
    async def counting() -> Any:
        nonlocal open_now, most
        open_now += 1
        most = max(most, open_now)
        try:
            async with maker() as db:
                yield db
        finally:
            open_now -= 1

    store.maker = counting  # type: ignore[assignment]
    deal_ids = await asyncio.gather(
        *(
            store.add_deal(t, 1, 1, {"n": i}, "made", 0, "16", [1, -1], [None] * 4, False, None)
            for i, t in enumerate(ids)
        )
    )
    store.maker = maker  # type: ignore[method-assign]
    assert len(set(deal_ids)) == 30 and sorted(told) == sorted(ids)
    async with app.state.sessionmaker() as db:
        rows = list(await db.scalars(select(DealHistory)))
    assert sorted(r.table_id for r in rows) == sorted(ids)
    assert {r.table_id: r.record for r in rows} == {t: {"n": i} for i, t in enumerate(ids)}
    if store.sqlite is not None:
        assert most == 1
    await store.close()
