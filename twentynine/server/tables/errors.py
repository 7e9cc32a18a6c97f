"""What a refused table command raises."""

from __future__ import annotations

from fastapi import HTTPException

#: why nobody closes a tournament's match table by hand (the host's close, an admin's)
MATCH_CLOSES_ITSELF = (
    "a tournament's match table closes when the match is decided; its organiser sets the "
    "result or ends the tournament on its page"
)


#: the HTTP header that gives a refused request's reason (``TableError.reason``,
#: ``AccessError.reason``) beside its words: a page shows its own language's string for it
REASON_HEADER = "X-Error-Reason"


def refused(status: int, detail: str, reason: str | None) -> HTTPException:
    """The HTTP error for a refusal: its words, and its reason in ``REASON_HEADER``."""
    headers = {REASON_HEADER: reason} if reason else None
    return HTTPException(status_code=status, detail=detail, headers=headers)


class TableError(Exception):
    """A refused command: ``reason`` is a short code, the message is for people."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
