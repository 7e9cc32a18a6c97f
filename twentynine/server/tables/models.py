from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base, utcnow
from .clock import default_turn_seconds


def _default_turn_seconds(context: Any) -> int:
    """A table opened without saying: a clock at a public table (20 s), none elsewhere."""
    return default_turn_seconds(context.get_current_parameters().get("kind", ""))


class GameTable(Base):
    """A table: its settings, its seats, and the game in progress as a compact snapshot (the
    game's totals and the current deal's record), with a version bumped by every action."""

    __tablename__ = "game_tables"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    kind: Mapped[str] = mapped_column(String(12))  # hosted | public | private | solo
    host_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    invite_code: Mapped[str | None] = mapped_column(String(16), unique=True, nullable=True)
    name: Mapped[str] = mapped_column(String(80), default="")
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)  # {"preset": …, "options": {…}}
    conference_url: Mapped[str] = mapped_column(String(500), default="")
    spectators_see: Mapped[str] = mapped_column(String(12), default="host_hand")  # or "none"
    takeover_seconds: Mapped[int] = mapped_column(Integer, default=60)
    #: seconds a person has for a move (the turn clock, tables/clock.py); 0: no clock
    turn_seconds: Mapped[int] = mapped_column(
        Integer, default=_default_turn_seconds, server_default="0"
    )
    rated: Mapped[bool] = mapped_column(Boolean, default=False)  # rated play (ratings/)
    status: Mapped[str] = mapped_column(
        String(12), default="waiting"
    )  # waiting|playing|paused|closed
    version: Mapped[int] = mapped_column(Integer, default=0)
    state: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)


class TableSeat(Base):
    __tablename__ = "table_seats"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    bot: Mapped[str] = mapped_column(String(300), default="")  # level or bot URL; "" = a person
    joined: Mapped[bool] = mapped_column(Boolean, default=False)


class ChatMessage(Base):
    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), index=True
    )
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    name: Mapped[str] = mapped_column(String(60))
    spectator: Mapped[bool] = mapped_column(Boolean, default=False)
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
