"""Request bodies of the tournaments API (docs/tournaments.md has an example of each)."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ...bots import LEVELS
from ..db import utcnow
from ..tables.schemas import RulesIn
from ..validation import Line, Text, https_link, refusal
from .pairing import swiss_max_rounds

Level = Literal["random", "beginner", "intermediate", "expert"]
assert set(Level.__args__) == set(LEVELS)  # type: ignore[attr-defined]


class CreateTournament(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Line = Field(min_length=1, max_length=100)
    description: Text = Field(default="", max_length=5000)
    #: the rules as the organiser words them for the entrants
    rules_text: Text = Field(default="", max_length=20000)
    #: the rules every table plays: a preset and house options, as for a hosted game
    rules: RulesIn = Field(default_factory=RulesIn)
    format: Literal["knockout", "swiss", "round_robin"]
    #: Swiss rounds (knockout and round robin have as many as the field needs)
    rounds: int | None = Field(default=None, ge=1, le=20)
    team_mode: Literal["pairs", "individuals"] = "pairs"
    #: deals a match (the team that won more of them wins); 0 or absent: a set (first to ±6)
    match_deals: int = Field(default=0, ge=0, le=50)
    #: the largest field (default 16; 8, the most, for a round robin)
    max_teams: int | None = Field(default=None, ge=2, le=128)
    registration_opens_at: dt.datetime | None = None
    registration_closes_at: dt.datetime | None = None
    conference_url: Line = Field(default="", max_length=500)
    #: each match gets a link of its own (the organiser sets it); else the one link for all
    conference_per_match: bool = False
    entry_note: Text = Field(default="", max_length=2000)
    #: the organiser approves (marks paid) each entry before it is in
    approval: bool = False
    #: a player who does not come: a bot plays the seat after the grace period, or the team
    #: forfeits the match
    no_show: Literal["bot", "forfeit"] = "bot"
    grace_seconds: int = Field(default=300, ge=0, le=3600)
    #: a knockout's losing semi-finalists play for third place
    third_place: bool = False

    @field_validator("name")
    @classmethod
    def _named(cls, name: str) -> str:
        if not name.strip():
            raise refusal("tournament_name", "a tournament needs a name")
        return name.strip()

    @field_validator("conference_url")
    @classmethod
    def _link(cls, url: str) -> str:
        return https_link(url)

    @field_validator("registration_opens_at", "registration_closes_at")
    @classmethod
    def _utc(cls, when: dt.datetime | None) -> dt.datetime | None:
        if when is not None and when.tzinfo is not None:
            when = when.astimezone(dt.UTC).replace(tzinfo=None)
        return when

    @model_validator(mode="after")
    def _consistent(self) -> CreateTournament:
        if self.format == "swiss" and self.rounds is None:
            raise refusal("swiss_rounds_needed", "a Swiss tournament needs its number of rounds")
        if self.format != "swiss" and self.rounds is not None:
            raise refusal("rounds_swiss_only", "rounds is for a Swiss tournament only")
        if self.max_teams is None:
            self.max_teams = 8 if self.format == "round_robin" else 16
        if self.format == "round_robin" and self.max_teams > 8:
            raise refusal("round_robin_size", "a round robin takes at most 8 teams")
        if self.rounds is not None and self.rounds > swiss_max_rounds(self.max_teams):
            raise refusal(  # it could never start (conduct.py refuses it then)
                "swiss_too_few_teams",
                f"{self.rounds} Swiss rounds need at least {2 * self.rounds} teams; "
                f"the field takes at most {self.max_teams}",
            )
        if self.third_place and self.format != "knockout":
            raise refusal("third_place_knockout", "a third-place match is for a knockout")
        opens, closes = self.registration_opens_at, self.registration_closes_at
        if opens is not None and closes is not None and closes <= opens:
            raise refusal("registration_order", "registration must close after it opens")
        if closes is not None and closes <= utcnow():
            raise refusal(
                "registration_past", "registration would close before it began: choose a later time"
            )
        return self


class Register(BaseModel):
    model_config = ConfigDict(extra="forbid")
    #: register with this partner (who confirms); leave out to register alone
    partner_email: Line | None = Field(default=None, max_length=320)
    #: the team's name (default: the players' first names)
    name: Line = Field(default="", max_length=100)


class AddBots(BaseModel):
    model_config = ConfigDict(extra="forbid")
    teams: int = Field(ge=1, le=128)
    level: Level = "intermediate"


class Approve(BaseModel):
    model_config = ConfigDict(extra="forbid")
    paid: bool = True


class Replace(BaseModel):
    model_config = ConfigDict(extra="forbid")
    #: the entrant to take out of the team
    user_id: int = Field(ge=1, le=2**31 - 1)
    #: the person who takes their place
    email: Line = Field(min_length=3, max_length=320)


class AdjustResult(BaseModel):
    model_config = ConfigDict(extra="forbid")
    #: the winning entry's id; null for a draw (not in a knockout)
    winner: int | None = Field(ge=1, le=2**31 - 1)
    #: the match score to record, first entry first (rounds or game points)
    score: tuple[int, int] | None = None
    reason: Text = Field(default="", max_length=500)


class Repair(BaseModel):
    model_config = ConfigDict(extra="forbid")
    #: the round's pairs, slot by slot: [a, b] a match, [a, null] a bye
    matches: list[tuple[int, int | None]] = Field(min_length=1, max_length=128)


class CallPlayers(BaseModel):
    """The organiser calls the entrants before the start: "starts in ``minutes``", or soon."""

    model_config = ConfigDict(extra="forbid")
    minutes: int | None = Field(default=None, ge=1, le=180)


class MatchConference(BaseModel):
    model_config = ConfigDict(extra="forbid")
    conference_url: Line = Field(max_length=500)

    @field_validator("conference_url")
    @classmethod
    def _link(cls, url: str) -> str:
        return https_link(url)
