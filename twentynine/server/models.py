"""Every model, imported in one place for Alembic and for creating the schema."""

from .accounts.models import LoginToken, OIDCIdentity, RateEvent, User, UserSession
from .db import Base
from .friends.models import Friendship
from .history.models import DealHistory, DealPlayer
from .tables.models import ChatMessage, GameTable, TableSeat
from .tournaments.models import Entry, Match, Tournament, TournamentLog

__all__ = [
    "Base",
    "ChatMessage",
    "DealHistory",
    "DealPlayer",
    "Entry",
    "Friendship",
    "GameTable",
    "LoginToken",
    "Match",
    "OIDCIdentity",
    "RateEvent",
    "TableSeat",
    "Tournament",
    "TournamentLog",
    "User",
    "UserSession",
]
