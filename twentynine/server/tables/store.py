"""Reading and writing tables: the row, its seats, chat, and each change of the game snapshot
with a compare-and-set on the version, so no action is ever lost or applied twice.

Snapshots are written by one writer task per process (group commit): the changes that arrive
while a transaction is under way go together in the next one. Each change keeps its own
compare-and-set and its own answer (stored, or :class:`StaleVersion`), and a table's change is
acknowledged only once its transaction committed. A failing batch is retried change by change,
so one bad change cannot fail the others.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Table, bindparam, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..db import utcnow
from ..history.models import DealHistory, DealPlayer
from .models import ChatMessage, GameTable, TableSeat


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
    done: asyncio.Future[None]


class TableStore:
    def __init__(self, maker: async_sessionmaker[AsyncSession]) -> None:
        self.maker = maker
        self._pending: list[_Change] = []
        self._writer: asyncio.Task[None] | None = None
        #: transactions and changes written (for the operator and the tests)
        self.batches = 0
        self.changes = 0

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
        change = _Change(
            table_id,
            version,
            new_version,
            state,
            status,
            seats,
            asyncio.get_running_loop().create_future(),
        )
        self._pending.append(change)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_pending(), name="table-store-writer")
        await change.done

    async def flush(self) -> None:
        """Wait until every change handed in so far is written (or refused)."""
        writer = self._writer
        if writer is not None and not writer.done():
            await asyncio.wait({writer})

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
        if not change.done.done():
            change.done.set_exception(error)

    @staticmethod
    def _settle(batch: list[_Change], stale: set[int]) -> None:
        for i, change in enumerate(batch):
            if change.done.done():
                continue
            if i in stale:
                change.done.set_exception(StaleVersion(change.table_id))
            else:
                change.done.set_result(None)

    async def _write(self, batch: list[_Change]) -> set[int]:
        """One transaction for the batch, in a few statements whatever its size (each await
        waits for a turn of a busy event loop): read the stored versions (locking the rows
        where the database can), update the tables whose version still matches in one
        executemany, then their seats. The indexes of the changes whose version was stale."""
        ids = [c.table_id for c in batch]
        now = utcnow()
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
        async with self.maker() as db:
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
            return deal.id
