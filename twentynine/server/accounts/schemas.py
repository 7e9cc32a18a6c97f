from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, EmailStr, Field, field_validator

from ..validation import Line, refusal


class EmailRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    email: EmailStr
    first_name: Line | None = Field(default=None, min_length=1, max_length=60)
    #: the page's language: a new account starts in it (an existing one keeps its own)
    language: Literal["en", "bn", "hi", "ne"] | None = None


class CodeRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    email: EmailStr
    code: str = Field(pattern=r"^\d{6}$")


class GuestRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    first_name: Line | None = Field(default=None, min_length=1, max_length=60)


class ProfileUpdate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    first_name: Line | None = Field(default=None, min_length=1, max_length=60)
    avatar: str | None = Field(default=None, max_length=40, pattern=r"^[a-z0-9_-]*$")
    card_deck: str | None = Field(default=None, max_length=40, pattern=r"^[a-z0-9_-]+$")
    table_theme: str | None = Field(default=None, max_length=40, pattern=r"^[a-z0-9_-]+$")
    language: Literal["en", "bn", "hi", "ne"] | None = None

    @field_validator("first_name")
    @classmethod
    def _named(cls, name: str | None) -> str | None:
        if name is not None and not name.strip():
            raise refusal("name_blank", "a first name cannot be blank")
        return name


class UserOut(BaseModel):
    id: int
    email: str | None
    first_name: str
    tier: str
    is_admin: bool
    is_guest: bool
    avatar: str
    card_deck: str
    table_theme: str
    language: str


class DeleteAccountIn(BaseModel):
    """Deleting an account is asked for in so many words."""

    model_config = ConfigDict(extra="forbid")
    confirm: Literal[True]
