"""What the live channel keeps: each person's recent messages (for catch-up after a reconnect)
with the counter that numbers them, and the two notice preferences."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base, utcnow


class LiveStream(Base):
    """A person's message counter: the id of the newest message sent to them."""

    __tablename__ = "live_streams"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    last_id: Mapped[int] = mapped_column(Integer, default=0)


class LiveMessage(Base):
    """One message sent to a person, kept a while so a reconnecting page gets what it missed."""

    __tablename__ = "live_messages"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    body: Mapped[dict] = mapped_column(JSON)  # type: ignore[type-arg]
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow, index=True)


class LivePrefs(Base):
    """A person's choice of a sound and a browser notification for "your turn" and invitations
    (both off until turned on in the profile)."""

    __tablename__ = "live_prefs"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    sound: Mapped[bool] = mapped_column(Boolean, default=False)
    notify: Mapped[bool] = mapped_column(Boolean, default=False)
