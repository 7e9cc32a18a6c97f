"""The rated queue over HTTP: ``GET /api/matchmaking`` (am I waiting, how many wait, my
table once seated), ``POST /api/matchmaking/queue`` ("Play rated") and
``DELETE /api/matchmaking/queue``. Accounts only (guests have no rating)."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import APIRouter, Request

from ..deps import MemberUser, SessionDep
from . import service

log = logging.getLogger("twentynine.matchmaking")

router = APIRouter(prefix="/api/matchmaking", tags=["matchmaking"])


@router.get("")
async def status(user: MemberUser, db: SessionDep) -> dict[str, Any]:
    return await service.status(db, user)


@router.post("/queue")
async def join(request: Request, user: MemberUser, db: SessionDep) -> dict[str, Any]:
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
    return await service.status(db, user)


@router.delete("/queue")
async def leave(request: Request, user: MemberUser, db: SessionDep) -> dict[str, Any]:
    if await service.leave(db, user):
        await request.app.state.matchmaker.tell_count()
    return await service.status(db, user)
