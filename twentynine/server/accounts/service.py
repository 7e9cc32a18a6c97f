"""Sign-in by email: a 6-digit code and a one-time link, short-lived, single-use, rate-limited.
No password is ever stored."""

from __future__ import annotations

import datetime as dt
import hmac
from collections.abc import Iterable

from sqlalchemy import delete, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from ..db import utcnow
from ..refusals import Refusal
from ..security import code_hash, new_code, new_token, token_hash
from ..settings import Settings
from . import listing
from .models import LoginToken, RateEvent, User, UserSession


class SignInError(Refusal):
    """A refused sign-in."""


def normalise_email(email: str) -> str:
    return email.strip().lower()


async def rate_limited(db: AsyncSession, key: str, limit: int, window: dt.timedelta) -> bool:
    """Count one event under ``key``; True if more than ``limit`` happened within ``window``."""
    since = utcnow() - window
    count = await db.scalar(
        select(func.count())
        .select_from(RateEvent)
        .where(RateEvent.key == key, RateEvent.at >= since)
    )
    if (count or 0) >= limit:
        return True
    db.add(RateEvent(key=key))
    await db.execute(delete(RateEvent).where(RateEvent.at < utcnow() - dt.timedelta(days=1)))
    return False


async def start_sign_in(
    db: AsyncSession,
    settings: Settings,
    email: str,
    first_name: str | None,
    client: str,
    language: str | None = None,
) -> tuple[str, str]:
    """Create a pending sign-in; returns (code, link token) to be mailed. ``language``: the
    page's, which a new account starts in."""
    email = normalise_email(email)
    hour = dt.timedelta(hours=1)
    limit = settings.login_requests_per_hour
    if await rate_limited(db, f"signin:email:{email}", limit, hour) or await rate_limited(
        db, f"signin:client:{client}", limit * 3, hour
    ):
        await db.commit()
        raise SignInError(429, "too many sign-in requests; try again later", "too_many_sign_ins")
    user = await db.scalar(select(User).where(User.email == email))
    if user is None and not first_name:
        await db.commit()
        raise SignInError(400, "new account: please give your first name", "name_needed")
    if user is not None and user.disabled:
        await db.commit()
        raise SignInError(403, "this account is disabled", "disabled")
    code, link = new_code(), new_token()
    # a used or expired code is kept no longer than it is of use (the privacy page says so)
    await db.execute(
        delete(LoginToken).where(
            or_(LoginToken.used_at.is_not(None), LoginToken.expires_at < utcnow())
        )
    )
    db.add(
        LoginToken(
            email=email,
            first_name=(first_name or "").strip(),
            code_hash=code_hash(settings.secret_key, email, code),
            link_hash=token_hash(link),
            expires_at=utcnow() + dt.timedelta(minutes=settings.login_code_minutes),
            client=client[:64],
            language=language or "",
        )
    )
    await db.commit()
    return code, link


async def redeem_code(db: AsyncSession, settings: Settings, email: str, code: str) -> User:
    email = normalise_email(email)
    now = utcnow()
    tokens = (
        await db.scalars(
            select(LoginToken)
            .where(LoginToken.email == email, LoginToken.used_at.is_(None))
            .where(LoginToken.expires_at > now)
            .order_by(LoginToken.id.desc())
        )
    ).all()
    wanted = code_hash(settings.secret_key, email, code)
    for token in tokens:
        if token.attempts >= settings.login_attempts:
            continue
        if hmac.compare_digest(token.code_hash, wanted):
            token.used_at = now
            return await _user_for(db, settings, token)
    for token in tokens:
        token.attempts += 1
    await db.commit()
    raise SignInError(400, "wrong or expired code", "wrong_code")


async def redeem_link(db: AsyncSession, settings: Settings, link: str) -> User:
    token = await db.scalar(select(LoginToken).where(LoginToken.link_hash == token_hash(link)))
    if token is None or token.used_at is not None or token.expires_at <= utcnow():
        raise SignInError(
            400, "this sign-in link is used, expired or unknown; ask for a new one", "link_used"
        )
    token.used_at = utcnow()
    return await _user_for(db, settings, token)


async def _user_for(db: AsyncSession, settings: Settings, token: LoginToken) -> User:
    user = await db.scalar(select(User).where(User.email == token.email))
    if user is None:
        user = await create_user(
            db, settings, token.email, token.first_name or "Player", token.language
        )
    if user.disabled:  # refused, so nothing changes: the code or link stays as it was
        await db.rollback()
        raise SignInError(403, "this account is disabled", "disabled")
    # every other pending code for this address is void once one is used
    for other in await db.scalars(
        select(LoginToken).where(LoginToken.email == token.email, LoginToken.used_at.is_(None))
    ):
        other.used_at = utcnow()
    await db.commit()
    return user


async def create_user(
    db: AsyncSession, settings: Settings, email: str | None, first_name: str, language: str = ""
) -> User:
    """A new account (in ``language``, else English); the first account on a new server is an
    admin with the standard tier."""
    first = (
        await db.scalar(select(func.count()).select_from(User).where(User.tier != "guest"))
    ) == 0
    user = User(
        email=email,
        first_name=first_name[:60],
        language=language or "en",
        tier="standard" if first else settings.new_account_tier,
        is_admin=first,
    )
    db.add(user)
    await db.flush()
    listing.made(db, user)
    if email:
        # invitations to this address become friend requests (imported here: the friends
        # domain builds on this one)
        from ..friends.invitations import redeem

        await redeem(db, user)
    return user


async def create_guest(db: AsyncSession, first_name: str | None) -> User:
    user = User(email=None, first_name=(first_name or "Guest")[:60], tier="guest")
    db.add(user)
    await db.commit()
    return user


async def open_session(db: AsyncSession, settings: Settings, user: User) -> str:
    token = new_token()
    # sessions that ended (signed out, revoked, expired) are not kept
    await db.execute(
        delete(UserSession).where(
            or_(UserSession.revoked.is_(True), UserSession.expires_at < utcnow())
        )
    )
    db.add(
        UserSession(
            id=token_hash(token),
            user_id=user.id,
            expires_at=utcnow() + dt.timedelta(days=settings.session_days),
        )
    )
    await db.commit()
    return token


async def first_names(db: AsyncSession, ids: Iterable[int | None]) -> dict[int, str]:
    """Each account's first name by id (no id, or 0, is left out)."""
    wanted = {i for i in ids if i}
    if not wanted:
        return {}
    rows = await db.execute(select(User.id, User.first_name).where(User.id.in_(wanted)))
    return {user_id: name for user_id, name in rows.all()}


async def close_session(db: AsyncSession, token: str) -> None:
    row = await db.get(UserSession, token_hash(token))
    if row is not None:
        row.revoked = True
        await db.commit()
