"""Reading and writing tables: the row, its seats, chat, and each change of the game snapshot
with a compare-and-set on the version, so no action is ever lost or applied twice.

Snapshots are written by one writer task per process (group commit): the changes that arrive
while a transaction is under way go together in the next one. Each change keeps its own
compare-and-set and its own answer (stored, or :class:`StaleVersion`), and a table's change is
acknowledged only once its transaction committed. A failing batch is retried change by change,
so one bad change cannot fail the others.

On a SQLite file the store writes with the standard library's ``sqlite3`` instead of the async
driver, where each statement is a trip to the driver's thread and back through a busy event
loop (about 0.3 ms of CPU a change, against a tenth of that for the writing). A transaction
takes SQLite's write lock first (``BEGIN IMMEDIATE``); each change in it is an UPDATE that
matches the table's id and the version the change expects, so a stale change updates nothing.

* When the write lock is free, a change is written at once, on the event loop's own thread
  (a commit in WAL mode with ``synchronous=NORMAL`` is a write to the operating system's cache,
  no disk flush: about 20 microseconds). Handing it to a thread cost more: each trip waits for
  the thread to get the interpreter's lock from a busy loop, which made the slowest 1% of saves
  take over 5 ms under load.
* When another connection holds the lock (a request's transaction, a checkpoint), SQLite
  answers "busy" at once and the change goes to the writer's thread, which waits for the lock
  (group commit as above); changes handed in meanwhile follow it there.
* That connection never moves the write-ahead log into the database file itself (a checkpoint
  flushes the disk: several milliseconds). The writer's thread does it every
  ``CHECKPOINT_EVERY`` changes alongside the writers (``PASSIVE``), and every few of those
  also briefly holds them off (``RESTART``) so that the log starts again from its beginning
  and stays small.

Elsewhere (PostgreSQL) the batch goes through SQLAlchemy.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import Table, bindparam, select, update
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from ..db import utcnow
from ..history.models import DealHistory, DealPlayer
from .models import ChatMessage, GameTable, TableSeat

log = logging.getLogger("twentynine.server")


class StaleVersion(Exception):
    """Another writer changed the table first."""


class StaleBatch(Exception):
    """A batch lost a race it cannot pin on one change: written again change by change."""


_TABLES: Table = GameTable.__table__  # type: ignore[assignment]
_SEATS: Table = TableSeat.__table__  # type: ignore[assignment]
_UPDATE_TABLE = (
    update(_TABLES)
    .where(_TABLES.c.id == bindparam("b_id"), _TABLES.c.version == bindparam("b_version"))
    .values(
        version=bindparam("version"),
        state=bindparam("state", type_=_TABLES.c.state.type),
        status=bindparam("status"),
        updated_at=bindparam("updated_at"),
    )
)
_UPDATE_SEAT = (
    update(_SEATS)
    .where(_SEATS.c.table_id == bindparam("b_table_id"), _SEATS.c.seat == bindparam("b_seat"))
    .values(user_id=bindparam("user_id"), bot=bindparam("bot"), joined=bindparam("joined"))
)


SeatRows = list[tuple[int, int | None, str, bool]]


@dataclass(eq=False)
class _Change:
    table_id: str
    version: int
    new_version: int
    state: dict[str, Any] | None
    status: str
    seats: SeatRows | None
    done: asyncio.Future[None] | None  # None: written at once (no one waits)


def _sqlite_file(maker: async_sessionmaker[AsyncSession]) -> str | None:
    """The database file when ``maker`` opens a SQLite file (not an in-memory database)."""
    engine = maker.kw.get("bind")
    if not isinstance(engine, AsyncEngine) or engine.dialect.name != "sqlite":
        return None
    path = engine.url.database
    return path if path and path != ":memory:" and not path.startswith("file:") else None


def _sqlite_time(when: dt.datetime) -> str:
    """A DateTime as SQLAlchemy stores it in SQLite."""
    return when.isoformat(" ", "microseconds")  # "%Y-%m-%d %H:%M:%S.%f", three times quicker


class SqliteWriter:
    """Writes batches of changes to a SQLite file: at once on the event loop's thread when the
    write lock is free, else from a thread of its own (see the module's note). Each has its own
    connection."""

    #: changes written at once between two checkpoints of the write-ahead log
    CHECKPOINT_EVERY = 500
    #: every this many checkpoints, one that starts the log again (holding writers off briefly)
    RESTART_EVERY = 8
    #: how long a checkpoint waits for readers before it leaves the log as it is (ms)
    CHECKPOINT_WAIT_MS = 20

    def __init__(self, path: str) -> None:
        self.path = path
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="table-store")
        self._conn: sqlite3.Connection | None = None  # the thread's
        self._inline: sqlite3.Connection | None = None  # the event loop's
        self._since_checkpoint = 0
        self._checkpointing: asyncio.Future[None] | None = None
        #: changes settled at once (stored or found stale), changes that went to the thread,
        #: checkpoints run
        self.written_at_once = 0
        self.handed_over = 0
        self.checkpoints = 0
        t, s = _TABLES.name, _SEATS.name
        self._update_table = (
            f"UPDATE {t} SET version = ?, state = ?, status = ?, updated_at = ? "
            "WHERE id = ? AND version = ?"
        )
        self._update_seat = (
            f"UPDATE {s} SET user_id = ?, bot = ?, joined = ? WHERE table_id = ? AND seat = ?"
        )

    @staticmethod
    def _rows(
        batch: list[_Change], now: dt.datetime
    ) -> tuple[list[tuple[Any, ...]], list[list[tuple[Any, ...]]]]:
        """The statements' parameters; the snapshots encoded with orjson (quick)."""
        when = _sqlite_time(now)
        rows = [
            (
                c.new_version,
                None
                if c.state is None
                else orjson.dumps(c.state, option=orjson.OPT_NON_STR_KEYS).decode(),
                c.status,
                when,
                c.table_id,
                c.version,
            )
            for c in batch
        ]
        seats = [
            [(user, bot, int(joined), c.table_id, seat) for seat, user, bot, joined in c.seats]
            if c.seats
            else []
            for c in batch
        ]
        return rows, seats

    def write_now(self, batch: list[_Change], now: dt.datetime) -> set[int] | None:
        """The batch in one transaction on the calling thread (the event loop's), if SQLite's
        write lock is free: the indexes of the changes whose version was stale. None, with
        nothing written, when another connection holds the lock."""
        rows, seats = self._rows(batch, now)
        conn = self._inline_connection()
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as e:
            if e.sqlite_errorcode in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                return None
            raise
        stale = self._transaction(conn, rows, seats)
        self.written_at_once += len(batch)
        self._since_checkpoint += len(batch)
        if self._since_checkpoint >= self.CHECKPOINT_EVERY and self._checkpointing is None:
            self._since_checkpoint = 0
            self._checkpointing = asyncio.get_running_loop().run_in_executor(
                self._thread, self._checkpoint
            )
            self._checkpointing.add_done_callback(self._checkpoint_done)
        return stale

    async def write(self, batch: list[_Change], now: dt.datetime) -> set[int]:
        """The batch in one transaction on the writer's thread, which waits for the write lock;
        the indexes of the changes whose version was stale."""
        rows, seats = self._rows(batch, now)
        self.handed_over += len(batch)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, self._write, rows, seats)

    def _open(self, timeout: float) -> sqlite3.Connection:
        # used by one thread at a time, though not always the one that opened it (the event
        # loop's connection follows whichever thread runs the loop)
        conn = sqlite3.connect(
            self.path, timeout=timeout, isolation_level=None, check_same_thread=False
        )
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA synchronous=NORMAL")
        return conn

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            self._conn = self._open(30)
        return self._conn

    def _inline_connection(self) -> sqlite3.Connection:
        if self._inline is None:
            conn = self._open(0)  # never wait for the lock on the event loop: "busy" at once
            conn.execute("PRAGMA wal_autocheckpoint=0")  # the thread checkpoints
            conn.execute(f"PRAGMA journal_size_limit={64 << 20}")
            self._inline = conn
        return self._inline

    def _checkpoint(self) -> None:
        """Move the write-ahead log into the database file alongside the writers; every
        ``RESTART_EVERY``-th time also hold them off for the little that came meanwhile, so
        that the log starts again from its beginning (a change that finds the lock taken
        then waits on this thread: a few milliseconds, every few thousand changes)."""
        conn = self._connection()
        conn.execute(f"PRAGMA busy_timeout={self.CHECKPOINT_WAIT_MS}")
        try:
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            if (self.checkpoints + 1) % self.RESTART_EVERY == 0:
                conn.execute("PRAGMA wal_checkpoint(RESTART)").fetchall()
        finally:
            conn.execute("PRAGMA busy_timeout=30000")
        self.checkpoints += 1

    def _checkpoint_done(self, done: asyncio.Future[None]) -> None:
        self._checkpointing = None
        if not done.cancelled() and done.exception() is not None:
            log.warning("table store: checkpoint failed: %s", done.exception())

    def _write(self, rows: list[tuple[Any, ...]], seats: list[list[tuple[Any, ...]]]) -> set[int]:
        conn = self._connection()
        conn.execute("BEGIN IMMEDIATE")
        return self._transaction(conn, rows, seats)

    def _transaction(
        self,
        conn: sqlite3.Connection,
        rows: list[tuple[Any, ...]],
        seats: list[list[tuple[Any, ...]]],
    ) -> set[int]:
        """The rest of a transaction begun with ``BEGIN IMMEDIATE``: committed, or rolled back
        on any error. Each change is its own compare-and-set, an UPDATE on the id and the
        version it expects: one that touches no row was stale (or its table is gone)."""
        try:
            stale: set[int] = set()
            update_table = self._update_table
            for i, row in enumerate(rows):
                if conn.execute(update_table, row).rowcount != 1:
                    stale.add(i)
            seat_rows = [row for i, rs in enumerate(seats) if i not in stale for row in rs]
            if seat_rows:
                conn.executemany(self._update_seat, seat_rows)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        return stale

    async def checkpointed(self) -> None:
        """Wait for the checkpoint under way, if any."""
        if self._checkpointing is not None:
            await asyncio.wait({self._checkpointing})

    def close_inline(self) -> None:
        """Close the event loop's connection (on the event loop's thread)."""
        if self._inline is not None:
            self._inline.close()
            self._inline = None

    def close(self) -> None:
        """Close the thread's connection and let the thread go (from any other thread)."""

        def close() -> None:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

        self._thread.submit(close).result()
        self._thread.shutdown()


class TableStore:
    def __init__(self, maker: async_sessionmaker[AsyncSession]) -> None:
        self.maker = maker
        self._pending: list[_Change] = []
        self._writer: asyncio.Task[None] | None = None
        path = _sqlite_file(maker)
        self.sqlite = SqliteWriter(path) if path is not None else None
        #: transactions and changes written (for the operator and the tests)
        self.batches = 0
        self.changes = 0
        #: changes handed in to be written, stored yet or not (the paced collector's measure
        #: of the tables' activity: a writer held up for a while is not idle tables)
        self.handed_in = 0
        #: called with a table's id once a finished deal of it is stored (tournaments listen)
        self.deal_listeners: list[Callable[[str], Awaitable[None]]] = []
        #: on SQLite, one deal record written at a time: when many tables end a deal at once,
        #: their transactions would otherwise all wait for the file's write lock, sleeping and
        #: trying again, ahead of the tables' own changes (a burst of 1,050 records at once held
        #: those up to 1.4 s in a load run)
        self._one_deal_at_a_time: contextlib.AbstractAsyncContextManager[Any] = (
            asyncio.Lock() if self.sqlite is not None else contextlib.nullcontext()
        )

    async def load(self, table_id: str) -> tuple[GameTable, list[TableSeat]] | None:
        async with self.maker() as db:
            row = await db.get(GameTable, table_id)
            if row is None:
                return None
            seats = list(
                await db.scalars(
                    select(TableSeat).where(TableSeat.table_id == table_id).order_by(TableSeat.seat)
                )
            )
            return row, seats

    async def save(
        self,
        table_id: str,
        version: int,
        new_version: int,
        state: dict[str, Any] | None,
        status: str,
        seats: SeatRows | None = None,
    ) -> None:
        """Write the snapshot if the stored version is still ``version`` (else raise
        :class:`StaleVersion`); returns once it is committed."""
        self.handed_in += 1
        idle = not self._pending and (self._writer is None or self._writer.done())
        if idle and self.sqlite is not None:  # at once, if SQLite's write lock is free
            change = _Change(table_id, version, new_version, state, status, seats, None)
            stale = self.sqlite.write_now([change], utcnow())
            if stale is not None:
                self.batches += 1
                self.changes += 1
                if stale:
                    raise StaleVersion(table_id)
                return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append(_Change(table_id, version, new_version, state, status, seats, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_pending(), name="table-store-writer")
        await done

    async def flush(self) -> None:
        """Wait until every change handed in so far is written (or refused)."""
        writer = self._writer
        if writer is not None and not writer.done():
            await asyncio.wait({writer})

    async def close(self) -> None:
        """Write what is pending, then let the SQLite writer's connections and thread go."""
        await self.flush()
        if self.sqlite is not None:
            await self.sqlite.checkpointed()
            self.sqlite.close_inline()
            await asyncio.to_thread(self.sqlite.close)

    async def _write_pending(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                self._settle(batch, await self._write(batch))
            except Exception as error:
                if len(batch) == 1:
                    self._fail(batch[0], error)
                    continue
                for change in batch:  # find the change that fails: each alone
                    try:
                        self._settle([change], await self._write([change]))
                    except Exception as alone:
                        self._fail(change, alone)

    @staticmethod
    def _fail(change: _Change, error: Exception) -> None:
        if change.done is not None and not change.done.done():
            change.done.set_exception(error)

    @staticmethod
    def _settle(batch: list[_Change], stale: set[int]) -> None:
        for i, change in enumerate(batch):
            if change.done is None or change.done.done():
                continue
            if i in stale:
                change.done.set_exception(StaleVersion(change.table_id))
            else:
                change.done.set_result(None)

    async def _write(self, batch: list[_Change]) -> set[int]:
        """One transaction for the batch; the indexes of the changes whose version was stale.
        On a SQLite file, :class:`SqliteWriter` (one compare-and-set UPDATE a change). Elsewhere
        a few statements whatever the batch's size (each await waits for a turn of a busy event
        loop): read the stored versions (locking the rows), update the tables whose version
        still matches in one executemany, then their seats."""
        now = utcnow()
        if self.sqlite is not None:
            stale = await self.sqlite.write(batch, now)
            self.batches += 1
            self.changes += len(batch)
            return stale
        ids = [c.table_id for c in batch]
        async with self.maker() as session:
            db = await session.connection()
            rows = await db.execute(
                select(GameTable.id, GameTable.version)
                .where(GameTable.id.in_(ids))
                .order_by(GameTable.id)  # rows locked in one order: no deadlock between processes
                .with_for_update()
            )
            stored = {table_id: version for table_id, version in rows}
            stale = {i for i, c in enumerate(batch) if stored.get(c.table_id) != c.version}
            fresh = [c for i, c in enumerate(batch) if i not in stale]
            if fresh:
                result = await db.execute(
                    _UPDATE_TABLE,
                    [
                        {
                            "b_id": c.table_id,
                            "b_version": c.version,
                            "version": c.new_version,
                            "state": c.state,
                            "status": c.status,
                            "updated_at": now,
                        }
                        for c in fresh
                    ],
                )
                if db.dialect.supports_sane_multi_rowcount and result.rowcount != len(fresh):
                    # a writer outside this process got between the read and the update
                    # (SQLite cannot lock rows)
                    if len(batch) > 1:
                        raise StaleBatch()  # no guessing which: each change alone
                    await session.rollback()
                    return {0}
            seat_rows = [
                {
                    "b_table_id": c.table_id,
                    "b_seat": seat,
                    "user_id": user_id,
                    "bot": bot,
                    "joined": joined,
                }
                for c in fresh
                for seat, user_id, bot, joined in c.seats or ()
            ]
            if seat_rows:
                await db.execute(_UPDATE_SEAT, seat_rows)
            await session.commit()
        self.batches += 1
        self.changes += len(batch)
        return stale

    async def names(self, user_ids: list[int | None]) -> dict[int, str]:
        from ..accounts.models import User

        ids = [u for u in user_ids if u]
        if not ids:
            return {}
        async with self.maker() as db:
            rows = await db.scalars(select(User).where(User.id.in_(ids)))
            return {u.id: u.first_name for u in rows}

    async def add_chat(
        self, table_id: str, user_id: int | None, name: str, spectator: bool, text: str
    ) -> ChatMessage:
        async with self.maker() as db:
            line = ChatMessage(
                table_id=table_id, user_id=user_id, name=name, spectator=spectator, text=text
            )
            db.add(line)
            await db.commit()
            return line

    async def chat(self, table_id: str, limit: int = 100) -> list[ChatMessage]:
        async with self.maker() as db:
            rows = await db.scalars(
                select(ChatMessage)
                .where(ChatMessage.table_id == table_id)
                .order_by(ChatMessage.id.desc())
                .limit(limit)
            )
            return list(reversed(list(rows)))

    async def add_deal(
        self,
        table_id: str,
        game_no: int,
        deal_no: int,
        record: dict[str, Any],
        outcome: str,
        bidder_team: int | None,
        contract: str,
        score_delta: list[int],
        seat_users: list[int | None],
        game_over: bool,
        game_winner: int | None,
        sets_won: list[int] | None = None,
    ) -> int:
        async with self._one_deal_at_a_time, self.maker() as db:
            deal = DealHistory(
                table_id=table_id,
                game_no=game_no,
                deal_no=deal_no,
                record=record,
                outcome=outcome,
                bidder_team=bidder_team,
                contract=contract,
                score_delta=score_delta,
                seat_users=seat_users,
                game_over=game_over,
                game_winner=game_winner,
                sets_won=sets_won or [0, 0],
            )
            db.add(deal)
            await db.flush()
            seen: set[int] = set()
            for seat, user_id in enumerate(seat_users):
                if user_id is not None and user_id not in seen:
                    seen.add(user_id)
                    db.add(DealPlayer(deal_id=deal.id, user_id=user_id, seat=seat))
            await db.commit()
        for listener in self.deal_listeners:
            await listener(table_id)
        return deal.id
