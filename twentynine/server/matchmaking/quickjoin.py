"""Quick join's order of unrated public tables: those whose players' ratings are nearest yours
first (the mean of the people seated; tables of bots only come after, oldest first)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from ..ratings.service import shown_ratings
from ..safety.service import blockers_of
from ..tables.models import GameTable, TableSeat


async def nearest_first(
    db: AsyncSession, user_id: int, rows: Sequence[GameTable]
) -> list[GameTable]:
    """``rows`` without rated tables and tables whose host blocked ``user_id``, nearest in
    rating first (ties and tables without people keep their order)."""
    unrated = [r for r in rows if not r.rated]
    hosts = await blockers_of(db, user_id, [r.host_id for r in unrated if r.host_id])
    kept = [r for r in unrated if r.host_id not in hosts]
    if not kept:
        return []
    people: dict[str, list[int]] = {}
    for seat in await db.scalars(
        select(TableSeat).where(
            TableSeat.table_id.in_([r.id for r in kept]),
            TableSeat.user_id.is_not(None),
            TableSeat.bot == "",
        )
    ):
        if seat.user_id is not None and seat.user_id != user_id:
            people.setdefault(seat.table_id, []).append(seat.user_id)
    everyone = {u for ids in people.values() for u in ids} | {user_id}
    rating = await shown_ratings(db, list(everyone))
    mine = rating[user_id]

    def distance(row: GameTable) -> float:
        ids = people.get(row.id)
        if not ids:
            return math.inf
        return abs(sum(rating[u] for u in ids) / len(ids) - mine)

    return sorted(kept, key=distance)
