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


def _log_restarts(path: str) -> int:
    """How many times the write-ahead log has started again: its header's checkpoint number."""
    with open(path + "-wal", "rb") as log_file:
        return int.from_bytes(log_file.read(16)[12:16], "big")


@SQLITE_ONLY
async def test_on_sqlite_the_log_starts_again_on_the_writers_thread_not_the_event_loops(
    app: FastAPI,
) -> None:
    # the commit that starts the log again flushes it to the disk: the checkpoint's thread
    # makes that commit, so the next change written on the event loop's thread does not
    store = TableStore(app.state.sessionmaker)
    assert store.sqlite is not None
    store.sqlite.CHECKPOINT_EVERY = 10
    store.sqlite.RESTART_EVERY = 1
    (table_id,) = await _tables(app, 1)
    for v in range(10):
        await store.save(table_id, v, v + 1, {"v": v}, "playing")
    before = _log_restarts(store.sqlite.path)
    await store.sqlite.checkpointed()
    assert store.sqlite.checkpoints == 1
    after_checkpoint = _log_restarts(store.sqlite.path)
    assert after_checkpoint == before + 1
    await store.save(table_id, 10, 11, {"v": 10}, "playing")
    assert store.sqlite.written_at_once == 11
    assert _log_restarts(store.sqlite.path) == after_checkpoint
    assert (await _stored(app))[table_id] == (11, {"v": 10}, "playing")
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


async def _users(app: FastAPI, n: int) -> list[int]:
    from twentynine.server.accounts.models import User

    async with app.state.sessionmaker() as db:
        users = [User(email=f"store{i}@example.com", first_name=f"S{i}") for i in range(n)]
        db.add_all(users)
        await db.commit()
        return [u.id for u in users]


def _deal(store: TableStore, table_id: str, n: int, seat_users: list[int | None]) -> Any:
    return store.add_deal(
        table_id, 1, n, {"n": n, "actions": [{"type": "bid", "value": 16}]}, "made",
        n % 2 if n % 3 else None, "16" if n % 3 else "", [n, -n], seat_users, n == 7, 0 if n == 7
        else None, [n % 2, 0],
    )  # fmt: skip


async def test_deals_ending_together_are_stored_with_their_players_and_told(
    app: FastAPI,
) -> None:
    """Many tables ending a deal at once, among the tables' changes: every record is stored
    with its players, reads back through the ORM as written, and is told to the listeners
    once. On SQLite the records go in the tables' transactions, ``DEALS_PER_BATCH`` at most
    in one (none waits for the file's write lock alone, ahead of the tables' changes)."""
    from twentynine.server.db import utcnow
    from twentynine.server.history.models import DealPlayer

    store = TableStore(app.state.sessionmaker)
    ids = await _tables(app, 40)
    ana, ben = await _users(app, 2)
    told: list[str] = []

    async def listener(table_id: str) -> None:
        told.append(table_id)

    store.deal_listeners.append(listener)
    before = utcnow()
    deals = [_deal(store, t, i, [ana, None, ben, ana]) for i, t in enumerate(ids[:30])]
    saves = [store.save(t, 0, 1, {"t": t}, "playing") for t in ids[30:]]
    if store.sqlite is None:
        deal_ids = await asyncio.gather(*deals)
        await asyncio.gather(*saves)
    else:
        store.sqlite.DEALS_PER_BATCH = 8
        with sqlite_write_lock(store):
            waiting = asyncio.gather(asyncio.gather(*deals), asyncio.gather(*saves))
            await asyncio.sleep(0.05)
            assert not waiting.done() and not told
        deal_ids, _ = await waiting
        # the ten changes with the first eight records, then three more transactions; the
        # first waited for the lock on the writer's thread, the others went at once
        assert (store.batches, store.changes) == (4, 10)
        assert (store.sqlite.handed_over, store.sqlite.written_at_once) == (18, 22)
    assert len(set(deal_ids)) == 30 and sorted(told) == sorted(ids[:30])
    assert store.handed_in == 40
    async with app.state.sessionmaker() as db:
        rows = {r.id: r for r in await db.scalars(select(DealHistory))}
        players = list(await db.scalars(select(DealPlayer)))
    assert sorted(rows) == sorted(deal_ids)
    for n, (table_id, deal_id) in enumerate(zip(ids, deal_ids, strict=False)):
        r = rows[deal_id]
        assert (r.table_id, r.game_no, r.deal_no, r.outcome) == (table_id, 1, n, "made")
        assert r.record == {"n": n, "actions": [{"type": "bid", "value": 16}]}
        assert (r.bidder_team, r.contract) == ((n % 2, "16") if n % 3 else (None, ""))
        assert (r.score_delta, r.seat_users, r.sets_won) == (
            [n, -n],
            [ana, None, ben, ana],
            [n % 2, 0],
        )
        assert (r.game_over, r.game_winner) == ((True, 0) if n == 7 else (False, None))
        assert before <= r.finished_at <= utcnow()
    # a person in two seats is listed once, at the first
    assert sorted((p.deal_id, p.user_id, p.seat) for p in players) == sorted(
        x for d in deal_ids for x in ((d, ana, 0), (d, ben, 2))
    )
    assert all(
        v == (1, {"t": t}, "playing") for t, v in (await _stored(app)).items() if t in ids[30:]
    )
    await store.close()


async def test_a_deal_that_cannot_be_stored_fails_alone(app: FastAPI) -> None:
    """A record naming a player the database does not know fails, and changes nothing; the
    records and changes that shared its transaction are stored all the same."""
    store = TableStore(app.state.sessionmaker)
    ids = await _tables(app, 4)
    (ana,) = await _users(app, 1)
    results = await asyncio.gather(
        _deal(store, ids[0], 1, [ana, None, None, None]),
        _deal(store, ids[1], 2, [ana, 987654, None, None]),  # no such person
        store.save(ids[2], 0, 1, {"c": 1}, "playing"),
        _deal(store, ids[3], 4, [None, None, None, ana]),
        return_exceptions=True,
    )
    assert isinstance(results[0], int) and isinstance(results[3], int)
    assert results[2] is None
    assert isinstance(results[1], Exception) and not isinstance(results[1], StaleVersion)
    async with app.state.sessionmaker() as db:
        stored = sorted((r.table_id, r.deal_no) for r in await db.scalars(select(DealHistory)))
    assert stored == [(ids[0], 1), (ids[3], 4)]
    assert (await _stored(app))[ids[2]] == (1, {"c": 1}, "playing")
    await store.close()
