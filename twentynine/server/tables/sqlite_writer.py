"""Writing the table store's batches to a SQLite file with the standard library's ``sqlite3``.

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
  answers "busy" at once and the change goes to the writer task, which the changes handed in
  meanwhile join (group commit as above). It writes each batch at once too when the lock is
  free, and only while the lock stays taken hands the batch to its thread, which waits for it.
  There, each statement has to win the interpreter's lock back from a busy loop: under load a
  transaction of 19 changes and 9 deal records took 52 ms on the thread.
* That connection never moves the write-ahead log into the database file itself (a checkpoint
  flushes the disk: several milliseconds). The writer's thread does it every
  ``CHECKPOINT_EVERY`` changes alongside the writers (``PASSIVE``), and every few of those
  also briefly holds them off (``RESTART``) so that the log starts again from its beginning
  and stays small, then writes once itself: the write that starts the log again flushes its
  header to the disk, and that flush must not be the event loop's.

Finished deals' records go the same way, in the batches' transactions (at most
``DEALS_PER_BATCH`` in one): when many tables end a deal in the same second, their records
neither wait for the file's write lock one transaction each nor hold the tables' changes up.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import Table
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from ..history.models import DealHistory, DealPlayer
from .models import GameTable, TableSeat

log = logging.getLogger("twentynine.server")

_TABLES: Table = GameTable.__table__  # type: ignore[assignment]
_SEATS: Table = TableSeat.__table__  # type: ignore[assignment]
_DEALS: Table = DealHistory.__table__  # type: ignore[assignment]
_PLAYERS: Table = DealPlayer.__table__  # type: ignore[assignment]

SeatRows = list[tuple[int, int | None, str, bool]]


@dataclass(eq=False)
class Change:
    """A table's new snapshot, to be written if its stored version is still ``version``."""

    table_id: str
    version: int
    new_version: int
    state: dict[str, Any] | None
    status: str
    seats: SeatRows | None
    done: asyncio.Future[None] | None  # None: written at once (no one waits)


@dataclass(eq=False)
class Deal:
    """A finished deal's record (the columns of ``deal_history`` but its id and time) and who
    sat where; ``done`` is told its id once it is stored."""

    columns: dict[str, Any]
    players: list[tuple[int, int]]  # (user id, seat)
    done: asyncio.Future[int]


def sqlite_file(maker: async_sessionmaker[AsyncSession]) -> str | None:
    """The database file when ``maker`` opens a SQLite file (not an in-memory database)."""
    engine = maker.kw.get("bind")
    if not isinstance(engine, AsyncEngine) or engine.dialect.name != "sqlite":
        return None
    path = engine.url.database
    return path if path and path != ":memory:" and not path.startswith("file:") else None


def _begin_if_free(conn: sqlite3.Connection) -> bool:
    """``BEGIN IMMEDIATE`` (SQLite's write lock) on ``conn``: False, with nothing begun, when
    another connection holds the lock and ``conn``'s busy timeout ran out."""
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as e:
        if e.sqlite_errorcode in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            return False
        raise
    return True


def _sqlite_time(when: dt.datetime) -> str:
    """A DateTime as SQLAlchemy stores it in SQLite."""
    return when.isoformat(" ", "microseconds")  # "%Y-%m-%d %H:%M:%S.%f", three times quicker


#: deal_history's columns written as JSON, and the others (its id and time aside)
_DEAL_JSON = ("record", "score_delta", "seat_users", "sets_won")
_DEAL_PLAIN = (
    "table_id",
    "game_no",
    "deal_no",
    "outcome",
    "bidder_team",
    "contract",
    "game_over",
    "game_winner",
)
DealRows = tuple[tuple[Any, ...], list[tuple[int, int]]]


class SqliteWriter:
    """Writes batches of changes (and of deal records) to a SQLite file: at once on the event
    loop's thread when the write lock is free, else from a thread of its own (see the module's
    note). Each has its own connection."""

    #: deal records in one transaction at most (the changes that wait behind them wait less)
    DEALS_PER_BATCH = 32

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
        columns = [*_DEAL_JSON, *_DEAL_PLAIN, "finished_at"]
        self._insert_deal = (
            f"INSERT INTO {_DEALS.name} ({', '.join(columns)}) "
            f"VALUES ({', '.join('?' * len(columns))})"
        )
        self._insert_player = (
            f"INSERT INTO {_PLAYERS.name} (deal_id, user_id, seat) VALUES (?, ?, ?)"
        )

    @staticmethod
    def _deal_rows(deals: list[Deal], now: dt.datetime) -> list[DealRows]:
        """Each deal's INSERT parameters (JSON columns encoded with orjson) and its players'."""
        when = _sqlite_time(now)
        return [
            (
                (
                    *(orjson.dumps(d.columns[c]).decode() for c in _DEAL_JSON),
                    *(d.columns[c] for c in _DEAL_PLAIN),
                    when,
                ),
                d.players,
            )
            for d in deals
        ]

    @staticmethod
    def _rows(
        batch: list[Change], now: dt.datetime
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

    def write_now(
        self, batch: list[Change], deals: list[Deal], now: dt.datetime
    ) -> tuple[set[int], list[int]] | None:
        """The batch and the deals in one transaction on the calling thread (the event loop's),
        if SQLite's write lock is free: the indexes of the changes whose version was stale, and
        the deals' ids. None, with nothing written, when another connection holds the lock."""
        conn = self._inline_connection()
        if not _begin_if_free(conn):
            return None
        try:
            rows, seats = self._rows(batch, now)
            deal_rows = self._deal_rows(deals, now)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        result = self._transaction(conn, rows, seats, deal_rows)
        self._written_at_once(len(batch) + len(deals))
        return result

    def write_one_now(self, change: Change, now: dt.datetime) -> bool | None:
        """One change without seats, on the calling thread (the event loop's), as a lone
        UPDATE: SQLite takes the write lock for that statement and commits it (two statements
        fewer than ``BEGIN IMMEDIATE`` … ``COMMIT``, a move's most common write). True if it
        was written, False if its version was stale; None, with nothing written, when another
        connection holds the lock."""
        conn = self._inline_connection()
        (row,), _ = self._rows([change], now)
        try:
            written = conn.execute(self._update_table, row).rowcount == 1
        except sqlite3.OperationalError as e:
            if e.sqlite_errorcode in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                return None
            raise
        self._written_at_once(1)
        return written

    def _written_at_once(self, count: int) -> None:
        """Count what was written on the event loop's thread; every ``CHECKPOINT_EVERY``, a
        checkpoint on the writer's thread."""
        self.written_at_once += count
        self._since_checkpoint += count
        if self._since_checkpoint >= self.CHECKPOINT_EVERY and self._checkpointing is None:
            self._since_checkpoint = 0
            self._checkpointing = asyncio.get_running_loop().run_in_executor(
                self._thread, self._checkpoint
            )
            self._checkpointing.add_done_callback(self._checkpoint_done)

    async def write(
        self, batch: list[Change], deals: list[Deal], now: dt.datetime
    ) -> tuple[set[int], list[int]]:
        """The batch and the deals in one transaction on the writer's thread, which waits for
        the write lock: the indexes of the changes whose version was stale, and the deals' ids."""
        rows, seats = self._rows(batch, now)
        deal_rows = self._deal_rows(deals, now)
        self.handed_over += len(batch) + len(deals)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, self._write, rows, seats, deal_rows)

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
                busy, _frames, _moved = conn.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()
                if not busy:
                    self._start_log(conn)
        finally:
            conn.execute("PRAGMA busy_timeout=30000")
        self.checkpoints += 1

    @staticmethod
    def _start_log(conn: sqlite3.Connection) -> None:
        """Write once, here, after a checkpoint that emptied the log: the first commit after
        such a checkpoint starts the log again from its beginning and flushes its new header to
        the disk (``synchronous=NORMAL`` does that much), which on the event loop's thread
        would hold every table up for as long as the disk takes. The write sets the file's
        ``user_version`` to the value it has: one page, nothing changed."""
        if not _begin_if_free(conn):
            return  # a change came first and started the log itself
        try:
            (version,) = conn.execute("PRAGMA user_version").fetchone()
            conn.execute(f"PRAGMA user_version={int(version)}")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def _checkpoint_done(self, done: asyncio.Future[None]) -> None:
        self._checkpointing = None
        if not done.cancelled() and done.exception() is not None:
            log.warning("table store: checkpoint failed: %s", done.exception())

    def _write(
        self,
        rows: list[tuple[Any, ...]],
        seats: list[list[tuple[Any, ...]]],
        deals: list[DealRows],
    ) -> tuple[set[int], list[int]]:
        conn = self._connection()
        conn.execute("BEGIN IMMEDIATE")
        return self._transaction(conn, rows, seats, deals)

    def _transaction(
        self,
        conn: sqlite3.Connection,
        rows: list[tuple[Any, ...]],
        seats: list[list[tuple[Any, ...]]],
        deals: list[DealRows],
    ) -> tuple[set[int], list[int]]:
        """The rest of a transaction begun with ``BEGIN IMMEDIATE``: committed, or rolled back
        on any error. Each change is its own compare-and-set, an UPDATE on the id and the
        version it expects: one that touches no row was stale (or its table is gone). Each
        deal is an INSERT, and its players' rows name the id it got."""
        try:
            stale: set[int] = set()
            update_table = self._update_table
            for i, row in enumerate(rows):
                if conn.execute(update_table, row).rowcount != 1:
                    stale.add(i)
            seat_rows = [row for i, rs in enumerate(seats) if i not in stale for row in rs]
            if seat_rows:
                conn.executemany(self._update_seat, seat_rows)
            deal_ids: list[int] = []
            for deal, players in deals:
                deal_id = conn.execute(self._insert_deal, deal).lastrowid
                assert deal_id is not None
                deal_ids.append(deal_id)
                if players:
                    conn.executemany(
                        self._insert_player, [(deal_id, user, seat) for user, seat in players]
                    )
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        return stale, deal_ids

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
