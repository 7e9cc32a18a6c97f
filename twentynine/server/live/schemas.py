"""What a page may send on ``/ws/me``, and the notice preferences over HTTP."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

#: message ids are a person's own counter (a 32-bit column)
MessageId = Annotated[int, Field(ge=0, le=2**31 - 1)]


class Hello(BaseModel):
    """Catch up: the messages after ``last_id`` (as the socket's ``last_id`` parameter)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["hello"]
    last_id: MessageId | None = None


class Watch(BaseModel):
    """Follow (or stop following) what only some pages show: ``lobby``, the public tables;
    ``counts``, how many people are online and playing; ``leaderboard``, that rated games were
    rated (its ratings changed); ``history``, that a deal you played was recorded (your own
    deals only); ``tables``, every table's changes, and ``accounts``, every change to the list
    of accounts (the admin page: admins only). A topic left out stays as it was."""

    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["watch"]
    lobby: bool | None = None
    counts: bool | None = None
    leaderboard: bool | None = None
    history: bool | None = None
    tables: bool | None = None
    accounts: bool | None = None

    @model_validator(mode="after")
    def _names_a_topic(self) -> Watch:
        topics = (
            self.lobby, self.counts, self.leaderboard, self.history, self.tables, self.accounts
        )  # fmt: skip
        if all(v is None for v in topics):
            raise ValueError(
                "watch names at least one of lobby, counts, leaderboard, history, tables, accounts"
            )
        return self


class Ping(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["ping"]


ClientMessage = Annotated[Hello | Watch | Ping, Field(discriminator="type")]


class PrefsIn(BaseModel):
    """Either or both of the two choices (true or false: no "yes", no 1)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    sound: bool | None = None
    notify: bool | None = None


class PrefsOut(BaseModel):
    sound: bool
    notify: bool
