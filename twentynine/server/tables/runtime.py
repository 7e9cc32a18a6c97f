"""A live table: one ordered queue of commands, the game, and the connections watching it.

Every change — an action, a seat taken, a reset, a chat line — is a command on the table's queue,
handled one at a time: checked (who may do this?), applied by the engine, stored (compare-and-set
on the version), then sent to every connection as that connection's own view. Bots act through
the same queue with the same views as people.

``TableRuntime`` is put together from parts, one module each:

- ``queue``: the ordered queue of commands (``submit``, ``post``);
- ``deals``: a person's action, the deals one after another, resets;
- ``seats``: the seats and the commands that take, leave and fill them;
- ``presence``: connections coming and going, the stand-in bot for an absent person;
- ``clock``: the turn clock, and the stand-in's move when it runs out;
- ``bot_moves``: bots moving through the queue with their seat's view;
- ``timers``: tasks that wait, then queue a command;
- ``broadcast``: each connection's own message (``connection``: a socket's outbox);
- ``remote``: other processes' versions, the lease holder's duties;
- ``again``: a new game once one is over (``history``: the deal so far, told again).

This module holds the table's identity (``TableInfo``), its stored snapshot and the commit
every change ends with, and the few commands of the table as a whole.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import deque
from dataclasses import dataclass
from typing import Any

from ...bots import Bot
from ...engine.actions import action_from_json
from ...engine.cards import codes, parse_card
from ...engine.game import GameState, resume
from ...engine.records import RulesSpec
from ...engine.rules import Rules
from ...engine.shuffle import secure_rng
from ..ratings import hooks as ratings_hooks
from ..safety.hooks import chat_audience
from ..settings import Settings
from .again import PlayAgain
from .bot_moves import BotMoves
from .broadcast import Broadcast, chat_json, game_event_json
from .clock import TurnClock
from .connection import OUTBOX_LIMIT, Connection, encoded
from .deals import RESETS, DealFlow
from .errors import MATCH_CLOSES_ITSELF, TableError
from .fanout import Fanout, LocalFanout
from .notices import TableNotices
from .presence import Presence
from .queue import CommandQueue, Commands
from .remote import Remote
from .seats import STANDIN_LEVEL, Seat, SeatCommands, seat_name
from .store import TableStore
from .timers import Timers

__all__ = [
    "OUTBOX_LIMIT",
    "RESETS",
    "STANDIN_LEVEL",
    "Connection",
    "Seat",
    "TableError",
    "TableInfo",
    "TableRuntime",
    "chat_json",
    "game_event_json",
    "seat_name",
]


@dataclass
class TableInfo:
    id: str
    kind: str
    host_id: int | None
    rules_spec: RulesSpec
    name: str = ""
    conference_url: str = ""
    spectators_see: str = "host_hand"
    takeover_seconds: int = 60
    invite_code: str | None = None
    turn_seconds: int = 0  # the turn clock (tables/clock.py); 0: none
    rated: bool = False


class TableRuntime(
    CommandQueue,
    DealFlow,
    SeatCommands,
    Presence,
    TurnClock,
    BotMoves,
    Timers,
    Broadcast,
    Remote,
    PlayAgain,
):
    def __init__(
        self,
        info: TableInfo,
        seats: list[Seat],
        store: TableStore,
        settings: Settings,
        version: int = 0,
        status: str = "waiting",
        state: dict[str, Any] | None = None,
        rng: random.Random | None = None,
        fanout: Fanout | None = None,
    ) -> None:
        self.info = info
        self.fanout: Fanout = fanout or LocalFanout()
        #: this process runs the table's bots and timers (always, without Redis)
        self.leader = isinstance(self.fanout, LocalFanout)
        self.rules: Rules = info.rules_spec.rules
        self.seats = seats
        self.store = store
        self.settings = settings
        self.version = version
        self.status = status
        self.rng = rng or secure_rng()
        self.game: GameState | None = None
        self.totals: dict[str, Any] | None = None  # the game's totals when this deal began
        self.actions: list[dict[str, Any]] = []
        self.game_no = 1
        self.deck_reset = False
        self.paused_away = False
        self.elsewhere = {}
        #: the events of the latest versions, for clients catching up; kept encoded (bytes are
        #: no work for the garbage collector, and 200 versions of 1000 tables are many dicts)
        self.recent: deque[tuple[int, bytes]] = deque(maxlen=200)
        self.conns: set[Connection] = set()
        self.inbox = Commands()
        self.worker: asyncio.Task[None] | None = None
        self.timers: dict[str, asyncio.Task[None]] = {}
        self.bots: dict[int, Bot] = {}
        #: the newest version whose events this process's connections were sent
        self.sent = version
        #: events of other processes' versions not sent here yet, as they arrive (by version)
        self.arrived: dict[int, list[dict[str, Any]]] = {}
        self.arrival = asyncio.Event()
        self.notices: TableNotices | None = None
        self.told: tuple[int, list[dict[str, Any]]] | None = None
        self._init_clock()
        if state:
            self._restore(state)

    # -- life ---------------------------------------------------------------------------------
    def start(self) -> None:
        if self.worker is None:
            self.worker = asyncio.create_task(self._work(), name=f"table-{self.info.id}")
            self._schedule_bots()

    async def stop(self) -> None:
        for task in list(self.timers.values()):
            task.cancel()
        self._stop_clock()
        if self.worker:
            self.worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.worker
        for conn in list(self.conns):
            await self._close(conn)

    # -- state and persistence --------------------------------------------------------------
    def _restore(self, state: dict[str, Any]) -> None:
        self.totals = state.get("totals")
        self.game_no = int(state.get("game_no", 1))
        self.deck_reset = bool(state.get("deck_reset", False))
        self.paused_away = bool(state.get("paused_away", False))
        self.actions = list(state.get("actions", []))
        causes = state.get("standin_causes") or {}
        for seat_no, level in (state.get("standins") or {}).items():
            self.seats[int(seat_no)].standin = level
            self.seats[int(seat_no)].standin_cause = causes.get(seat_no, "away")
        for seat_no, at in (state.get("takeover_at") or {}).items():
            self.seats[int(seat_no)].takeover_at = at
        deck = [parse_card(c) for c in state["deck"]]
        actions = [action_from_json(a) for a in self.actions]
        self.game = resume(self.rules, int(state["dealer"]), deck, actions, self.totals)
        self._restore_clock(state)

    def snapshot(self) -> dict[str, Any] | None:
        if self.game is None:
            return None
        rnd = self.game.round
        return {
            "totals": self.totals,
            "dealer": rnd.dealer,
            "deck": codes(rnd.deck),
            "actions": self.actions,
            "game_no": self.game_no,
            "deck_reset": self.deck_reset,
            "paused_away": self.paused_away,
            "standins": {str(i): s.standin for i, s in enumerate(self.seats) if s.standin},
            "standin_causes": {
                str(i): s.standin_cause for i, s in enumerate(self.seats) if s.standin
            },
            "takeover_at": {
                str(i): s.takeover_at for i, s in enumerate(self.seats) if s.takeover_at
            },
            **self._clock_snapshot(),
        }

    def _seat_rows(self) -> list[tuple[int, int | None, str, bool]]:
        return [(i, s.user_id, s.bot, s.joined) for i, s in enumerate(self.seats)]

    async def _commit(self, events: list[dict[str, Any]], seats_changed: bool = False) -> None:
        """Store the new snapshot (compare-and-set on the version), then tell everyone."""
        new_version = self.version + 1
        self.wind_clock()
        await self.store.save(  # raises StaleVersion if another process got there first
            self.info.id,
            self.version,
            new_version,
            self.snapshot(),
            self.status,
            self._seat_rows() if seats_changed else None,
        )
        self.version = new_version
        self.sent = new_version
        events_json = encoded(events)  # once: for the catch-up list and every message
        self._remember(new_version, events_json)
        self._broadcast(events, events_json=events_json)
        if self.notices is not None:  # pages away from the table (tables/notices.py)
            self.notices.committed(self, events)
        await self.fanout.publish(
            self.info.id, {"type": "state", "version": new_version, "events": events}
        )
        self._schedule_bots()
        self._arm_clock()

    # -- the table as a whole -----------------------------------------------------------------
    async def toggle(self, conn: Connection, seat: int) -> None:
        async def command() -> None:
            if not conn.spectator:
                raise TableError("not_spectator", "only spectators toggle hands")
            if self.info.spectators_see == "none":
                raise TableError("no_hands", "the host chose that spectators see no hands")
            if not isinstance(seat, int) or not 0 <= seat <= 3:
                raise TableError("bad_seat", "seats are 0-3")
            conn.toggled ^= {seat}
            self.push(conn, self.message_for(conn, [{"type": "toggled", "seat": seat}]))

        await self.submit(command)

    async def chat(self, conn: Connection, text: str) -> None:
        async def command() -> None:
            line = text.strip()
            if not line:
                raise TableError("empty", "say something")
            if len(line) > self.settings.chat_max_length:
                raise TableError(
                    "too_long", f"chat lines are at most {self.settings.chat_max_length} characters"
                )
            # the name they have now: one who took a new name since their socket opened, a
            # viewer as much as a player, on whichever process, speaks under it
            if conn.user_id is not None:
                names = await self.store.names([conn.user_id])
                conn.name = names.get(conn.user_id, conn.name)
            row = await self.store.add_chat(
                self.info.id, conn.user_id, conn.name, conn.spectator, line
            )
            msg = {"type": "chat", "line": chat_json(row)}
            for c in await chat_audience(self.store.maker, conn.user_id, self.conns):
                self.push(c, msg)
            await self.fanout.publish(self.info.id, {"type": "chat", "payload": msg})

        await self.submit(command)

    async def pause(self, user_id: int | None, paused: bool) -> None:
        async def command() -> None:
            humans = self.humans()
            if user_id is None or humans != [user_id]:
                raise TableError("not_alone", "only the one person at a table of bots can pause")
            if paused and self.status != "playing":
                raise TableError("not_playing", "the table is not playing")
            if not paused and self.status != "paused":
                raise TableError("not_paused", "the table is not paused")
            self.status = "paused" if paused else "playing"
            self.paused_away = False
            await self._commit([{"type": "paused" if paused else "resumed"}])
            game = self.game
            if not paused and game is not None and game.round.is_over and self.leader:
                self._start_timer("next-deal", self.settings.next_deal_seconds, self._next_deal)

        await self.submit(command)

    async def relink(self) -> None:
        """Take the video-call link stored with the table (a tournament's organiser set the
        match's own) and tell everyone at it, here and, through the new version, on every
        other process (``Remote.reload`` reads the link again)."""

        async def command() -> None:
            loaded = await self.store.load(self.info.id)
            if loaded is None or loaded[0].conference_url == self.info.conference_url:
                return
            self.info.conference_url = loaded[0].conference_url
            if self.status != "closed":
                await self._commit([{"type": "conference"}])

        await self.submit(command)

    async def close_if_abandoned(self) -> bool:
        """On the table's queue: close it if it still waits for players and no page here
        shows it (``TableManager.close_abandoned`` found it quiet and shown nowhere)."""
        if self.status != "waiting" or self.conns:
            return False
        await self._close_now({"type": "closed", "reason": "abandoned"})
        return True

    async def _close_now(self, event: dict[str, Any]) -> None:
        """On the table's queue: closed for good (its timers stopped), and everyone told."""
        self.status = "closed"
        for task in list(self.timers.values()):
            task.cancel()
        self.timers.clear()
        await self._commit([event])

    async def close(self, user_id: int | None, force: bool = False) -> None:
        async def command() -> None:
            if not force and (user_id is None or user_id != self.info.host_id):
                raise TableError("not_host", "only the host can close the table")
            if not force and self.info.kind == "tournament":  # the tournament closes it
                raise TableError("tournament", MATCH_CLOSES_ITSELF)
            if not force and ratings_hooks.in_play(self):
                raise TableError(
                    "rated", "a rated game in play cannot be closed; leave it (a loss)"
                )
            await self._close_now({"type": "closed"})

        await self.submit(command)
