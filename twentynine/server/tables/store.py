"""Reading and writing tables: the row, its seats, chat, and each change of the game snapshot
with a compare-and-set on the version, so no action is ever lost or applied twice."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..db import utcnow
from ..history.models import DealHistory, DealPlayer
from .models import ChatMessage, GameTable, TableSeat


class StaleVersion(Exception):
    """Another writer changed the table first."""


class TableStore:
    def __init__(self, maker: async_sessionmaker[AsyncSession]) -> None:
        self.maker = maker

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
        seats: list[tuple[int, int | None, str, bool]] | None = None,
    ) -> None:
        """Write the snapshot if the stored version is still ``version``."""
        async with self.maker() as db:
            result = await db.execute(
                update(GameTable)
                .where(GameTable.id == table_id, GameTable.version == version)
                .values(version=new_version, state=state, status=status, updated_at=utcnow())
            )
            if result.rowcount != 1:  # type: ignore[attr-defined]
                await db.rollback()
                raise StaleVersion(table_id)
            if seats is not None:
                for seat, user_id, bot, joined in seats:
                    await db.execute(
                        update(TableSeat)
                        .where(TableSeat.table_id == table_id, TableSeat.seat == seat)
                        .values(user_id=user_id, bot=bot, joined=joined)
                    )
            await db.commit()

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
