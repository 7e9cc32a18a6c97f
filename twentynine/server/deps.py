"""Typed dependencies shared by every router."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from .accounts.models import User, UserSession
from .db import utcnow
from .refusals import refused
from .security import SESSION_COOKIE, token_hash
from .settings import Settings


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def get_db(request: Request) -> AsyncIterator[AsyncSession]:
    async with request.app.state.sessionmaker() as session:
        yield session


SettingsDep = Annotated[Settings, Depends(get_settings)]
SessionDep = Annotated[AsyncSession, Depends(get_db)]


async def user_from_token(db: AsyncSession, token: str | None) -> User | None:
    if not token:
        return None
    row = await db.get(UserSession, token_hash(token))
    if row is None or row.revoked or row.expires_at < utcnow():
        return None
    user = await db.get(User, row.user_id)
    if user is None or user.disabled:
        return None
    return user


async def optional_user(request: Request, db: SessionDep) -> User | None:
    return await user_from_token(db, request.cookies.get(SESSION_COOKIE))


async def current_user(user: Annotated[User | None, Depends(optional_user)]) -> User:
    if user is None:
        raise refused(401, "sign in first", "sign_in_first")
    return user


async def member_user(user: Annotated[User, Depends(current_user)]) -> User:
    """A signed-in account (not a guest)."""
    if user.is_guest:
        raise refused(403, "guests cannot do this; sign in with email", "guest_forbidden")
    return user


async def admin_user(user: Annotated[User, Depends(current_user)]) -> User:
    if not user.is_admin:
        raise refused(403, "admins only", "forbidden")
    return user


OptionalUser = Annotated[User | None, Depends(optional_user)]
CurrentUser = Annotated[User, Depends(current_user)]
MemberUser = Annotated[User, Depends(member_user)]
AdminUser = Annotated[User, Depends(admin_user)]


async def users_by_ids(db: AsyncSession, ids: list[int]) -> dict[int, User]:
    if not ids:
        return {}
    rows = await db.scalars(select(User).where(User.id.in_(ids)))
    return {u.id: u for u in rows}
