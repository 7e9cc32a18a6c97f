from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from ..validation import Line


class ReportIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    message_id: int = Field(ge=1, le=2**31 - 1)
    reason: Line = Field(default="", max_length=300)
    #: a private table's invite code, for a spectator who came in with it
    code: Line | None = Field(default=None, max_length=16)
