"""The admin page's API, ``/api/admin/…`` (admins only: 401 without a session, 403 for anyone
else): accounts (search, tier, disable/enable, make admin), tier requests (grant/decline, the
asker told live), open tables (close one). And ``/api/tier-requests`` for a person's own
request. CSRF is the middleware's."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Query, Request
from sqlalchemy.ext.asyncio import AsyncSession

from ..accounts import listing
from ..accounts.models import User
from ..accounts.notices import tell_changed
from ..accounts.signout import end_presence
from ..deps import AdminUser, CurrentUser, SessionDep
from ..ratings import board
from ..refusals import refused
from ..tables.errors import MATCH_CLOSES_ITSELF
from ..tables.models import GameTable
from . import requests, service
from .models import TierRequest
from .schemas import (
    AccountOut,
    AccountsOut,
    AdminTableOut,
    MyTierRequestOut,
    TierIn,
    TierRequestIn,
    TierRequestOut,
)
from .tables import close_table

router = APIRouter(tags=["admin"])

#: ids are positive INTEGER columns: a larger number is no id at all (a 422, not a 500)
Id = Annotated[int, Path(ge=1, le=2**31 - 1)]
TableId = Annotated[str, Path(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9_-]+$")]
#: accounts the list shows at once (search to find the others)
PAGE = 200


async def _refused(db: AsyncSession, e: service.AdminError) -> HTTPException:
    await db.rollback()
    return HTTPException(status_code=e.status, detail=e.detail)


def _request_out(r: TierRequest, user: User) -> TierRequestOut:
    return TierRequestOut(
        id=r.id,
        user_id=user.id,
        name=user.first_name,
        email=user.email,
        tier=r.tier,
        note=r.note,
        status=r.status,  # type: ignore[arg-type]
        created_at=r.created_at,
        decided_at=r.decided_at,
    )


def _account_out(info: service.UserInfo) -> AccountOut:
    return AccountOut(**{k: v for k, v in info.__dict__.items()})


async def _account(db: AsyncSession, user: User) -> AccountOut:
    return _account_out(await service.user_info(db, user))


async def _tell_account(request: Request, user: User, change: str) -> None:
    """The person's open pages learn their account changed (tier, admin), and the admins'
    lists of accounts that it did (``change``)."""
    await listing.tell(request.app.state.live, [user.id], change)
    await tell_changed(request.app.state.live, user)


# -- a person's own request ----------------------------------------------------------------------
@router.get("/api/tier-requests/mine")
async def my_tier_request(user: CurrentUser, db: SessionDep) -> MyTierRequestOut:
    """Your newest request for the standard tier (null if you never asked)."""
    last = await requests.latest(db, user)
    return MyTierRequestOut(request=None if last is None else _request_out(last, user))


@router.post("/api/tier-requests", status_code=201)
async def ask_for_tier(
    body: TierRequestIn, request: Request, user: CurrentUser, db: SessionDep
) -> TierRequestOut:
    """Ask the admins for the standard tier (to host games), with an optional note."""
    try:
        asked = await requests.ask(db, user, body.note)
    except service.AdminError as e:
        raise await _refused(db, e) from None
    admins = await service.admin_ids(db)
    await request.app.state.live.send(admins, requests.message(asked, user))
    await _mail_admins(request, db, user, asked)
    return _request_out(asked, user)


async def _mail_admins(request: Request, db: AsyncSession, user: User, asked: TierRequest) -> None:
    url = f"{request.app.state.settings.public_url}/#/admin"
    note = f"\n\nTheir note:\n{asked.note}" if asked.note else ""
    for admin_id in await service.admin_ids(db):
        admin = await db.get(User, admin_id)
        if admin is not None and admin.email:
            await request.app.state.mailer.send(
                admin.email,
                f"TwentyNine: {user.first_name} asks to host games",
                f"{user.first_name} ({user.email}) asks for a standard account, to host games."
                f"{note}\n\nGrant or decline it on the admin page:\n{url}",
            )


# -- accounts ------------------------------------------------------------------------------------
@router.get("/api/admin/users")
async def list_accounts(
    admin: AdminUser,
    db: SessionDep,
    q: Annotated[str, Query(max_length=320)] = "",
) -> AccountsOut:
    """Accounts by id (not guests), searched by email or name."""
    found = await service.list_users(db, search=q, limit=PAGE + 1)
    return AccountsOut(accounts=[_account_out(u) for u in found[:PAGE]], more=len(found) > PAGE)


@router.post("/api/admin/users/{user_id}/tier")
async def set_account_tier(
    user_id: Id, body: TierIn, request: Request, admin: AdminUser, db: SessionDep
) -> AccountOut:
    try:
        user = await service.get_user(db, user_id)
        await service.change_tier(db, user, body.tier)
    except service.AdminError as e:
        raise await _refused(db, e) from None
    await _tell_account(request, user, "tier")
    return await _account(db, user)


@router.post("/api/admin/users/{user_id}/disable")
async def disable_account(
    user_id: Id, request: Request, admin: AdminUser, db: SessionDep
) -> AccountOut:
    """Disable an account: it is signed out everywhere at once and cannot sign in."""
    try:
        user = await service.get_user(db, user_id)
        if user.id == admin.id:
            raise service.AdminError("you cannot disable your own account", 409)
        await service.disable(db, user)
    except service.AdminError as e:
        raise await _refused(db, e) from None
    await end_presence(request.app, user.id, "disabled")
    await listing.tell(request.app.state.live, [user.id], "disabled")
    await board.tell_if_rated(request.app.state.live, db, user.id, "disabled")
    return await _account(db, user)


@router.post("/api/admin/users/{user_id}/enable")
async def enable_account(
    user_id: Id, request: Request, admin: AdminUser, db: SessionDep
) -> AccountOut:
    try:
        user = await service.get_user(db, user_id)
        await service.enable(db, user)
    except service.AdminError as e:
        raise await _refused(db, e) from None
    await listing.tell(request.app.state.live, [user.id], "enabled")
    await board.tell_if_rated(request.app.state.live, db, user.id, "enabled")
    return await _account(db, user)


@router.post("/api/admin/users/{user_id}/admin")
async def make_account_admin(
    user_id: Id, request: Request, admin: AdminUser, db: SessionDep
) -> AccountOut:
    try:
        user = await service.get_user(db, user_id)
        if user.disabled:
            raise service.AdminError("enable the account before making it an admin", 409)
        await service.promote(db, user)
    except service.AdminError as e:
        raise await _refused(db, e) from None
    await _tell_account(request, user, "admin")
    return await _account(db, user)


# -- tier requests -------------------------------------------------------------------------------
@router.get("/api/admin/tier-requests")
async def pending_tier_requests(admin: AdminUser, db: SessionDep) -> list[TierRequestOut]:
    """Requests waiting for an admin, oldest first."""
    return [_request_out(r.request, r.user) for r in await requests.pending(db)]


async def _decide(
    request: Request, admin: User, db: AsyncSession, request_id: int, grant: bool
) -> TierRequestOut:
    try:
        decided = await requests.decide(db, admin, request_id, grant)
    except service.AdminError as e:
        raise await _refused(db, e) from None
    user = decided.user
    told = {user.id, *await service.admin_ids(db)}
    await request.app.state.live.send(told, requests.message(decided.request, user))
    if grant:
        await _tell_account(request, user, "tier")
    return _request_out(decided.request, user)


@router.post("/api/admin/tier-requests/{request_id}/grant")
async def grant_tier_request(
    request_id: Id, request: Request, admin: AdminUser, db: SessionDep
) -> TierRequestOut:
    """Give the asker the tier; they are told live."""
    return await _decide(request, admin, db, request_id, grant=True)


@router.post("/api/admin/tier-requests/{request_id}/decline")
async def decline_tier_request(
    request_id: Id, request: Request, admin: AdminUser, db: SessionDep
) -> TierRequestOut:
    """Turn the request down; the asker is told live (and may ask again later)."""
    return await _decide(request, admin, db, request_id, grant=False)


# -- tables --------------------------------------------------------------------------------------
@router.get("/api/admin/tables")
async def open_tables(admin: AdminUser, db: SessionDep) -> list[AdminTableOut]:
    """Tables not closed, newest first."""
    return [
        AdminTableOut(**{k: v for k, v in t.__dict__.items()})
        for t in await service.list_tables(db, open_only=True)
    ]


@router.post("/api/admin/tables/{table_id}/close")
async def close_open_table(
    table_id: TableId, request: Request, admin: AdminUser, db: SessionDep
) -> dict[str, Any]:
    """Close a table for good, whoever hosts it; everyone at it is told as when a host
    closes it. Not a tournament's match: its table closes when the match is decided (closed
    before, the match would wait for ever)."""
    row = await db.get(GameTable, table_id)
    if row is not None and row.kind == "tournament" and row.status != "closed":
        raise refused(409, MATCH_CLOSES_ITSELF, "tournament")
    if not await close_table(request.app, table_id):
        raise refused(404, "no open table with that id", "no_table")
    return {"closed": True}
