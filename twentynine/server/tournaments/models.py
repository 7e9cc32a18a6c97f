"""A tournament, its entries (teams), its rounds and matches, and the organiser's log."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base, utcnow


class Tournament(Base):
    """An event: its settings, where it stands (``status``, ``current_round``), a version
    bumped by every step (a compare-and-set, so that no step is taken twice) and the lease of
    the one process that advances it."""

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    organiser_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    description: Mapped[str] = mapped_column(Text, default="")
    rules_text: Mapped[str] = mapped_column(Text, default="")
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)  # {"preset": …, "options": {…}}
    format: Mapped[str] = mapped_column(String(12))  # knockout | swiss | round_robin
    rounds: Mapped[int] = mapped_column(Integer, default=0)  # Swiss rounds (others: derived)
    team_mode: Mapped[str] = mapped_column(String(12), default="pairs")  # or individuals
    match_deals: Mapped[int] = mapped_column(Integer, default=0)  # 0: a set (first to ±6)
    max_teams: Mapped[int] = mapped_column(Integer, default=16)
    opens_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)
    closes_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)
    conference_url: Mapped[str] = mapped_column(String(500), default="")
    conference_per_match: Mapped[bool] = mapped_column(Boolean, default=False)
    entry_note: Mapped[str] = mapped_column(Text, default="")
    approval: Mapped[bool] = mapped_column(Boolean, default=False)
    no_show: Mapped[str] = mapped_column(String(8), default="bot")  # bot | forfeit
    grace_seconds: Mapped[int] = mapped_column(Integer, default=300)
    third_place: Mapped[bool] = mapped_column(Boolean, default=False)
    #: registration | running | finished
    status: Mapped[str] = mapped_column(String(12), default="registration", index=True)
    current_round: Mapped[int] = mapped_column(Integer, default=0)
    ranking: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    lease_owner: Mapped[str] = mapped_column(String(40), default="")
    lease_until: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    started_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)
    finished_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)


class Entry(Base):
    """A team: a person who registered and their partner (or a bot partner), or a bot team.
    ``status``: ``partner`` (waiting for the partner to confirm), ``pending`` (waiting for the
    organiser's approval), ``entered``, ``withdrawn``, or ``merged`` (an individual drawn into
    another entry's team at the start)."""

    __tablename__ = "tournament_entries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    partner_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id"), nullable=True, index=True
    )
    bot: Mapped[str] = mapped_column(String(20), default="")  # a bot team's level
    partner_bot: Mapped[str] = mapped_column(String(20), default="")  # a bot partner's level
    name: Mapped[str] = mapped_column(String(100), default="")
    status: Mapped[str] = mapped_column(String(12), default="pending")
    paid: Mapped[bool] = mapped_column(Boolean, default=False)
    seed: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)


class Match(Base):
    """One match of a round at its own table; or a bye (``kind`` "bye", no table, no
    opponent), kept as a row so that a knockout bracket reads slot by slot."""

    __tablename__ = "tournament_matches"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    round_no: Mapped[int] = mapped_column(Integer)
    slot: Mapped[int] = mapped_column(Integer, default=0)  # its place in the round (bracket)
    kind: Mapped[str] = mapped_column(String(12), default="match")  # match|bye|third_place
    entry_a: Mapped[int] = mapped_column(ForeignKey("tournament_entries.id"))  # seats 0 and 2
    entry_b: Mapped[int | None] = mapped_column(
        ForeignKey("tournament_entries.id"), nullable=True
    )  # seats 1 and 3
    table_id: Mapped[str | None] = mapped_column(String(16), nullable=True, index=True)
    conference_url: Mapped[str] = mapped_column(String(500), default="")
    #: waiting (the table waits for its players) | playing | done
    status: Mapped[str] = mapped_column(String(12), default="waiting")
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)  # entry id; None: draw
    #: match points: 1 a win, 0.5 a draw, 0 a loss
    points_a: Mapped[float] = mapped_column(Float, default=0.0)
    points_b: Mapped[float] = mapped_column(Float, default=0.0)
    #: card points won by each side over the match's deals
    cards_a: Mapped[int] = mapped_column(Integer, default=0)
    cards_b: Mapped[int] = mapped_column(Integer, default=0)
    #: how it ended: {"score": [a, b], "deals": n, "forfeit": …, "adjusted": …}
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    opened_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    finished_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)


class TournamentLog(Base):
    """What the organiser (or the server) did to a tournament, with the before and after."""

    __tablename__ = "tournament_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    action: Mapped[str] = mapped_column(String(40))
    detail: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
