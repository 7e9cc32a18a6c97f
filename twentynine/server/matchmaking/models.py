from __future__ import annotations

import datetime as dt

from sqlalchemy import DateTime, Float, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base, utcnow


class QueueEntry(Base):
    """Someone waiting for a rated game (in the database, so every process sees one queue).
    Once seated, the row keeps the table until they queue again or leave the queue."""

    __tablename__ = "rated_queue"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    rating: Mapped[float] = mapped_column(Float)
    joined_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow, index=True)
    table_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    matched_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)
