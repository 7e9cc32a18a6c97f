"""Every model, imported in one place for Alembic and for creating the schema."""

from .accounts.models import LoginToken, OIDCIdentity, RateEvent, User, UserSession
from .db import Base
from .friends.models import Friendship
from .history.models import DealHistory, DealPlayer
from .matchmaking.models import QueueEntry
from .ratings.models import PlayerRating, RatedGame, RatingChange
from .safety.models import ChatMute, ChatReport, UserBlock
from .tables.models import ChatMessage, GameTable, TableSeat

__all__ = [
    "Base",
    "ChatMessage",
    "ChatMute",
    "ChatReport",
    "DealHistory",
    "DealPlayer",
    "Friendship",
    "GameTable",
    "LoginToken",
    "OIDCIdentity",
    "PlayerRating",
    "QueueEntry",
    "RateEvent",
    "RatedGame",
    "RatingChange",
    "TableSeat",
    "User",
    "UserBlock",
    "UserSession",
]
