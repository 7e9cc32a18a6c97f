"""Chat safety over HTTP: ``/api/safety`` (your mutes and blocks, reporting a chat line) and
``/api/admin/reports`` (the admins' list of reports). Signed-in callers; the reports list is
for admins only."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Path, Query, Request

from ..deps import AdminUser, CurrentUser, SessionDep
from ..friends import notices as friend_notices
from . import service
from .schemas import ReportIn

router = APIRouter(tags=["safety"])

Id = Annotated[int, Path(ge=1, le=2**31 - 1)]


def _http(e: service.SafetyError) -> HTTPException:
    return HTTPException(status_code=e.status, detail=e.detail)


@router.get("/api/safety")
async def my_lists(user: CurrentUser, db: SessionDep) -> dict[str, list[dict[str, Any]]]:
    """Whom I muted and whom I blocked."""
    return await service.lists(db, user)


async def _change(
    request: Request, db: Any, user: Any, what: str, target: int, on: bool
) -> dict[str, Any]:
    try:
        if what == "mute":
            await service.mute(db, user, target, on)
        else:
            other, ended = await service.block(db, user, target, on)
            if ended is not None:  # both sides' friends lists (and presence) follow at once
                await friend_notices.tell(request.app.state.live, ended, user, other)
    except service.SafetyError as e:
        await db.rollback()
        raise _http(e) from None
    # their other open pages (the profile's lists) follow
    await request.app.state.live.send(
        [user.id], {"type": "safety_changed", "what": what, "user_id": target, "on": on}
    )
    return {"user_id": target, "muted" if what == "mute" else "blocked": on}


@router.put("/api/safety/mutes/{user_id}")
async def mute(user_id: Id, request: Request, user: CurrentUser, db: SessionDep) -> dict[str, Any]:
    return await _change(request, db, user, "mute", user_id, True)


@router.delete("/api/safety/mutes/{user_id}")
async def unmute(
    user_id: Id, request: Request, user: CurrentUser, db: SessionDep
) -> dict[str, Any]:
    return await _change(request, db, user, "mute", user_id, False)


@router.put("/api/safety/blocks/{user_id}")
async def block(user_id: Id, request: Request, user: CurrentUser, db: SessionDep) -> dict[str, Any]:
    return await _change(request, db, user, "block", user_id, True)


@router.delete("/api/safety/blocks/{user_id}")
async def unblock(
    user_id: Id, request: Request, user: CurrentUser, db: SessionDep
) -> dict[str, Any]:
    return await _change(request, db, user, "block", user_id, False)


@router.post("/api/safety/reports", status_code=201)
async def report(
    body: ReportIn, request: Request, user: CurrentUser, db: SessionDep
) -> dict[str, Any]:
    code = body.code if body.code is None or body.code.isascii() else ""
    try:
        row = await service.report(db, user, body.message_id, body.reason, code)
    except service.SafetyError as e:
        raise _http(e) from None
    # the admins' open pages list it at once
    notice = {"type": "chat_reported", "report_id": row.id, "table_id": row.table_id}
    await request.app.state.live.send(await service.admin_ids(db), notice)
    return {"id": row.id, "message_id": row.message_id, "status": row.status}


@router.get("/api/admin/reports")
async def reports(
    admin: AdminUser, db: SessionDep, status: Literal["open", "closed"] = Query("open")
) -> list[dict[str, Any]]:
    return await service.reports(db, status)


@router.post("/api/admin/reports/{report_id}/close")
async def close(
    report_id: Id, request: Request, admin: AdminUser, db: SessionDep
) -> dict[str, Any]:
    try:
        row, closed_now = await service.close_report(db, admin, report_id)
    except service.SafetyError as e:
        raise _http(e) from None
    if closed_now:  # the other admins' open pages drop it from their list
        notice = {"type": "report_closed", "report_id": row.id, "table_id": row.table_id}
        await request.app.state.live.send(await service.admin_ids(db), notice)
    return {"id": row.id, "status": row.status}
