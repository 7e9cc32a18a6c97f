"""Errors raised by the engine. All are ``ValueError`` subclasses with a clear message."""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of every error the engine raises on bad input."""


class NotationError(EngineError):
    """A card code, action text or record field that cannot be read."""


class InvalidRules(EngineError):
    """An unknown rule option, preset, or a value it does not allow."""


class IllegalAction(EngineError):
    """An action that is not legal in the current state. The state is unchanged.

    ``reason`` is a short machine-readable code, ``message`` the sentence for people.
    """

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
