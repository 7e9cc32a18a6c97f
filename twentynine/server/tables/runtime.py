"""A live table: one ordered queue of commands, the game, and the connections watching it.

Every change — an action, a seat taken, a reset, a chat line — is a command on the table's queue,
handled one at a time: checked (who may do this?), applied by the engine, stored (compare-and-set
on the version), then sent to every connection as that connection's own view. Bots act through
the same queue with the same views as people.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import random
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from ...bots import Bot, make_bot
from ...engine import IllegalAction, NotationError, event_json
from ...engine.actions import action_from_json
from ...engine.cards import card_code, parse_card
from ...engine.events import Event
from ...engine.game import (
    GameOver,
    GameState,
    ScoreChanged,
    apply,
    new_game,
    next_round,
    reset_scores,
    restart_round,
    resume,
    totals_json,
)
from ...engine.records import DealRecord, RulesSpec
from ...engine.round import to_act
from ...engine.rules import Rules
from ...engine.shuffle import next_deck, secure_rng, uniform_deck
from ...engine.views import View, seat_private_json, shared_json, spectator_view, view
from ..settings import Settings
from .fanout import Fanout, LocalFanout
from .store import StaleVersion, TableStore

log = logging.getLogger("twentynine.tables")

RESETS = ("score", "round", "deck", "all")


def _standin_level() -> str:
    """The level of the bot that plays for an absent person: quick and sound."""
    from ...bots import LEVELS

    for level in ("intermediate", "beginner", "random"):
        if level in LEVELS:
            return level
    raise RuntimeError("no bot levels")


STANDIN_LEVEL = _standin_level()


class TableError(Exception):
    """A refused command: ``reason`` is a short code, the message is for people."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


@dataclass
class Seat:
    user_id: int | None = None
    name: str = ""
    bot: str = ""  # level or URL of a bot sitting here; "" for a person (or an empty seat)
    joined: bool = False
    standin: str = ""  # a bot playing for an absent person
    connections: int = 0
    away_since: float | None = None  # monotonic time the person left
    takeover_at: float | None = None  # wall-clock time the stand-in bot takes over

    @property
    def is_bot(self) -> bool:
        return bool(self.bot)

    @property
    def empty(self) -> bool:
        return not self.bot and self.user_id is None

    @property
    def controller(self) -> str:
        """The bot that acts for this seat now, or "" when a person does."""
        return self.bot or self.standin


def seat_name(user_id: int | None, bot: str, names: dict[int, str]) -> str:
    if bot:
        return "Bot" if bot.startswith(("http://", "https://")) else bot.capitalize()
    return names.get(user_id or 0, "")


#: messages a connection may have waiting; a client that falls further behind is dropped
#: (it reconnects and gets a fresh snapshot)
OUTBOX_LIMIT = 256


@dataclass(eq=False, slots=True)
class Connection:
    """One WebSocket: who it is, what it sees, and what waits to be sent to it.

    Messages wait in ``outbox`` and go out in order: at once through ``send_now`` when the
    socket has one (a plain function that writes the frame, or answers False when it cannot
    now), else from a sending task that runs only while there is something to send (an idle
    connection holds no task). ``None`` in the outbox closes the socket (code 4000: reconnect
    for a fresh snapshot). Nothing is sent before ``open`` is called (the first message, the
    snapshot, goes out before anything queued). Thousands sit idle at once, so the fields are
    small: slots, and lists rather than deques (an empty deque holds a 64-slot block)."""

    user_id: int | None
    name: str
    seat: int | None  # the seat it plays, or None for a spectator
    send: Callable[[dict[str, Any]], Awaitable[None]]
    close_socket: Callable[[], Awaitable[None]] | None = None
    send_now: Callable[[dict[str, Any]], bool] | None = None
    toggled: frozenset[int] = frozenset()
    outbox: list[dict[str, Any] | None] = field(default_factory=list)
    #: when its latest messages came (monotonic seconds), for the socket's rate limit
    last_messages: list[float] = field(default_factory=list)
    closed: bool = False
    opened: bool = False
    sending: asyncio.Task[None] | None = None

    @property
    def spectator(self) -> bool:
        return self.seat is None

    def open(self) -> None:
        self.opened = True
        self.kick()

    def kick(self) -> None:
        if not self.opened or not self.outbox:
            return
        if self.sending is not None and not self.sending.done():
            return  # the sending task takes what was added
        outbox, send_now = self.outbox, self.send_now
        if send_now is not None:
            try:
                while outbox and outbox[0] is not None and send_now(outbox[0]):
                    del outbox[0]
            except Exception:
                self._gone()
                return
        if outbox:
            self.sending = asyncio.create_task(self._drain())

    async def _drain(self) -> None:
        try:
            while self.outbox:
                message = self.outbox.pop(0)  # a short list: most often one message
                if message is None:
                    self.outbox.clear()
                    if self.close_socket is not None:
                        await self.close_socket()
                    return
                await self.send(message)
        except Exception:
            self._gone()

    def _gone(self) -> None:
        """A write failed: the socket went away (its reader ends the connection)."""
        self.closed = True
        self.outbox.clear()

    async def stop(self) -> None:
        """The socket ended: stop sending."""
        self.closed = True
        self.outbox.clear()
        task = self.sending
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


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


class TableRuntime:
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
        #: the events of the latest versions, for clients catching up; kept encoded (bytes are
        #: no work for the garbage collector, and 200 versions of 1000 tables are many dicts)
        self.recent: deque[tuple[int, bytes]] = deque(maxlen=200)
        self.conns: set[Connection] = set()
        self.inbox: asyncio.Queue[tuple[Callable[[], Awaitable[Any]], asyncio.Future[Any]]] = (
            asyncio.Queue()
        )
        self.worker: asyncio.Task[None] | None = None
        self.timers: dict[str, asyncio.Task[None]] = {}
        self.bots: dict[int, Bot] = {}
        #: the newest version whose events this process's connections were sent
        self.sent = version
        #: events of other processes' versions not sent here yet, as they arrive (by version)
        self.arrived: dict[int, list[dict[str, Any]]] = {}
        self.arrival = asyncio.Event()
        if state:
            self._restore(state)

    # -- the queue ---------------------------------------------------------------------------
    def start(self) -> None:
        if self.worker is None:
            self.worker = asyncio.create_task(self._work(), name=f"table-{self.info.id}")
            self._schedule_bots()

    async def stop(self) -> None:
        for task in list(self.timers.values()):
            task.cancel()
        if self.worker:
            self.worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.worker
        for conn in list(self.conns):
            await self._close(conn)

    async def submit(self, command: Callable[[], Awaitable[Any]]) -> Any:
        """Run ``command`` in the table's order and return its result (or raise its error)."""
        return await self.post(command)

    def post(self, command: Callable[[], Awaitable[Any]]) -> asyncio.Future[Any]:
        """Queue ``command`` in the table's order; the future of its result. Nobody need wait
        for it: a failure nobody reads is logged by the queue's worker."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        future.add_done_callback(lambda f: f.cancelled() or f.exception())
        self.inbox.put_nowait((command, future))
        return future

    async def _work(self) -> None:
        while True:
            command, future = await self.inbox.get()
            try:
                try:
                    result = await command()
                except StaleVersion:
                    # another process stored a change first: catch up, then try once more
                    await self._catch_up()
                    result = await command()
            except StaleVersion:
                await self._catch_up()
                if not future.done():
                    future.set_exception(TableError("stale", "the table changed; try again"))
            except Exception as e:
                if not future.done():
                    future.set_exception(e)
                if not isinstance(e, TableError | IllegalAction | NotationError):
                    log.exception("table %s: command failed", self.info.id)
            else:
                if not future.done():
                    future.set_result(result)

    # -- state and persistence --------------------------------------------------------------
    def _restore(self, state: dict[str, Any]) -> None:
        self.totals = state.get("totals")
        self.game_no = int(state.get("game_no", 1))
        self.deck_reset = bool(state.get("deck_reset", False))
        self.actions = list(state.get("actions", []))
        for seat_no, level in (state.get("standins") or {}).items():
            self.seats[int(seat_no)].standin = level
        for seat_no, at in (state.get("takeover_at") or {}).items():
            self.seats[int(seat_no)].takeover_at = at
        deck = [parse_card(c) for c in state["deck"]]
        actions = [action_from_json(a) for a in self.actions]
        self.game = resume(self.rules, int(state["dealer"]), deck, actions, self.totals)

    def snapshot(self) -> dict[str, Any] | None:
        if self.game is None:
            return None
        rnd = self.game.round
        return {
            "totals": self.totals,
            "dealer": rnd.dealer,
            "deck": [card_code(c) for c in rnd.deck],
            "actions": self.actions,
            "game_no": self.game_no,
            "deck_reset": self.deck_reset,
            "standins": {str(i): s.standin for i, s in enumerate(self.seats) if s.standin},
            "takeover_at": {
                str(i): s.takeover_at for i, s in enumerate(self.seats) if s.takeover_at
            },
        }

    def _seat_rows(self) -> list[tuple[int, int | None, str, bool]]:
        return [(i, s.user_id, s.bot, s.joined) for i, s in enumerate(self.seats)]

    async def _commit(self, events: list[dict[str, Any]], seats_changed: bool = False) -> None:
        """Store the new snapshot (compare-and-set on the version), then tell everyone."""
        new_version = self.version + 1
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
        self.recent.append((new_version, orjson.dumps(events)))
        self._broadcast(events)
        await self.fanout.publish(
            self.info.id, {"type": "state", "version": new_version, "events": events}
        )
        self._schedule_bots()

    # -- other processes ------------------------------------------------------------------
    async def reload(self) -> None:
        """Take the stored table as the truth (after another process changed it)."""
        loaded = await self.store.load(self.info.id)
        if loaded is None:
            return
        row, seat_rows = loaded
        names = await self.store.names([s.user_id for s in seat_rows if s.user_id])
        for s in seat_rows:
            seat = self.seats[s.seat]
            if (seat.user_id, seat.bot) != (s.user_id, s.bot):
                self.bots.pop(s.seat, None)
            seat.user_id, seat.bot, seat.joined = s.user_id, s.bot, s.joined
            seat.standin = ""
            seat.takeover_at = None
            seat.name = seat_name(s.user_id, s.bot, names)
        self.version = row.version
        self.status = row.status
        self.game = None
        if row.state:
            self._restore(row.state)

    async def _catch_up(self) -> None:
        """Take the stored table as the truth and tell this process's connections the versions
        it brings. (A reload alone would leave them untold: the next change made here moves
        ``sent`` past them.)"""
        await self.reload()
        await self._tell_missed(self.version)

    async def on_remote(self, message: dict[str, Any]) -> None:
        """A change another process stored, or a chat line it received. Queued, not waited
        for: the fanout's reader goes straight on to the next message (a command may be
        waiting for exactly that message, see ``_tell_missed``)."""

        if message.get("type") != "chat":
            version = int(message.get("version", 0))
            if version > self.sent:  # kept until sent (a version may arrive before the one
                self.arrived[version] = list(message.get("events", []))  # before it)
                self.arrival.set()

        async def command() -> None:
            if message.get("type") == "chat":
                for c in list(self.conns):
                    self.push(c, message["payload"])
                return
            version = int(message.get("version", 0))
            if version <= self.sent:
                return  # this process told its connections of that version already
            if version > self.version:
                await self.reload()
            await self._tell_missed(version)
            self._schedule_bots()
            game = self.game
            if (  # another process ended the deal: the table's leader deals the next one
                self.leader
                and game is not None
                and game.round.is_over
                and self.status == "playing"
                and "next-deal" not in self.timers
            ):
                self._start_timer("next-deal", self.settings.next_deal_seconds, self._next_deal)
            if self.leader and self.status == "playing":  # someone left on another process
                for i, seat in enumerate(self.seats):
                    key = f"takeover-{i}"
                    if seat.takeover_at and not seat.standin and key not in self.timers:
                        wait = max(0.0, seat.takeover_at - time.time())
                        self._start_timer(key, wait, self._takeover(i))

        self.post(command)

    #: how long to wait for another process's versions to arrive before sending a snapshot
    MISSED_WAIT = 2.0

    async def _tell_missed(self, upto: int) -> None:
        """Send this process's connections the versions after ``sent`` up to ``upto`` that
        other processes made, in order and in one message: their events as they arrive over
        the fanout (a version can be stored here before its message comes, or after a later
        one's). A version that has not come within ``MISSED_WAIT`` seconds is replaced by a
        fresh snapshot, so that nobody is left with a gap."""
        if upto <= self.sent:
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.MISSED_WAIT
        while not all(v in self.arrived for v in range(self.sent + 1, upto + 1)):
            left = deadline - loop.time()
            if left <= 0:
                break
            self.arrival.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.arrival.wait(), left)
        events: list[dict[str, Any]] = []
        complete = True
        for v in range(self.sent + 1, upto + 1):
            got = self.arrived.get(v)
            if got is None:
                complete = False
                continue
            events += got
            self.recent.append((v, orjson.dumps(got)))
        for v in [v for v in self.arrived if v <= upto]:
            del self.arrived[v]
        if not complete:
            log.warning(
                "table %s: versions %d-%d did not all come over the fanout within %.1f s; "
                "sending a snapshot instead of their events",
                self.info.id, self.sent + 1, upto, self.MISSED_WAIT,
            )  # fmt: skip
        self.sent = upto
        self._broadcast(events, snapshot=not complete)

    async def refresh_lead(self) -> None:
        """Keep (or take) the lease; a process that just took it picks up the table's duties."""
        was = self.leader
        self.leader = await self.fanout.lead(self.info.id)
        if self.leader and not was:
            await self.submit(self.resume_duties)

    async def resume_duties(self) -> None:
        """Start what a leader runs: bots, the next deal, takeovers of absent players."""
        await self._catch_up()
        game = self.game
        if game is not None and game.round.is_over and self.status == "playing":
            self._start_timer("next-deal", self.settings.next_deal_seconds, self._next_deal)
        if self.status == "playing":
            for i, seat in enumerate(self.seats):
                absent = seat.user_id is not None and not seat.bot and not seat.standin
                if absent and not await self._seat_connected(i):
                    if seat.takeover_at is None:
                        seat.takeover_at = time.time() + self.info.takeover_seconds
                    wait = max(0.0, seat.takeover_at - time.time())
                    self._start_timer(f"takeover-{i}", wait, self._takeover(i))
        self._schedule_bots()

    async def _seat_connected(self, seat_no: int) -> bool:
        anywhere = await self.fanout.connected(self.info.id, seat_no)
        return self.seats[seat_no].connections > 0 if anywhere is None else anywhere

    # -- views and messages -------------------------------------------------------------------
    def viewer_seats(self, conn: Connection) -> frozenset[int]:
        """The seats whose hands a spectator connection sees."""
        if self.info.spectators_see == "none":
            return frozenset()
        seen = set(conn.toggled)
        host_seat = self.seat_of(self.info.host_id)
        if host_seat is not None:
            seen.add(host_seat)
        return frozenset(seen)

    def view_for(self, conn: Connection) -> View | None:
        if self.game is None:
            return None
        rnd = self.game.round
        if conn.seat is not None:
            return view(rnd, conn.seat)
        return spectator_view(rnd, self.viewer_seats(conn))

    def seat_of(self, user_id: int | None) -> int | None:
        if user_id is None:
            return None
        for i, s in enumerate(self.seats):
            if s.user_id == user_id and not s.bot:
                return i
        return None

    def table_json(self, conn: Connection | None = None) -> dict[str, Any]:
        game = self.game
        out: dict[str, Any] = {
            "id": self.info.id,
            "kind": self.info.kind,
            "name": self.info.name,
            "host_id": self.info.host_id,
            "status": self.status,
            "rules": self.info.rules_spec.to_json(),
            "direction": self.rules.direction,
            "conference_url": self.info.conference_url,
            "spectators_see": self.info.spectators_see,
            "takeover_seconds": self.info.takeover_seconds,
            "version": self.version,
            "seats": [
                {
                    "seat": i,
                    "name": s.name,
                    "user_id": s.user_id,
                    "bot": s.bot if not s.bot.startswith("http") else "external",
                    "standin": bool(s.standin),
                    "joined": s.joined or s.is_bot,
                    "connected": s.connections > 0 or s.is_bot,
                    "takeover_at": s.takeover_at,
                }
                for i, s in enumerate(self.seats)
            ],
            "game": None
            if game is None
            else {
                "scores": list(game.scores),
                "red_sets": list(game.red_sets),
                "black_sets": list(game.black_sets),
                "deals": game.deals,
                "rounds_played": game.rounds_played,
                "rounds_won": list(game.rounds_won),
                "over": game.over,
                "winner": game.winner,
                "game_no": self.game_no,
            },
        }
        if conn is not None:
            out["you"] = self._you(conn)
        return out

    def _you(self, conn: Connection) -> dict[str, Any]:
        return {
            "user_id": conn.user_id,
            "seat": conn.seat,
            "spectator": conn.spectator,
            "host": conn.user_id is not None and conn.user_id == self.info.host_id,
            "sees": sorted(self.viewer_seats(conn)) if conn.spectator else [conn.seat],
            "can_toggle": conn.spectator and self.info.spectators_see != "none",
        }

    def message_for(
        self,
        conn: Connection,
        events: list[dict[str, Any]],
        snapshot: bool = False,
        table: dict[str, Any] | None = None,
        view_json: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """A state message for ``conn``; a broadcast passes the table (without "you") and the
        view it built once for all who see the same."""
        if view_json is None:
            v = self.view_for(conn)
            view_json = None if v is None else v.to_json()
        return {
            "type": "state",
            "version": self.version,
            "snapshot": snapshot,
            "events": events,
            "table": self.table_json(conn) if table is None else {**table, "you": self._you(conn)},
            "view": view_json,
        }

    def _broadcast(self, events: list[dict[str, Any]], snapshot: bool = False) -> None:
        """Each connection's own message: the table and each distinct view built once."""
        table = self.table_json()
        views: dict[int | frozenset[int], dict[str, Any] | None] = {}
        public: dict[str, Any] | None = None  # the part of every view that is the same
        rnd = None if self.game is None else self.game.round
        for conn in list(self.conns):
            key = conn.seat if conn.seat is not None else self.viewer_seats(conn)
            if key not in views:
                if rnd is None:
                    views[key] = None
                else:
                    if public is None:
                        public = shared_json(rnd)
                    if isinstance(key, int):
                        private = seat_private_json(rnd, key)
                    else:
                        private = spectator_view(rnd, key).private_json()
                    views[key] = {**public, **private}
            self.push(
                conn,
                self.message_for(conn, events, snapshot, table=table, view_json=views[key]),
            )

    def push(self, conn: Connection, message: dict[str, Any]) -> None:
        if conn.closed:
            return
        if len(conn.outbox) >= OUTBOX_LIMIT:  # a client that cannot keep up reconnects
            log.warning("table %s: dropping a slow connection", self.info.id)
            conn.closed = True
            self.conns.discard(conn)
            conn.outbox.append(None)
        else:
            conn.outbox.append(message)
        conn.kick()

    def catch_up(self, conn: Connection, last_version: int | None) -> dict[str, Any]:
        """What a (re)connecting client missed since ``last_version``: the events in between
        when we still have them, else a fresh snapshot; always with its current view."""
        if last_version is not None and last_version <= self.version:
            missed = [orjson.loads(evs) for ver, evs in self.recent if ver > last_version]
            have_all = last_version == self.version or (
                self.recent and self.recent[0][0] <= last_version + 1
            )
            if have_all:
                return self.message_for(conn, [e for evs in missed for e in evs])
        return self.message_for(conn, [], snapshot=True)

    async def _close(self, conn: Connection) -> None:
        conn.closed = True
        conn.outbox.append(None)
        conn.kick()

    # -- connections --------------------------------------------------------------------------
    async def connect(self, conn: Connection, last_version: int | None) -> dict[str, Any]:
        async def command() -> dict[str, Any]:
            self.conns.add(conn)
            if conn.seat is not None:
                seat = self.seats[conn.seat]
                seat.connections += 1
                await self.fanout.presence(self.info.id, conn.seat, seat.connections)
                if seat.away_since is not None or seat.standin or seat.takeover_at:
                    seat.away_since = seat.takeover_at = None
                    self._cancel_timer(f"takeover-{conn.seat}")
                    if seat.standin:  # the player takes the seat back from the bot
                        seat.standin = ""
                        self.bots.pop(conn.seat, None)
                    await self._commit([{"type": "seat_back", "seat": conn.seat}])
            return self.catch_up(conn, last_version)

        result: dict[str, Any] = await self.submit(command)
        return result

    async def disconnect(self, conn: Connection) -> None:
        async def command() -> None:
            if conn not in self.conns:
                return
            self.conns.discard(conn)
            if conn.seat is None:
                return
            seat = self.seats[conn.seat]
            seat.connections = max(0, seat.connections - 1)
            await self.fanout.presence(self.info.id, conn.seat, seat.connections)
            if (
                seat.connections == 0
                and self.status == "playing"
                and not await self._seat_connected(conn.seat)
            ):
                seat.away_since = time.monotonic()
                wait = self.info.takeover_seconds
                seat.takeover_at = time.time() + wait
                if self.leader:
                    self._start_timer(f"takeover-{conn.seat}", wait, self._takeover(conn.seat))
                # stored, so that whichever process leads the table runs the takeover
                await self._commit([{"type": "seat_away", "seat": conn.seat, "seconds": wait}])

        await self.submit(command)
        await self._close(conn)

    def _takeover(self, seat_no: int) -> Callable[[], Awaitable[None]]:
        async def command() -> None:
            seat = self.seats[seat_no]
            if (
                self.status == "playing"
                and not seat.bot
                and not seat.standin
                and not await self._seat_connected(seat_no)
            ):
                seat.standin = STANDIN_LEVEL
                seat.takeover_at = None
                await self._commit([{"type": "bot_takeover", "seat": seat_no}])

        return command

    # -- timers -------------------------------------------------------------------------------
    def _start_timer(self, key: str, seconds: float, command: Callable[[], Awaitable[Any]]) -> None:
        self._cancel_timer(key)

        async def later() -> None:
            await asyncio.sleep(seconds)
            self.timers.pop(key, None)
            with contextlib.suppress(Exception):
                await self.submit(command)

        self.timers[key] = asyncio.create_task(later())

    def _cancel_timer(self, key: str) -> None:
        task = self.timers.pop(key, None)
        if task is not None:
            task.cancel()

    # -- commands -----------------------------------------------------------------------------
    async def act(self, conn: Connection, message: dict[str, Any]) -> None:
        """A person's action from a connection: only for the seat that connection plays."""

        async def command() -> None:
            if conn.seat is None:
                raise TableError("spectator", "spectators cannot play")
            seat = self.seats[conn.seat]
            if seat.user_id != conn.user_id or seat.bot:
                raise TableError("not_your_seat", "this is not your seat")
            claimed = message.get("seat", conn.seat)
            if claimed != conn.seat:
                raise TableError("forged_seat", f"you play seat {conn.seat}, not {claimed!r}")
            body = {k: v for k, v in message.items() if k not in ("type", "seat", "version")}
            expected = message.get("version")
            if expected is not None and expected != self.version:
                raise TableError("stale", f"the table is at version {self.version}")
            await self._apply(action_from_json(body, conn.seat))

        await self.submit(command)

    async def _apply(self, action: Any) -> None:
        if self.status != "playing" or self.game is None:
            raise TableError("not_playing", f"the table is {self.status}, not playing")
        self.game, events = apply(self.game, action)
        self.actions.append(action.to_json())
        out = [game_event_json(e) for e in events]
        await self._commit(out)
        if self.game.round.is_over:
            await self._deal_finished()

    async def _deal_finished(self) -> None:
        game = self.game
        assert game is not None
        rnd = game.round
        record = DealRecord(self.info.rules_spec, rnd.dealer, rnd.deck, ()).to_json()
        record["actions"] = self.actions
        team = None
        if rnd.outcome != "invalid":
            team = (rnd.caller if rnd.caller >= 0 else rnd.bidder) & 1
        await self.store.add_deal(
            self.info.id,
            self.game_no,
            game.deals,
            record,
            rnd.outcome,
            team,
            rnd.contract if rnd.bidder >= 0 else "",
            list(rnd.score_delta),
            [None if s.bot else s.user_id for s in self.seats],
            game.over and not bool(self.totals and self.totals.get("over")),
            game.winner,
            self._sets_won(),
        )
        if self.leader:
            self._start_timer("next-deal", self.settings.next_deal_seconds, self._next_deal)

    def _sets_won(self) -> list[int]:
        """Sets each team won in the deal just finished (its Red sets, the other's Black)."""
        game = self.game
        assert game is not None
        before = self.totals or {"red_sets": [0, 0], "black_sets": [0, 0]}
        red = [game.red_sets[t] - before["red_sets"][t] for t in (0, 1)]
        black = [game.black_sets[t] - before["black_sets"][t] for t in (0, 1)]
        return [red[0] + black[1], red[1] + black[0]]

    async def _next_deal(self) -> None:
        game = self.game
        if game is None or not game.round.is_over or self.status != "playing":
            return  # a paused table deals again when it resumes
        if self.deck_reset:
            deck = uniform_deck(self.rng)
            self.deck_reset = False
        else:
            deck = next_deck(game.round, self.rules.shuffle, self.rng)
        self.game, events = next_round(game, deck)
        self.totals = totals_json(self.game)
        self.actions = []
        out = [game_event_json(e) for e in events]
        await self._commit([{"type": "new_deal", "dealer": self.game.dealer}, *out])
        if self.game.round.is_over:  # an invalid deal (no points with the first hand …)
            await self._deal_finished()

    async def start_game(self) -> None:
        """Deal the first deal (all four seats are taken)."""
        dealer = self.rng.randrange(4)
        self.game, events = new_game(self.rules, dealer, uniform_deck(self.rng))
        self.totals = totals_json(self.game)
        self.actions = []
        self.status = "playing"
        await self._commit(
            [{"type": "game_started", "dealer": dealer}] + [game_event_json(e) for e in events],
            seats_changed=True,
        )
        if self.game.round.is_over:
            await self._deal_finished()

    async def reset(self, conn_user: int | None, what: str) -> None:
        async def command() -> None:
            if conn_user is None or conn_user != self.info.host_id:
                raise TableError("not_host", "only the host can reset")
            if what not in RESETS:
                raise TableError("bad_reset", f"reset one of: {', '.join(RESETS)}")
            if self.game is None:
                raise TableError("not_playing", "the game has not started")
            self._cancel_timer("next-deal")
            events: list[dict[str, Any]] = [{"type": "reset", "what": what}]
            if what in ("score", "all"):
                self.game = reset_scores(self.game)
                self.totals = totals_json(self.game)
            if what in ("deck", "all"):
                self.deck_reset = True
            if what in ("round", "all"):
                if self.deck_reset:
                    deck = uniform_deck(self.rng)
                    self.deck_reset = False
                else:
                    deck = next_deck(self.game.round, self.rules.shuffle, self.rng)
                self.game, evs = restart_round(self.game, deck)
                self.totals = totals_json(self.game)
                self.actions = []
                events += [game_event_json(e) for e in evs]
            await self._commit(events)
            if self.game.round.is_over:
                if what in ("round", "all"):  # the new deal ended at once (invalid): store it
                    await self._deal_finished()
                elif self.leader:  # a reset between deals: deal on
                    self._start_timer("next-deal", self.settings.next_deal_seconds, self._next_deal)

        await self.submit(command)

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
            row = await self.store.add_chat(
                self.info.id, conn.user_id, conn.name, conn.spectator, line
            )
            msg = {"type": "chat", "line": chat_json(row)}
            for c in list(self.conns):
                self.push(c, msg)
            await self.fanout.publish(self.info.id, {"type": "chat", "payload": msg})

        await self.submit(command)

    # -- seats ------------------------------------------------------------------------------
    async def join(self, user_id: int, name: str, wanted: int | None = None) -> int:
        """Take (or confirm) a seat; the game starts once every seat is taken and joined."""

        async def command() -> int:
            if self.status == "closed":
                raise TableError("closed", "the table is closed")
            seat_no = self.seat_of(user_id)
            if seat_no is None:
                if self.info.kind in ("hosted", "solo", "tournament"):
                    raise TableError("not_invited", "you have no seat at this table")
                seat_no = self._free_seat(wanted)
                seat = self.seats[seat_no]
                if seat.bot:
                    self.bots.pop(seat_no, None)
                seat.user_id, seat.name, seat.bot, seat.standin = user_id, name, "", ""
            self.seats[seat_no].joined = True
            if self.status == "waiting" and all(
                (s.bot or (s.user_id is not None and s.joined)) for s in self.seats
            ):
                await self.start_game()
            else:
                await self._commit([{"type": "seat_taken", "seat": seat_no}], seats_changed=True)
            return seat_no

        result: int = await self.submit(command)
        return result

    def _free_seat(self, wanted: int | None) -> int:
        order = [wanted] if wanted is not None else []
        order += [i for i, s in enumerate(self.seats) if s.empty]
        order += [i for i, s in enumerate(self.seats) if s.is_bot]
        for i in order:
            if i is not None and (self.seats[i].empty or self.seats[i].is_bot):
                return i
        raise TableError("full", "no open seat at this table")

    async def leave(self, user_id: int) -> None:
        async def command() -> None:
            seat_no = self.seat_of(user_id)
            if seat_no is None:
                raise TableError("not_seated", "you have no seat at this table")
            if self.info.kind in ("hosted", "tournament"):
                raise TableError("hosted", "a hosted game keeps its players; the host can close it")
            if self.status == "waiting":
                self.seats[seat_no] = Seat()
            else:  # a bot takes the seat for good (someone may take it over later)
                self.seats[seat_no] = Seat(name="Bot", bot=STANDIN_LEVEL, joined=True)
            self.bots.pop(seat_no, None)
            self._cancel_timer(f"takeover-{seat_no}")
            if not self.humans():
                self.status = "closed"
            await self._commit([{"type": "seat_left", "seat": seat_no}], seats_changed=True)

        await self.submit(command)

    async def fill_with_bots(self, user_id: int | None, level: str = STANDIN_LEVEL) -> None:
        async def command() -> None:
            if user_id is None or user_id != self.info.host_id:
                raise TableError("not_host", "only the table's host can seat bots")
            if self.info.kind in ("hosted", "tournament"):
                raise TableError("hosted", "a hosted game is played by the host's friends")
            for i, s in enumerate(self.seats):
                if s.empty:
                    self.seats[i] = Seat(name=level.capitalize(), bot=level, joined=True)
            if self.status == "waiting" and all(
                (s.bot or (s.user_id is not None and s.joined)) for s in self.seats
            ):
                await self.start_game()
            else:
                await self._commit([{"type": "bots_seated"}], seats_changed=True)

        await self.submit(command)

    def humans(self) -> list[int]:
        return [s.user_id for s in self.seats if s.user_id is not None and not s.bot]

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
            await self._commit([{"type": "paused" if paused else "resumed"}])
            game = self.game
            if not paused and game is not None and game.round.is_over and self.leader:
                self._start_timer("next-deal", self.settings.next_deal_seconds, self._next_deal)

        await self.submit(command)

    async def close(self, user_id: int | None, force: bool = False) -> None:
        async def command() -> None:
            if not force and (user_id is None or user_id != self.info.host_id):
                raise TableError("not_host", "only the host can close the table")
            self.status = "closed"
            for task in list(self.timers.values()):
                task.cancel()
            self.timers.clear()
            await self._commit([{"type": "closed"}])

        await self.submit(command)

    # -- bots ---------------------------------------------------------------------------------
    def bot_for(self, seat_no: int) -> Bot:
        bot = self.bots.get(seat_no)
        if bot is None:
            level = self.seats[seat_no].controller
            if level.startswith(("http://", "https://")):
                from ...bhoos.client import BhoosBot

                bot = BhoosBot(level)
            else:
                bot = make_bot(level, self.rng.randrange(2**31))
            self.bots[seat_no] = bot
        return bot

    def _schedule_bots(self) -> None:
        game = self.game
        if not self.leader or game is None or self.status != "playing" or game.round.is_over:
            return
        for seat_no in to_act(game.round):
            if self.seats[seat_no].controller and f"bot-{seat_no}" not in self.timers:
                self._start_timer(
                    f"bot-{seat_no}",
                    self.settings.bot_delay_ms / 1000,
                    self._bot_move(seat_no, self.version),
                )

    def _bot_move(self, seat_no: int, version: int) -> Callable[[], Awaitable[None]]:
        async def command() -> None:
            game = self.game
            if (
                game is None
                or self.status != "playing"
                or game.round.is_over
                or not self.seats[seat_no].controller
                or seat_no not in to_act(game.round)
            ):
                return
            if version != self.version:  # the table moved on; think again from here
                self._schedule_bots()
                return
            v = view(game.round, seat_no)
            bot = self.bot_for(seat_no)
            try:
                action = await asyncio.to_thread(bot.choose, v)
                if action not in v.legal:
                    raise ValueError(f"bot chose an illegal action {action}")
            except Exception:  # a failing bot (say, an external one) must not stall the table
                log.exception(
                    "table %s: bot in seat %d failed; a stand-in plays", self.info.id, seat_no
                )
                self.bots[seat_no] = make_bot(STANDIN_LEVEL, self.rng.randrange(2**31))
                action = self.bots[seat_no].choose(v)
            await self._apply(action)

        return command


def chat_json(row: Any) -> dict[str, Any]:
    at = row.created_at
    return {
        "id": row.id,
        "name": row.name,
        "user_id": row.user_id,
        "spectator": row.spectator,
        "text": row.text,
        "at": at.replace(tzinfo=dt.UTC).isoformat() if at else None,
    }


def game_event_json(e: Event | ScoreChanged | GameOver) -> dict[str, Any]:
    if isinstance(e, ScoreChanged):
        return {
            "type": "score",
            "scores": list(e.scores),
            "red_sets": list(e.red_sets),
            "black_sets": list(e.black_sets),
        }
    if isinstance(e, GameOver):
        return {"type": "game_over", "winner": e.winner}
    return event_json(e)
