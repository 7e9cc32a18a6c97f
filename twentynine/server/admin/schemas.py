from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..validation import Text


class TierIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tier: Literal["basic", "standard", "standard_guest"]


class TierRequestIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    note: Text = Field(default="", max_length=500)


class TierRequestOut(BaseModel):
    """A request for a tier, as its asker and the admins see it."""

    id: int
    user_id: int
    name: str
    email: str | None
    tier: str
    note: str
    status: Literal["pending", "granted", "declined"]
    created_at: dt.datetime
    decided_at: dt.datetime | None


class MyTierRequestOut(BaseModel):
    request: TierRequestOut | None


class AccountOut(BaseModel):
    id: int
    email: str | None
    first_name: str
    tier: str
    is_admin: bool
    disabled: bool
    deleted: bool
    friends: int
    created_at: dt.datetime


class AccountsOut(BaseModel):
    accounts: list[AccountOut]
    more: bool  # more accounts match than were listed


class AdminTableOut(BaseModel):
    id: str
    kind: str
    name: str
    host_id: int | None
    host: str
    status: str
    created_at: dt.datetime
