"""The rated queue over HTTP: ``GET /api/matchmaking`` (am I waiting, how many wait, my
table once seated and whether its game is under way, ``playing``: one rated game at a time),
``POST /api/matchmaking/queue`` ("Play rated") and
``DELETE /api/matchmaking/queue``. Accounts only (guests have no rating)."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import APIRouter, Request

from ..accounts.models import User
from ..deps import MemberUser, SessionDep
from ..ratings.hooks import in_play
from ..refusals import refused
from . import service

log = logging.getLogger("twentynine.matchmaking")

router = APIRouter(prefix="/api/matchmaking", tags=["matchmaking"])


async def playing(request: Request, user: User, db: SessionDep) -> bool:
    """Whether ``user`` holds a seat in the rated game their latest wait found, under way."""
    current = await service.matched_table(db, user)
    if current is None or await service.table_closed(db, current):
        return False  # (a closed table is not loaded into memory to learn that)
    runtime = await request.app.state.tables.get(current)
    return runtime is not None and runtime.seat_of(user.id) is not None and in_play(runtime)


async def status_of(request: Request, user: User, db: SessionDep) -> dict[str, Any]:
    return {**await service.status(db, user), "playing": await playing(request, user, db)}


@router.get("")
async def status(request: Request, user: MemberUser, db: SessionDep) -> dict[str, Any]:
    return await status_of(request, user, db)


@router.post("/queue")
async def join(request: Request, user: MemberUser, db: SessionDep) -> dict[str, Any]:
    # one rated game at a time: at two, a bot would keep one seat to the end (a loss)
    if await playing(request, user, db):
        raise refused(409, "you are playing a rated game already", "in_rated_game")
    await service.join(db, user)
    matchmaker = request.app.state.matchmaker
    if await service.waiting_count(db) >= 4:
        await db.commit()  # the pass takes its own connection
        try:
            await matchmaker.run_pass()
        except Exception:  # (say, a deadlock with another process's pass): the next pass,
            log.exception("matching pass failed")  # within seconds, seats them

    else:
        await matchmaker.tell_count()
    return await status_of(request, user, db)


@router.delete("/queue")
async def leave(request: Request, user: MemberUser, db: SessionDep) -> dict[str, Any]:
    if await service.leave(db, user):
        await request.app.state.matchmaker.tell_count()
    return await status_of(request, user, db)
