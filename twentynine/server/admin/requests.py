"""Tier requests: a basic account asks for the standard tier (to host games), with an optional
note; the admins grant or decline it. One pending request per account at a time."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from ..accounts.models import CAN_HOST, User
from ..accounts.service import rate_limited
from ..db import utcnow
from .models import DECLINED, GRANTED, PENDING, TierRequest
from .service import AdminError, change_tier

#: the tier a request asks for: the one that may host games
REQUESTED_TIER = "standard"
#: requests an account may make a day (a declined one may be asked again, not endlessly)
REQUESTS_PER_DAY = 3


@dataclass(frozen=True)
class RequestInfo:
    request: TierRequest
    user: User


def message(request: TierRequest, user: User) -> dict[str, object]:
    """The live message about a request: to the admins, and to its asker once decided."""
    return {
        "type": "tier_request",
        "request_id": request.id,
        "user_id": user.id,
        "name": user.first_name,
        "tier": request.tier,
        "status": request.status,
    }


async def latest(db: AsyncSession, user: User) -> TierRequest | None:
    """The account's newest request, if it ever made one."""
    row: TierRequest | None = await db.scalar(
        select(TierRequest)
        .where(TierRequest.user_id == user.id)
        .order_by(TierRequest.id.desc())
        .limit(1)
    )
    return row


async def ask(db: AsyncSession, user: User, note: str) -> TierRequest:
    """File ``user``'s request for the standard tier."""
    if user.is_guest:
        raise AdminError("guests cannot ask for a tier; sign in with your email", 403)
    if CAN_HOST.get(user.tier, False):
        raise AdminError("your account can host games already", 409)
    last = await latest(db, user)
    if last is not None and last.status == PENDING:
        raise AdminError("your request is waiting for an admin already", 409)
    if await rate_limited(db, f"tier:request:{user.id}", REQUESTS_PER_DAY, dt.timedelta(days=1)):
        await db.commit()
        raise AdminError("too many requests today; try again tomorrow", 429)
    request = TierRequest(user_id=user.id, tier=REQUESTED_TIER, note=note.strip())
    db.add(request)
    await db.commit()
    return request


async def pending(db: AsyncSession) -> list[RequestInfo]:
    """Requests waiting for an admin, oldest first."""
    rows = await db.execute(
        select(TierRequest, User)
        .join(User, User.id == TierRequest.user_id)
        .where(TierRequest.status == PENDING)
        .order_by(TierRequest.id)
    )
    return [RequestInfo(request=r, user=u) for r, u in rows]


async def decide(db: AsyncSession, admin: User, request_id: int, grant: bool) -> RequestInfo:
    """Grant (the account gets the tier) or decline a pending request."""
    request = await db.get(TierRequest, request_id)
    if request is None:
        raise AdminError("no such tier request", 404)
    if request.status != PENDING:
        raise AdminError(f"this request was {request.status} already", 409)
    user = await db.get(User, request.user_id)
    if user is None or user.deleted_at is not None:
        raise AdminError("no such tier request", 404)
    request.decided_at = utcnow()
    request.decided_by = admin.id
    if grant:
        request.status = GRANTED
        await change_tier(db, user, request.tier)  # commits
    else:
        request.status = DECLINED
        await db.commit()
    return RequestInfo(request=request, user=user)
