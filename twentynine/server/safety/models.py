from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base, utcnow


class ChatMute(Base):
    """``owner`` does not see ``target``'s chat (nothing else changes between them)."""

    __tablename__ = "chat_mutes"

    owner_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    target_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)


class UserBlock(Base):
    """``owner`` blocked ``target``: no friend requests or invitations from them, no seat at a
    table ``owner`` hosts, and ``owner`` does not see their chat."""

    __tablename__ = "user_blocks"

    owner_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    target_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)


class ChatReport(Base):
    """A chat line someone reported, with the lines around it as they were then (kept here,
    so the admins see what was said even if the table goes)."""

    __tablename__ = "chat_reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    message_id: Mapped[int] = mapped_column(Integer, index=True)
    table_id: Mapped[str] = mapped_column(String(16))
    author_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    author_name: Mapped[str] = mapped_column(String(60))
    text: Mapped[str] = mapped_column(Text)
    reason: Mapped[str] = mapped_column(String(300), default="")
    #: the lines before and after it: [{"id", "name", "user_id", "text", "at"}, …]
    context: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(12), default="open", index=True)  # open | closed
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    closed_by: Mapped[int | None] = mapped_column(Integer, nullable=True)
    closed_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)
