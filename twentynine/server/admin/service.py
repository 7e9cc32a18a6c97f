"""Operator actions on the database: list users and tables, set a tier, disable or enable an
account (disabling revokes its sessions), make an admin. Used by ``twentynine admin``."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any, cast

from sqlalchemy import CursorResult, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from ..accounts.models import FRIEND_LIMITS, TIERS, User, UserSession
from ..accounts.service import normalise_email
from ..friends.models import Friendship
from ..friends.service import ACCEPTED, friend_count
from ..tables.models import GameTable


class AdminError(Exception):
    """An operator action that cannot be done (unknown account, unknown tier)."""


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
        raise AdminError(f"no account with the email {email!r}")
    return user


async def list_users(db: AsyncSession, include_guests: bool = False) -> list[UserInfo]:
    """Accounts by id, with their friend counts; guests only when asked for."""
    stmt = select(User).order_by(User.id)
    if not include_guests:
        stmt = stmt.where(User.tier != "guest")
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
        )
        for u in users
    ]


async def list_tables(db: AsyncSession) -> list[TableInfo]:
    """Tables, newest first, with their hosts."""
    rows = await db.execute(
        select(GameTable, User)
        .outerjoin(User, User.id == GameTable.host_id)
        .order_by(GameTable.created_at.desc(), GameTable.id)
    )
    return [
        TableInfo(
            id=t.id,
            kind=t.kind,
            host_id=t.host_id,
            host=(host.email or host.first_name) if host is not None else "",
            status=t.status,
            created_at=t.created_at,
        )
        for t, host in rows
    ]


async def set_tier(db: AsyncSession, email: str, tier: str) -> TierChange:
    """Give an account a tier. Lowering it below the friends the account has keeps them all;
    new requests and acceptances are refused until the count is under the new limit."""
    if tier not in TIERS:
        raise AdminError(f"unknown tier {tier!r}; choose one of {', '.join(TIERS)}")
    user = await find_user(db, email)
    old = user.tier
    user.tier = tier
    await db.commit()
    return TierChange(user=user, old_tier=old, friends=await friend_count(db, user.id))


async def disable_user(db: AsyncSession, email: str) -> tuple[User, int]:
    """Disable an account and revoke every session it has; returns it and the sessions revoked.
    A disabled account cannot sign in again until enabled."""
    user = await find_user(db, email)
    user.disabled = True
    result = await db.execute(
        update(UserSession)
        .where(UserSession.user_id == user.id, UserSession.revoked.is_(False))
        .values(revoked=True)
        .execution_options(synchronize_session=False)
    )
    revoked = cast(CursorResult[Any], result).rowcount or 0
    await db.commit()
    return user, revoked


async def enable_user(db: AsyncSession, email: str) -> User:
    """Let a disabled account sign in again (its old sessions stay revoked)."""
    user = await find_user(db, email)
    user.disabled = False
    await db.commit()
    return user


async def make_admin(db: AsyncSession, email: str) -> tuple[User, bool]:
    """Make an account an admin; returns it and whether it changed (False: it already was)."""
    user = await find_user(db, email)
    if user.is_admin:
        return user, False
    user.is_admin = True
    await db.commit()
    return user, True
