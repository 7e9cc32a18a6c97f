"""Request bodies for the tables API and the messages of the table socket (docs/protocol.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ...bots import LEVELS
from ..validation import Line, Text, https_link
from .clock import check_turn_seconds

SeatSpec = Literal["me", "open"] | str  # "bot:<level>" too


class RulesIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    preset: str = "standard"
    options: dict[str, Any] = Field(default_factory=dict)


class CreateTable(BaseModel):
    """A public table, a private one (joined by invite code), or a solo game against bots."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["public", "private", "solo"] = "public"
    name: Line = Field(default="", max_length=80)
    rules: RulesIn = Field(default_factory=RulesIn)
    #: what sits in each seat: "me" (exactly once), "open", or "bot:<level>"
    seats: list[Line] = Field(default_factory=lambda: ["me", "open", "open", "open"])
    takeover_seconds: int = Field(default=60, ge=1, le=600)
    #: the turn clock: 0 (none) or 5-120 seconds a move; left out, 20 at a public table, else 0
    turn_seconds: int | None = None

    @field_validator("turn_seconds")
    @classmethod
    def _turn_seconds(cls, seconds: int | None) -> int | None:
        return None if seconds is None else check_turn_seconds(seconds)

    #: a rated public table: four people, seats "me" and three "open" (ratings/)
    rated: bool = False

    @field_validator("seats")
    @classmethod
    def _seats(cls, seats: list[str]) -> list[str]:
        if len(seats) != 4:
            raise ValueError("give exactly four seats")
        if seats.count("me") != 1:
            raise ValueError('exactly one seat must be "me"')
        for s in seats:
            if s in ("me", "open"):
                continue
            if s.startswith(("bot:http://", "bot:https://")) and len(s) <= 300:
                continue  # an external Bhoos-protocol bot; the server checks the address
            if not s.startswith("bot:") or s[4:] not in LEVELS:
                raise ValueError(
                    f'a seat is "me", "open", "bot:<url>" or "bot:<level>" with a level of '
                    f"{', '.join(LEVELS)}"
                )
        return seats


class CreateHosted(BaseModel):
    """A host's game among friends (seed 000)."""

    model_config = ConfigDict(extra="forbid")
    #: user id per seat (the host among them); or leave it out and give ``players``
    seats: list[int] | None = None
    #: the three friends, seated in random teams with the host
    players: list[int] | None = None
    rules: RulesIn = Field(default_factory=RulesIn)
    conference_url: Line = Field(default="", max_length=500)
    spectators_see: Literal["host_hand", "none"] = "host_hand"
    takeover_seconds: int = Field(default=60, ge=1, le=600)
    name: Line = Field(default="", max_length=80)
    #: the turn clock: 0 (none, the default among friends) or 5-120 seconds a move
    turn_seconds: int = 0

    @field_validator("turn_seconds")
    @classmethod
    def _turn_seconds(cls, seconds: int) -> int:
        return check_turn_seconds(seconds)

    @field_validator("conference_url")
    @classmethod
    def _url(cls, url: str) -> str:
        return https_link(url)


class JoinTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: Line | None = Field(default=None, max_length=16)
    seat: int | None = Field(default=None, ge=0, le=3)


class ResetTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    what: Literal["score", "round", "deck", "all"]


# -- socket messages (client to server) -------------------------------------------------------
class Act(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["act"]
    act: str
    value: int | None = None
    suit: str | None = None
    card: str | None = None
    seat: int | None = None
    version: int | None = None


class Chat(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["chat"]
    text: Text = Field(max_length=2000)


class Toggle(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["toggle"]
    seat: int = Field(ge=0, le=3)


class Reset(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["reset"]
    what: Literal["score", "round", "deck", "all"]


class Pause(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["pause", "resume"]


class Back(BaseModel):
    """ "I'm back": take your seat back from the turn clock's stand-in bot."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["back"]


class Hello(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["hello"]
    last_version: int | None = None


class Ping(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["ping"]


ClientMessage = Annotated[
    Act | Chat | Toggle | Reset | Pause | Back | Hello | Ping, Field(discriminator="type")
]
