"""Every model, imported in one place for Alembic and for creating the schema."""

from .accounts.models import LoginToken, OIDCIdentity, RateEvent, User, UserSession
from .admin.models import TierRequest
from .db import Base
from .friends.models import FriendInvitation, Friendship
from .history.models import DealHistory, DealPlayer
from .live.models import LiveMessage, LivePrefs, LiveStream
from .tables.models import ChatMessage, GameTable, TableSeat

__all__ = [
    "Base",
    "ChatMessage",
    "DealHistory",
    "DealPlayer",
    "FriendInvitation",
    "Friendship",
    "GameTable",
    "LiveMessage",
    "LivePrefs",
    "LiveStream",
    "LoginToken",
    "OIDCIdentity",
    "RateEvent",
    "TableSeat",
    "TierRequest",
    "User",
    "UserSession",
]
