"""Every model, imported in one place for Alembic and for creating the schema."""

from .accounts.models import LoginToken, OIDCIdentity, RateEvent, User, UserSession
from .admin.models import TierRequest
from .db import Base
from .friends.models import FriendInvitation, Friendship
from .history.models import DealHistory, DealPlayer
from .live.models import LiveMessage, LivePrefs, LiveStream
from .matchmaking.models import QueueEntry
from .ratings.models import PlayerRating, RatedGame, RatingChange
from .safety.models import ChatMute, ChatReport, UserBlock
from .tables.models import ChatMessage, GameTable, TableSeat
from .tournaments.models import Entry, Match, Tournament, TournamentLog

__all__ = [
    "Base",
    "ChatMessage",
    "ChatMute",
    "ChatReport",
    "DealHistory",
    "DealPlayer",
    "Entry",
    "FriendInvitation",
    "Friendship",
    "GameTable",
    "LiveMessage",
    "LivePrefs",
    "LiveStream",
    "LoginToken",
    "Match",
    "OIDCIdentity",
    "PlayerRating",
    "QueueEntry",
    "RateEvent",
    "RatedGame",
    "RatingChange",
    "TableSeat",
    "TierRequest",
    "Tournament",
    "TournamentLog",
    "User",
    "UserBlock",
    "UserSession",
]
