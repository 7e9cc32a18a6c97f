from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, ConfigDict, EmailStr


class FriendRequestIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    email: EmailStr


class FriendOut(BaseModel):
    """Another account as its friends (and would-be friends) see it."""

    model_config = ConfigDict(extra="forbid")
    id: int
    first_name: str
    email: str | None


class FriendsOut(BaseModel):
    model_config = ConfigDict(extra="forbid")
    friends: list[FriendOut]
    incoming: list[FriendOut]  # requests to me, waiting for my answer
    outgoing: list[FriendOut]  # my requests, waiting for theirs
    limit: int  # friends my tier allows
    count: int  # friends I have (accepted)


class FriendActionOut(BaseModel):
    """What a request, accept, decline, cancel or remove did, and to whom."""

    model_config = ConfigDict(extra="forbid")
    status: Literal["requested", "accepted", "declined", "cancelled", "removed"]
    user: FriendOut


class InvitationOut(BaseModel):
    """An invitation by mail to someone with no account, waiting for them to sign up."""

    model_config = ConfigDict(extra="forbid")
    id: int
    email: str
    created_at: dt.datetime
