"""Each person's messages in the database: numbered by a counter of their own (so a page that
reconnects says the last id it saw and gets what came after), kept for ``KEEP``.

The counter is bumped with an upsert (``INSERT … ON CONFLICT DO UPDATE … RETURNING``) on
PostgreSQL and SQLite alike, so processes sending to one person at once never hand out one id
twice; rows are touched in user-id order so two processes' batches cannot deadlock."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, insert, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..accounts.models import User
from ..db import utcnow
from .models import LiveMessage, LiveStream

#: how long a message is kept for catch-up
KEEP = dt.timedelta(hours=24)
#: the most messages one catch-up sends; a page that missed more reloads what it shows
CATCH_UP_LIMIT = 200

Message = dict[str, Any]


@dataclass(frozen=True)
class CatchUp:
    """What a reconnecting page missed: ``messages`` (each with its number, ``seq``), the newest id
    (``last_id``), and whether that is all of it (``complete``: false when some were no longer
    kept, or more than one catch-up sends, or ``last_id`` was never handed out)."""

    messages: list[Message]
    last_id: int
    complete: bool


class MessageStore:
    def __init__(self, maker: async_sessionmaker[AsyncSession]) -> None:
        self.maker = maker

    async def append(self, sends: Sequence[tuple[Sequence[int], Message]]) -> list[dict[int, int]]:
        """Store each send's message for each of its people, in one transaction; for each send,
        the id each person's copy got. People with no account (any more) are left out."""
        wanted = sorted({u for user_ids, _ in sends for u in user_ids})
        if not wanted:
            return [{} for _ in sends]
        async with self.maker() as db:
            known = set(await db.scalars(select(User.id).where(User.id.in_(wanted))))
            need = Counter(u for user_ids, _ in sends for u in user_ids if u in known)
            tops = await self._bump(db, need)
            first = {u: tops[u] - need[u] + 1 for u in need}
            now = utcnow()
            out: list[dict[int, int]] = []
            rows: list[dict[str, Any]] = []
            for user_ids, message in sends:
                ids: dict[int, int] = {}
                for u in user_ids:
                    if u in first:
                        ids[u] = first[u]
                        first[u] += 1
                        rows.append(
                            {"user_id": u, "id": ids[u], "body": message, "created_at": now}
                        )
                out.append(ids)
            if rows:
                await db.execute(insert(LiveMessage), rows)
            await db.commit()
        return out

    @staticmethod
    async def _bump(db: AsyncSession, need: Counter[int]) -> dict[int, int]:
        """Add ``need[u]`` to each person's counter (made at 0 if new); the new values."""
        if not need:
            return {}
        dialect = db.get_bind().dialect.name
        if dialect == "postgresql":
            from sqlalchemy.dialects.postgresql import insert as upsert
        else:
            from sqlalchemy.dialects.sqlite import insert as upsert  # type: ignore[assignment]
        stmt = upsert(LiveStream).values([{"user_id": u, "last_id": need[u]} for u in sorted(need)])
        bump = stmt.on_conflict_do_update(
            index_elements=[LiveStream.user_id],
            set_={"last_id": LiveStream.last_id + stmt.excluded.last_id},
        ).returning(LiveStream.user_id, LiveStream.last_id)
        return {u: top for u, top in (await db.execute(bump)).all()}

    async def last_id(self, user_id: int) -> int:
        async with self.maker() as db:
            top = await db.scalar(select(LiveStream.last_id).where(LiveStream.user_id == user_id))
            return int(top or 0)

    async def since(self, user_id: int, last_id: int | None) -> CatchUp:
        """The messages to ``user_id`` after ``last_id`` (None: nothing to catch up)."""
        async with self.maker() as db:
            top = int(
                await db.scalar(select(LiveStream.last_id).where(LiveStream.user_id == user_id))
                or 0
            )
            if last_id is None or last_id == top:
                return CatchUp([], top, True)
            if last_id > top:  # an id this site never handed out (another database?)
                return CatchUp([], top, False)
            rows = (
                await db.execute(
                    select(LiveMessage.id, LiveMessage.body)
                    .where(
                        LiveMessage.user_id == user_id,
                        LiveMessage.id > last_id,
                        LiveMessage.id <= top,  # later ones come live, after this
                    )
                    .order_by(LiveMessage.id.desc())
                    .limit(CATCH_UP_LIMIT)  # the newest, when more were missed
                )
            ).all()
        messages = [{**body, "seq": i} for i, body in reversed(rows)]
        complete = bool(messages) and messages[0]["seq"] == last_id + 1
        return CatchUp(messages, top, complete)

    async def prune(self, keep: dt.timedelta = KEEP) -> int:
        """Drop the messages older than ``keep``; how many went."""
        async with self.maker() as db:
            result = await db.execute(
                delete(LiveMessage).where(LiveMessage.created_at < utcnow() - keep)
            )
            await db.commit()
            return int(getattr(result, "rowcount", 0) or 0)
