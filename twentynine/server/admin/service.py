"""Operator actions on the database: list users and tables, set a tier, disable or enable an
account (disabling revokes its sessions), make an admin. The admin page's API (``router.py``)
acts on accounts by id; ``twentynine admin`` names them by email; both come here."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any, cast

from sqlalchemy import CursorResult, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from ..accounts.models import FRIEND_LIMITS, TIERS, User, UserSession
from ..accounts.service import normalise_email
from ..db import utcnow
from ..friends.models import Friendship
from ..friends.service import ACCEPTED, friend_count
from ..tables.models import GameTable
from .models import GRANTED, PENDING, TierRequest


class AdminError(Exception):
    """An operator action that cannot be done (unknown account, unknown tier), with the HTTP
    status the admin page's API answers it with."""

    def __init__(self, detail: str, status: int = 400) -> None:
        super().__init__(detail)
        self.detail = detail
        self.status = status


@dataclass(frozen=True)
class UserInfo:
    id: int
    email: str | None
    first_name: str
    tier: str
    is_admin: bool
    disabled: bool
    friends: int
    created_at: dt.datetime
    deleted: bool = False

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "created_at": self.created_at.isoformat()}


@dataclass(frozen=True)
class TableInfo:
    id: str
    kind: str
    host_id: int | None
    host: str  # the host's email (or name), "" for a table without a host
    status: str
    created_at: dt.datetime
    name: str = ""

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "created_at": self.created_at.isoformat()}


@dataclass(frozen=True)
class TierChange:
    user: User
    old_tier: str
    friends: int  # accepted friends now; may exceed the new tier's limit (they are kept)

    @property
    def over_limit(self) -> bool:
        return self.friends > FRIEND_LIMITS[self.user.tier]


async def find_user(db: AsyncSession, email: str) -> User:
    user = await db.scalar(select(User).where(User.email == normalise_email(email)))
    if user is None:
        raise AdminError(f"no account with the email {email!r}", 404)
    return user


async def get_user(db: AsyncSession, user_id: int) -> User:
    """The account ``user_id`` (not a guest, not deleted)."""
    user = await db.get(User, user_id)
    if user is None or user.is_guest or user.deleted_at is not None:
        raise AdminError("no such account", 404)
    return user


async def admin_ids(db: AsyncSession) -> list[int]:
    """The accounts that are admins and may sign in (those told of tier requests)."""
    rows = await db.scalars(
        select(User.id).where(User.is_admin.is_(True), User.disabled.is_(False))
    )
    return list(rows)


async def list_users(
    db: AsyncSession, include_guests: bool = False, search: str = "", limit: int | None = None
) -> list[UserInfo]:
    """Accounts by id, with their friend counts; guests only when asked for; ``search`` keeps
    those whose email or name holds it (any case)."""
    stmt = select(User).order_by(User.id)
    if not include_guests:
        stmt = stmt.where(User.tier != "guest")
    words = search.strip().lower()
    if words:
        # LIKE's own wildcards in the search are taken as letters to drop, not patterns
        plain = "".join(ch for ch in words if ch not in "\\%_")
        like = f"%{plain}%"
        stmt = stmt.where(
            or_(func.lower(User.email).like(like), func.lower(User.first_name).like(like))
        )
    if limit is not None:
        stmt = stmt.limit(limit)
    users = (await db.scalars(stmt)).all()
    counts: Counter[int] = Counter()
    links = await db.execute(
        select(Friendship.requester_id, Friendship.addressee_id).where(
            Friendship.status == ACCEPTED
        )
    )
    for a, b in links:
        counts[a] += 1
        counts[b] += 1
    return [
        UserInfo(
            id=u.id,
            email=u.email,
            first_name=u.first_name,
            tier=u.tier,
            is_admin=u.is_admin,
            disabled=u.disabled,
            friends=counts[u.id],
            created_at=u.created_at,
            deleted=u.deleted_at is not None,
        )
        for u in users
    ]


async def user_info(db: AsyncSession, user: User) -> UserInfo:
    """One account as the lists show it."""
    return UserInfo(
        id=user.id,
        email=user.email,
        first_name=user.first_name,
        tier=user.tier,
        is_admin=user.is_admin,
        disabled=user.disabled,
        friends=await friend_count(db, user.id),
        created_at=user.created_at,
        deleted=user.deleted_at is not None,
    )


async def list_tables(db: AsyncSession, open_only: bool = False) -> list[TableInfo]:
    """Tables, newest first, with their hosts; ``open_only``: those not closed."""
    stmt = (
        select(GameTable, User)
        .outerjoin(User, User.id == GameTable.host_id)
        .order_by(GameTable.created_at.desc(), GameTable.id)
    )
    if open_only:
        stmt = stmt.where(GameTable.status != "closed")
    rows = await db.execute(stmt)
    return [
        TableInfo(
            id=t.id,
            kind=t.kind,
            host_id=t.host_id,
            host=(host.email or host.first_name) if host is not None else "",
            status=t.status,
            created_at=t.created_at,
            name=t.name,
        )
        for t, host in rows
    ]


# -- changes to one account -------------------------------------------------------------------
async def change_tier(db: AsyncSession, user: User, tier: str) -> TierChange:
    """Give an account a tier. Lowering it below the friends the account has keeps them all;
    new requests and acceptances are refused until the count is under the new limit. A pending
    request for the tier it now has is granted by this."""
    if tier not in TIERS:
        raise AdminError(f"unknown tier {tier!r}; choose one of {', '.join(TIERS)}")
    old = user.tier
    user.tier = tier
    await db.execute(
        update(TierRequest)
        .where(
            TierRequest.user_id == user.id,
            TierRequest.status == PENDING,
            TierRequest.tier == tier,
        )
        .values(status=GRANTED, decided_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    await db.commit()
    return TierChange(user=user, old_tier=old, friends=await friend_count(db, user.id))


async def revoke_sessions(db: AsyncSession, user_id: int) -> int:
    """Revoke every session of the account (not committed); how many were open."""
    result = await db.execute(
        update(UserSession)
        .where(UserSession.user_id == user_id, UserSession.revoked.is_(False))
        .values(revoked=True)
        .execution_options(synchronize_session=False)
    )
    return cast(CursorResult[Any], result).rowcount or 0


async def disable(db: AsyncSession, user: User) -> int:
    """Disable an account and revoke every session it has; returns the sessions revoked.
    A disabled account cannot sign in again until enabled."""
    user.disabled = True
    revoked = await revoke_sessions(db, user.id)
    await db.commit()
    return revoked


async def enable(db: AsyncSession, user: User) -> None:
    """Let a disabled account sign in again (its old sessions stay revoked)."""
    user.disabled = False
    await db.commit()


async def promote(db: AsyncSession, user: User) -> bool:
    """Make an account an admin; whether it changed (False: it already was)."""
    if user.is_admin:
        return False
    user.is_admin = True
    await db.commit()
    return True


# -- the same, by email (the command line) ---------------------------------------------------
async def set_tier(db: AsyncSession, email: str, tier: str) -> TierChange:
    if tier not in TIERS:
        raise AdminError(f"unknown tier {tier!r}; choose one of {', '.join(TIERS)}")
    return await change_tier(db, await find_user(db, email), tier)


async def disable_user(db: AsyncSession, email: str) -> tuple[User, int]:
    user = await find_user(db, email)
    return user, await disable(db, user)


async def enable_user(db: AsyncSession, email: str) -> User:
    user = await find_user(db, email)
    await enable(db, user)
    return user


async def make_admin(db: AsyncSession, email: str) -> tuple[User, bool]:
    user = await find_user(db, email)
    return user, await promote(db, user)
