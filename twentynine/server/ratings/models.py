from __future__ import annotations

import datetime as dt

from sqlalchemy import DateTime, Float, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base, utcnow


class PlayerRating(Base):
    """A player's current rating: openskill's ``mu`` and ``sigma``, and the conservative figure
    people see (``rating``, kept for ordering the leaderboard)."""

    __tablename__ = "player_ratings"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    rating: Mapped[float] = mapped_column(Float, index=True)
    games: Mapped[int] = mapped_column(Integer, default=0)
    last_game_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)


class RatedGame(Base):
    """A rated table's game that has been rated: one row a game, so that it is rated once
    (two processes, or a leaver and the game's end, cannot both rate it)."""

    __tablename__ = "rated_games"

    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: the team that won (0 or 1) for those who stayed, None for a draw
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    reason: Mapped[str] = mapped_column(String(12))  # finished | left
    rated_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)


class RatingChange(Base):
    """One player's rating before and after one rated game: the rating history."""

    __tablename__ = "rating_changes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    table_id: Mapped[str] = mapped_column(String(16))
    game_no: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    result: Mapped[str] = mapped_column(String(8))  # win | loss | draw
    #: finished (played to the end), left (left before the end), bot_kept (a bot kept the seat)
    reason: Mapped[str] = mapped_column(String(12))
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    rating: Mapped[float] = mapped_column(Float)
    at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
