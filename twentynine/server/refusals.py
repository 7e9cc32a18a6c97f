"""A refused request as its HTTP error: the words (English, for logs and tools) and, where a
page shows it in its own language, the reason's code in a header (``err_<reason>`` in the web
client's strings)."""

from __future__ import annotations

from fastapi import HTTPException

#: the HTTP header that gives a refused request's reason (``TableError.reason``,
#: ``AccessError.reason``) beside its words: a page shows its own language's string for it
REASON_HEADER = "X-Error-Reason"


def refused(status: int, detail: str, reason: str | None) -> HTTPException:
    """The HTTP error for a refusal: its words, and its reason in ``REASON_HEADER``."""
    headers = {REASON_HEADER: reason} if reason else None
    return HTTPException(status_code=status, detail=detail, headers=headers)


class Refusal(Exception):
    """A refused request of a domain's service: an HTTP status, the words, and (where a page
    shows it in its own language) the reason's code."""

    def __init__(self, status: int, detail: str, reason: str | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.reason = reason

    def http(self) -> HTTPException:
        return refused(self.status, self.detail, self.reason)
