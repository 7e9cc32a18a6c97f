"""The pages showing the leaderboard hear when a rated player's line changes for another reason
than a game (a rated game tells them itself: ``ratings_changed``): a new name, an account
disabled (it leaves the board), enabled (it may come back) or deleted. ``leaderboard_changed``
(``user_id``, ``change``), not stored, on every process; only for players with a rating."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from .models import PlayerRating


async def has_rating(db: AsyncSession, user_id: int) -> bool:
    return await db.get(PlayerRating, user_id) is not None


async def tell(live: Any, user_id: int, change: str) -> None:
    """The open leaderboards ask again (``change``: renamed, disabled, enabled, deleted)."""
    message = {"type": "leaderboard_changed", "user_id": user_id, "change": change}
    await live.to_watchers("leaderboard", message)


async def tell_if_rated(live: Any, db: AsyncSession, user_id: int, change: str) -> None:
    if await has_rating(db, user_id):
        await tell(live, user_id, change)
