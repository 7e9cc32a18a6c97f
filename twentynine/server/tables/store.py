"""Reading and writing tables: the row, its seats, chat, and each change of the game snapshot
with a compare-and-set on the version, so no action is ever lost or applied twice.

Snapshots are written by one writer task per process (group commit): the changes that arrive
while a transaction is under way go together in the next one. Each change keeps its own
compare-and-set and its own answer (stored, or :class:`StaleVersion`), and a table's change is
acknowledged only once its transaction committed. A failing batch is retried change by change,
so one bad change cannot fail the others.

On a SQLite file the batches go through :class:`~.sqlite_writer.SqliteWriter` (see its
module), finished deals' records with them. Elsewhere (PostgreSQL) the batch goes through
SQLAlchemy, and each deal's record is a transaction of its own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import Table, bindparam, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..db import utcnow
from ..history.models import DealHistory, DealPlayer
from .models import ChatMessage, GameTable, TableSeat
from .sqlite_writer import Change, Deal, SeatRows, SqliteWriter, sqlite_file


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


class TableStore:
    def __init__(self, maker: async_sessionmaker[AsyncSession]) -> None:
        self.maker = maker
        self._pending: list[Change] = []
        #: on SQLite, finished deals' records wait here for the writer (see sqlite_writer)
        self._pending_deals: list[Deal] = []
        self._writer: asyncio.Task[None] | None = None
        path = sqlite_file(maker)
        self.sqlite = SqliteWriter(path) if path is not None else None
        #: transactions and changes written (for the operator and the tests)
        self.batches = 0
        self.changes = 0
        #: changes handed in to be written, stored yet or not (the paced collector's measure
        #: of the tables' activity: a writer held up for a while is not idle tables)
        self.handed_in = 0
        #: called with a table's id once a finished deal of it is stored (tournaments listen)
        self.deal_listeners: list[Callable[[str], Awaitable[None]]] = []

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
        idle = not self._pending and not self._writing()
        if idle and self.sqlite is not None:  # at once, if SQLite's write lock is free
            change = Change(table_id, version, new_version, state, status, seats, None)
            if seats is None:  # a lone UPDATE
                written = self.sqlite.write_one_now(change, utcnow())
            else:
                result = self.sqlite.write_now([change], [], utcnow())
                written = None if result is None else not result[0]  # (stale indexes, deal ids)
            if written is not None:  # None: the lock was taken, the writer task takes it
                self.batches += 1
                self.changes += 1
                if not written:
                    raise StaleVersion(table_id)
                return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append(Change(table_id, version, new_version, state, status, seats, done))
        self._start_writer()
        await done

    def _writing(self) -> bool:
        return self._writer is not None and not self._writer.done()

    def _start_writer(self) -> None:
        if not self._writing():
            self._writer = asyncio.create_task(self._write_pending(), name="table-store-writer")

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
        per_batch = self.sqlite.DEALS_PER_BATCH if self.sqlite is not None else 0
        while self._pending or self._pending_deals:
            batch, self._pending = self._pending, []
            deals = self._pending_deals[:per_batch]
            del self._pending_deals[:per_batch]
            try:
                self._settle(batch, deals, *await self._write(batch, deals))
            except Exception as error:
                alone: list[tuple[list[Change], list[Deal]]] = [([c], []) for c in batch]
                alone += [([], [d]) for d in deals]
                if len(alone) == 1:
                    self._fail(batch, deals, error)
                    continue
                for one, deal in alone:  # find what fails: each alone
                    try:
                        self._settle(one, deal, *await self._write(one, deal))
                    except Exception as its_error:
                        self._fail(one, deal, its_error)

    @staticmethod
    def _fail(batch: list[Change], deals: list[Deal], error: Exception) -> None:
        waiting: list[asyncio.Future[Any] | None] = [c.done for c in batch]
        waiting += [d.done for d in deals]
        for done in waiting:
            if done is not None and not done.done():
                done.set_exception(error)

    @staticmethod
    def _settle(
        batch: list[Change], deals: list[Deal], stale: set[int], deal_ids: list[int]
    ) -> None:
        for i, change in enumerate(batch):
            if change.done is None or change.done.done():
                continue
            if i in stale:
                change.done.set_exception(StaleVersion(change.table_id))
            else:
                change.done.set_result(None)
        for deal, deal_id in zip(deals, deal_ids, strict=True):
            if not deal.done.done():
                deal.done.set_result(deal_id)

    async def _write(self, batch: list[Change], deals: list[Deal]) -> tuple[set[int], list[int]]:
        """One transaction for the batch (and, on SQLite, the deals): the indexes of the
        changes whose version was stale, and the deals' ids. On a SQLite file,
        :class:`SqliteWriter` (one compare-and-set UPDATE a change). Elsewhere a few statements
        whatever the batch's size (each await waits for a turn of a busy event loop): read the
        stored versions (locking the rows), update the tables whose version still matches in
        one executemany, then their seats."""
        now = utcnow()
        if self.sqlite is not None:
            # at once when the write lock is free; else the writer's thread waits for it
            written = self.sqlite.write_now(batch, deals, now)
            if written is None:
                written = await self.sqlite.write(batch, deals, now)
            stale, deal_ids = written
            self.batches += 1
            self.changes += len(batch)
            return stale, deal_ids
        assert not deals  # elsewhere each deal is its own transaction (add_deal)
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
                    return {0}, []
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
        return stale, []

    async def names(self, user_ids: list[int | None]) -> dict[int, str]:
        from ..accounts.service import first_names

        if not any(user_ids):
            return {}
        async with self.maker() as db:
            return await first_names(db, user_ids)

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
        """Store a finished deal's record and who played it; returns its id once committed,
        after telling the deal listeners."""
        columns = {
            "table_id": table_id,
            "game_no": game_no,
            "deal_no": deal_no,
            "record": record,
            "outcome": outcome,
            "bidder_team": bidder_team,
            "contract": contract,
            "score_delta": score_delta,
            "seat_users": seat_users,
            "game_over": game_over,
            "game_winner": game_winner,
            "sets_won": sets_won or [0, 0],
        }
        players: dict[int, int] = {}  # a person in two seats is listed at the first
        for seat, user_id in enumerate(seat_users):
            if user_id is not None:
                players.setdefault(user_id, seat)
        self.handed_in += 1
        if self.sqlite is not None:  # with the tables' changes (see sqlite_writer)
            done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
            self._pending_deals.append(Deal(columns, list(players.items()), done))
            self._start_writer()
            deal_id = await done
        else:
            async with self.maker() as db:
                deal = DealHistory(**columns)
                db.add(deal)
                await db.flush()
                db.add_all(
                    DealPlayer(deal_id=deal.id, user_id=u, seat=seat) for u, seat in players.items()
                )
                await db.commit()
                deal_id = deal.id
        for listener in self.deal_listeners:
            await listener(table_id)
        return deal_id
