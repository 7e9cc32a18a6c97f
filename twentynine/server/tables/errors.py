"""What a refused table command raises."""

from __future__ import annotations


class TableError(Exception):
    """A refused command: ``reason`` is a short code, the message is for people."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
