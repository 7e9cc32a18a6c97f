"""The rated queue in the database: joining, leaving, and a matching pass that seats fours at
new rated tables. A pass locks the waiting rows first (a no-op update: row locks on
PostgreSQL, the write lock on SQLite), so passes on two processes never seat one person twice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from ..accounts.models import User
from ..db import utc_iso, utcnow
from ..ratings.service import shown_ratings
from ..safety.service import blocked_between
from ..tables.models import GameTable, TableSeat
from ..tables.schemas import RulesIn
from ..tables.service import new_id, rules_spec
from .models import QueueEntry
from .pairing import Waiting, band, tables


@dataclass(frozen=True)
class Match:
    table_id: str
    user_ids: list[int]  # by seat


async def waiting_count(db: AsyncSession) -> int:
    n = await db.scalar(
        select(func.count()).select_from(QueueEntry).where(QueueEntry.table_id.is_(None))
    )
    return int(n or 0)


async def queued_ids(db: AsyncSession) -> list[int]:
    """Who waits now."""
    return list(await db.scalars(select(QueueEntry.user_id).where(QueueEntry.table_id.is_(None))))


async def drop(db: AsyncSession, user_ids: list[int]) -> int:
    """These people stop waiting (they left the site); how many were waiting."""
    result = await db.execute(
        delete(QueueEntry).where(QueueEntry.user_id.in_(user_ids), QueueEntry.table_id.is_(None))
    )
    await db.commit()
    return int(getattr(result, "rowcount", 0) or 0)


async def join(db: AsyncSession, user: User) -> None:
    """Queue ``user`` (again: a new wait from now, at their current rating)."""
    rating = (await shown_ratings(db, [user.id]))[user.id]
    await db.execute(delete(QueueEntry).where(QueueEntry.user_id == user.id))
    db.add(QueueEntry(user_id=user.id, rating=rating, joined_at=utcnow()))
    await db.commit()


async def leave(db: AsyncSession, user: User) -> bool:
    """Stop waiting; True if ``user`` was waiting."""
    result = await db.execute(
        delete(QueueEntry).where(QueueEntry.user_id == user.id, QueueEntry.table_id.is_(None))
    )
    await db.commit()
    return bool(getattr(result, "rowcount", 0))


async def matched_table(db: AsyncSession, user: User) -> str | None:
    """The table ``user``'s latest wait seated them at, if any."""
    row = await db.get(QueueEntry, user.id)
    return row.table_id if row is not None else None


async def table_closed(db: AsyncSession, table_id: str) -> bool:
    status = await db.scalar(select(GameTable.status).where(GameTable.id == table_id))
    return status in (None, "closed")


async def status(db: AsyncSession, user: User) -> dict[str, Any]:
    row = await db.get(QueueEntry, user.id)
    now = utcnow()
    waiting = row is not None and row.table_id is None
    waited = (now - row.joined_at).total_seconds() if row is not None and waiting else 0.0
    return {
        "queued": waiting,
        "waiting": await waiting_count(db),
        "since": utc_iso(row.joined_at) if waiting and row else None,
        "rating": round(row.rating) if row else None,
        "band": round(band(waited)) if waiting else None,
        "table_id": row.table_id if row is not None else None,
    }


async def match(
    db: AsyncSession, rules: RulesIn | None = None, away: frozenset[int] = frozenset()
) -> list[Match]:
    """One matching pass: seat every four that fits at a new rated public table (its rows
    and the queue's change in one transaction). The tables are not started here. Those
    ``away`` (their pages closed a moment ago) wait, unseated, for their pages to come back."""
    now = utcnow()
    await db.execute(  # lock the queue (see the module's note)
        update(QueueEntry)
        .where(QueueEntry.table_id.is_(None))
        .values(rating=QueueEntry.rating)
        .execution_options(synchronize_session=False)
    )
    rows = list(
        await db.scalars(
            select(QueueEntry)
            .where(QueueEntry.table_id.is_(None))
            .order_by(QueueEntry.joined_at)
            .execution_options(populate_existing=True)
        )
    )
    if len(rows) < 4:
        await db.commit()
        return []
    users = {
        u.id: u
        for u in await db.scalars(select(User).where(User.id.in_([r.user_id for r in rows])))
    }
    waiting = [
        Waiting(r.user_id, r.rating, (now - r.joined_at).total_seconds())
        for r in rows
        if r.user_id in users and not users[r.user_id].disabled and r.user_id not in away
    ]
    fours = tables(waiting, await blocked_between(db, [w.user_id for w in waiting]))
    by_user = {r.user_id: r for r in rows}
    spec = rules_spec(rules or RulesIn())
    matches: list[Match] = []
    for four in fours:
        table = GameTable(
            id=new_id(),
            kind="public",
            host_id=None,
            name="",  # the page calls it a rated table, in its language
            rules=spec.to_json(),
            spectators_see="none",
            status="waiting",
            rated=True,
        )
        db.add(table)
        await db.flush()
        for seat, w in enumerate(four):
            db.add(TableSeat(table_id=table.id, seat=seat, user_id=w.user_id, joined=True))
            entry = by_user[w.user_id]
            entry.table_id, entry.matched_at = table.id, now
        matches.append(Match(table.id, [w.user_id for w in four]))
    await db.commit()
    return matches


async def forget(db: AsyncSession, user_id: int) -> None:
    """A deleted account leaves the queue (not committed)."""
    await db.execute(delete(QueueEntry).where(QueueEntry.user_id == user_id))
