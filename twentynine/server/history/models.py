from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base, utcnow


class DealHistory(Base):
    """A finished deal's record, kept for history, downloads and stats."""

    __tablename__ = "deal_history"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(16), index=True)
    game_no: Mapped[int] = mapped_column(Integer, default=1)
    deal_no: Mapped[int] = mapped_column(Integer)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    outcome: Mapped[str] = mapped_column(String(12))
    bidder_team: Mapped[int | None] = mapped_column(Integer, nullable=True)
    contract: Mapped[str] = mapped_column(String(16), default="")
    score_delta: Mapped[list[int]] = mapped_column(JSON)
    seat_users: Mapped[list[int | None]] = mapped_column(JSON)  # user id per seat (None: bot)
    #: sets won by each team in this deal (a Red set of its own, a Black set of the other's)
    sets_won: Mapped[list[int]] = mapped_column(JSON, default=list)
    game_over: Mapped[bool] = mapped_column(Boolean, default=False)
    game_winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    finished_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow, index=True)


class DealPlayer(Base):
    """Who sat where in a stored deal (for per-user history and stats)."""

    __tablename__ = "deal_players"

    deal_id: Mapped[int] = mapped_column(
        ForeignKey("deal_history.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True, index=True)
    seat: Mapped[int] = mapped_column(Integer)
