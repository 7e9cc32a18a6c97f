from __future__ import annotations

import datetime as dt

from sqlalchemy import DateTime, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base, utcnow


class Friendship(Base):
    """A request from ``requester`` to ``addressee``; friends once ``status`` is accepted."""

    __tablename__ = "friendships"
    __table_args__ = (UniqueConstraint("requester_id", "addressee_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    requester_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), index=True
    )
    addressee_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), index=True
    )
    status: Mapped[str] = mapped_column(String(12), default="pending")  # pending | accepted
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)


class FriendInvitation(Base):
    """A friend request to an address with no account, mailed as an invitation; it becomes a
    real request (a ``Friendship``) when someone signs up with the address."""

    __tablename__ = "friend_invitations"
    __table_args__ = (UniqueConstraint("inviter_id", "email"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    inviter_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    email: Mapped[str] = mapped_column(String(320), index=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
