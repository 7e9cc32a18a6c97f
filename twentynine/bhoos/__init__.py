"""The Bhoos 2023 29 bot protocol (``shared/BHOOS-PROTOCOL.md``), both directions.

- ``server``: our bots behind the protocol over HTTP (``create_app``, ``serve``, ``register``
  for the CLI);
- ``player``: its core without HTTP, a request answered by our bot (``BhoosPlayer``);
- ``timing``: the deal's 1500 ms planned over its decisions, and what the caller's clock
  charges beyond our own time;
- ``client``: an external protocol bot in one of our seats (``BhoosBot``);
- ``payload``: the protocol's players, cards and time, and a request read and checked;
- ``rebuild``: an engine state consistent with a request (the server direction);
- ``fallback``: a legal answer from the request alone, when no engine state fits it;
- ``convert``: our actions and views as the protocol's answers and requests.

The server pulls in FastAPI and uvicorn, and the player our bots, so their names are imported
on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .client import BhoosBot, BhoosBotError
from .convert import AnswerError
from .payload import PayloadError

if TYPE_CHECKING:
    from .player import BhoosPlayer
    from .server import create_app, register, serve

_SERVER_NAMES = ("create_app", "register", "serve")


def __getattr__(name: str) -> Any:
    if name in _SERVER_NAMES:
        from . import server

        return getattr(server, name)
    if name == "BhoosPlayer":
        from .player import BhoosPlayer

        return BhoosPlayer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "AnswerError",
    "BhoosBot",
    "BhoosBotError",
    "BhoosPlayer",
    "PayloadError",
    "create_app",
    "register",
    "serve",
]
