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
    from collections.abc import Awaitable, Callable

    from ...bots import Bot
    from ...engine.actions import Action
    from ...engine.game import GameState
    from ...engine.rules import Rules
    from ..settings import Settings
    from .connection import Connection, Message
    from .fanout import Fanout
    from .notices import TableNotices
    from .queue import Command, Commands
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
    #: what the table tells pages away from it (tables/notices.py), when the app set it
    notices: TableNotices | None
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

    if TYPE_CHECKING:
        # What the parts call of one another, declared here for the type checker only (the
        # definitions are the parts' own; at run time ``TableParts`` has none of these, and the
        # method resolution order of ``TableRuntime`` is untouched). Each signature is the one
        # of the part that defines it.

        # -- queue.py (``CommandQueue``) --------------------------------------------------------
        async def submit(self, command: Command, here: bool = False) -> Any: ...
        def post(self, command: Command) -> asyncio.Future[Any]: ...

        # -- timers.py (``Timers``) -------------------------------------------------------------
        def _start_timer(
            self, key: str, seconds: float, command: Callable[[], Awaitable[Any]]
        ) -> None: ...
        def _cancel_timer(self, key: str) -> None: ...

        # -- broadcast.py (``Broadcast``) -------------------------------------------------------
        def _broadcast(
            self,
            events: list[dict[str, Any]],
            snapshot: bool = False,
            events_json: bytes | None = None,
        ) -> None: ...
        def push(self, conn: Connection, message: Message) -> None: ...
        def catch_up(self, conn: Connection, last_version: int | None) -> dict[str, Any]: ...
        async def _close(self, conn: Connection) -> None: ...

        # -- seats.py (``SeatCommands``) --------------------------------------------------------
        def seat_of(self, user_id: int | None) -> int | None: ...

        # -- deals.py (``DealFlow``) ------------------------------------------------------------
        async def start_game(self) -> None: ...
        async def _apply(self, action: Any, before: list[dict[str, Any]] | None = None) -> None: ...
        async def _next_deal(self) -> None: ...

        # -- presence.py (``Presence``) ---------------------------------------------------------
        async def nobody_here(self) -> bool: ...
        def _takeover(self, seat_no: int) -> Callable[[], Awaitable[None]]: ...
        def look_elsewhere(self, seat_no: int) -> Callable[[], Awaitable[None]]: ...
        async def _seat_connected(self, seat_no: int) -> bool: ...

        # -- clock.py (``TurnClock``) -----------------------------------------------------------
        #: seat -> the wall-clock time its clock runs out
        deadlines: dict[int, float]
        #: where the clock reads the time (a test gives a fake clock)
        wall: Callable[[], float]

        def clock_json(self) -> list[dict[str, Any]]: ...
        def _arm_clock(self) -> None: ...
        def person_acts(self, seat_no: int) -> list[dict[str, Any]]: ...

        # -- bot_moves.py (``BotMoves``) --------------------------------------------------------
        def _schedule_bots(self) -> None: ...
        async def _choose(self, seat_no: int, level: str = "") -> Action: ...

        # -- remote.py (``Remote``) -------------------------------------------------------------
        async def _catch_up(self) -> None: ...

        # -- runtime.py (``TableRuntime``, which puts the parts together) -----------------------
        async def _commit(
            self, events: list[dict[str, Any]], seats_changed: bool = False
        ) -> None: ...
        def _restore(self, state: dict[str, Any]) -> None: ...

    def _remember(self, version: int, events_json: bytes) -> None:
        """A version's events, encoded, into the catch-up list, copied to their own length:
        the list keeps a table's last 200 versions (``connection.to_keep``)."""
        self.recent.append((version, to_keep(events_json)))
