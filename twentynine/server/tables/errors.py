"""What a refused table command raises."""

from __future__ import annotations

#: why nobody closes a tournament's match table by hand (the host's close, an admin's)
MATCH_CLOSES_ITSELF = (
    "a tournament's match table closes when the match is decided; its organiser sets the "
    "result or ends the tournament on its page"
)


class TableError(Exception):
    """A refused command: ``reason`` is a short code, the message is for people."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
