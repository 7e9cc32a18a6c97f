"""Ratings over HTTP: ``GET /api/leaderboard``, ``GET /api/ratings/{user_id}`` (a rating and
its history) and ``GET /api/ratings?user_ids=…`` (the figures beside names at a table). Signed-in
callers only."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Query

from ..accounts.models import User
from ..deps import CurrentUser, SessionDep
from ..refusals import refused
from . import service

router = APIRouter(tags=["ratings"])

UserId = Annotated[int, Path(ge=1, le=2**31 - 1)]


@router.get("/api/leaderboard")
async def leaderboard(user: CurrentUser, db: SessionDep) -> dict[str, Any]:
    return await service.leaderboard(db, user.id)


@router.get("/api/ratings/{user_id}")
async def rating(user_id: UserId, user: CurrentUser, db: SessionDep) -> dict[str, Any]:
    other = await db.get(User, user_id)
    if other is None or other.disabled:
        raise refused(404, "no such player", "no_account")
    return await service.rating_of(db, user_id)


@router.get("/api/ratings")
async def ratings(
    user: CurrentUser,
    db: SessionDep,
    user_ids: Annotated[str, Query(max_length=200, pattern=r"^\d{1,10}(,\d{1,10}){0,15}$")],
) -> dict[str, dict[str, Any]]:
    """Up to sixteen players' ratings, by user id (comma-separated ids)."""
    ids = sorted({int(i) for i in user_ids.split(",")})
    if any(i > 2**31 - 1 for i in ids):
        raise HTTPException(status_code=422, detail="no such user id")
    found = await service.ratings_of(db, ids)
    return {str(uid): r for uid, r in found.items()}
