from __future__ import annotations

import datetime as dt

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base, utcnow

TIERS = ("basic", "standard", "standard_guest")
#: friends allowed per tier, and whether the tier may host a game
FRIEND_LIMITS = {"basic": 10, "standard": 50, "standard_guest": 50, "guest": 0}
CAN_HOST = {"basic": False, "standard": True, "standard_guest": True, "guest": False}


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    email: Mapped[str | None] = mapped_column(String(320), unique=True, index=True)
    first_name: Mapped[str] = mapped_column(String(60))
    tier: Mapped[str] = mapped_column(String(20), default="basic")  # or "guest"
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False)
    disabled: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    avatar: Mapped[str] = mapped_column(String(40), default="")
    card_deck: Mapped[str] = mapped_column(String(40), default="classic")
    table_theme: Mapped[str] = mapped_column(String(40), default="green")
    language: Mapped[str] = mapped_column(String(8), default="en")
    #: when the person deleted the account: the row stays (their seats in past deals point at
    #: it) with nothing of theirs left in it (see ``accounts/erase.py``)
    deleted_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)

    @property
    def is_guest(self) -> bool:
        return self.tier == "guest"


class LoginToken(Base):
    """A pending sign-in: a 6-digit code and a one-time link, stored only as hashes."""

    __tablename__ = "login_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    email: Mapped[str] = mapped_column(String(320), index=True)
    first_name: Mapped[str] = mapped_column(String(60), default="")
    code_hash: Mapped[str] = mapped_column(String(128))
    link_hash: Mapped[str] = mapped_column(String(128), unique=True, index=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    expires_at: Mapped[dt.datetime] = mapped_column(DateTime)
    used_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    client: Mapped[str] = mapped_column(String(64), default="")
    #: the page's language when it asked: a new account starts in it ("": English)
    language: Mapped[str] = mapped_column(String(8), default="", server_default="")


class UserSession(Base):
    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(String(128), primary_key=True)  # hash of the cookie token
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    expires_at: Mapped[dt.datetime] = mapped_column(DateTime)
    revoked: Mapped[bool] = mapped_column(Boolean, default=False)


class OIDCIdentity(Base):
    __tablename__ = "oidc_identities"
    __table_args__ = (UniqueConstraint("provider", "subject"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    provider: Mapped[str] = mapped_column(String(60))
    subject: Mapped[str] = mapped_column(String(255))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)


class RateEvent(Base):
    """One counted request (sign-in requests, wrong codes) for rate limits shared by processes."""

    __tablename__ = "rate_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(400), index=True)
    at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow, index=True)
