"""The state every part of a table runtime reads: declared once here, set in
``TableRuntime.__init__``. Each part (``queue``, ``timers``, ``broadcast``, ``remote``,
``presence``, ``seats``, ``deals``, ``bot_moves``) is a mixin over this; ``TableRuntime`` puts
them together."""

from __future__ import annotations

import asyncio
import random
from collections import deque
from typing import TYPE_CHECKING, Any

from .connection import to_keep

if TYPE_CHECKING:
    from ...bots import Bot
    from ...engine.game import GameState
    from ...engine.rules import Rules
    from ..settings import Settings
    from .connection import Connection
    from .fanout import Fanout
    from .queue import Commands
    from .runtime import TableInfo
    from .seats import Seat
    from .store import TableStore


class TableParts:
    info: TableInfo
    fanout: Fanout
    #: this process runs the table's bots and timers (always, without Redis)
    leader: bool
    rules: Rules
    seats: list[Seat]
    store: TableStore
    settings: Settings
    version: int
    status: str
    rng: random.Random
    game: GameState | None
    #: the game's totals when this deal began
    totals: dict[str, Any] | None
    actions: list[dict[str, Any]]
    game_no: int
    deck_reset: bool
    #: paused because nobody was here to play or watch (see ``Presence.nobody_here``)
    paused_away: bool
    #: seats with a connection on another process, as last looked up (the seat's ``connected``)
    elsewhere: dict[int, bool]
    #: the events of the latest versions, for clients catching up (encoded)
    recent: deque[tuple[int, bytes]]
    conns: set[Connection]
    inbox: Commands
    worker: asyncio.Task[None] | None
    timers: dict[str, asyncio.Task[None]]
    bots: dict[int, Bot]
    #: the newest version whose events this process's connections were sent
    sent: int
    #: events of other processes' versions not sent here yet, as they arrive (by version)
    arrived: dict[int, list[dict[str, Any]]]
    arrival: asyncio.Event
    #: the deal's events so far, told to a connecting page, and the version they are of
    told: tuple[int, list[dict[str, Any]]] | None

    def _remember(self, version: int, events_json: bytes) -> None:
        """A version's events, encoded, into the catch-up list, copied to their own length:
        the list keeps a table's last 200 versions (``connection.to_keep``)."""
        self.recent.append((version, to_keep(events_json)))
