"""The leak audit's machinery: what a receiver may know, worked out from the true game state by
the rules (never by the view code it checks), a recorder hooked into ``TableRuntime`` that checks
every message the moment it is produced, and socket clients that play random legal actions,
toggle hands and reconnect.

What a receiver may see at a moment (docs/rules.md, "Watching" and "Single Hand"):

- every card already played; the face-down trump card once trump is shown (the ``trump_shown``
  event names it); every dealt card once the round is over;
- a player: their own dealt cards (the bidder: also the face-down card), except that while the
  bidder decides the seventh-card Redouble they have seen only their first four cards and the
  seventh; a Single Hand caller also their partner's cards once their first card is down;
- a spectator: what the players whose hands they may see know (the host's seat and the seats they
  turned up, or nothing when the host chose that spectators see no hands);
- the trump suit: the bidder once it is fixed, everyone once it is shown or the round is over.

Events are sent to everyone as they are, so they must hold public knowledge only. A catch-up
message's events must be exactly the events broadcast for the versions it says it covers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
import pytest
import websockets

from twentynine.engine.cards import SUITS, parse_card
from twentynine.engine.state import Phase, RoundState, TrumpMode, partner
from twentynine.server.tables.runtime import Connection, TableRuntime

CARD = re.compile(r"(?<![0-9A-Za-z])[78QKTA9J][CDHS](?![0-9A-Za-z])")
#: fields people type or that are random tokens: never scanned for card codes
USER_TEXT = frozenset({"name", "text", "conference_url", "id", "invite_code", "at", "email"})
SUIT_LETTERS = frozenset(SUITS)
MAX_REPORTED = 50


# -- knowledge, from the rules ------------------------------------------------------------------
def _mask(cards: Any) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def played_mask(st: RoundState) -> int:
    return _mask(c for t in st.tricks for _, c in t.plays) | _mask(c for _, c in st.trick)


def played_by(st: RoundState, seat: int) -> int:
    plays = [p for t in st.tricks for p in t.plays] + list(st.trick)
    return _mask(c for s, c in plays if s == seat)


def batch(st: RoundState, seat: int, second: bool) -> int:
    """The packet of four dealt to ``seat``: packets go in turn order from the first hand."""
    k = (seat - st.first_hand) & 3
    start = 16 * second + 4 * k
    return _mask(st.deck[start : start + 4])


def seventh_card(st: RoundState, seat: int) -> int:
    """The third card of the seat's second packet."""
    return st.deck[16 + 4 * ((seat - st.first_hand) & 3) + 2]


def dealt(st: RoundState, seat: int) -> int:
    """Every card the seat was dealt and has looked at (the bidder's face-down card included)."""
    held = st.hands[seat] | played_by(st, seat)
    if seat == st.bidder and st.indicator >= 0:
        held |= 1 << st.indicator
    return held


def private(st: RoundState, seat: int) -> int:
    """The cards ``seat`` may see now besides the public ones."""
    if st.phase is Phase.SEVENTH_REDOUBLE and seat == st.bidder:
        return batch(st, seat, False) | 1 << seventh_card(st, seat)
    known = dealt(st, seat)
    if st.caller == seat and played_by(st, seat):
        known |= dealt(st, partner(seat))
    return known


def knows_trump(st: RoundState, seat: int) -> bool:
    return st.trump >= 0 and (st.trump_shown or seat == st.bidder or st.is_over)


@dataclass(frozen=True)
class Allowed:
    cards: int  # mask of the cards the receiver may see
    trump: bool  # may know the trump suit
    seats: frozenset[int]  # seats whose private knowledge it holds

    def card_ok(self, code: str) -> bool:
        return bool(self.cards >> parse_card(code) & 1)


def public(st: RoundState, hand_card: int | None) -> Allowed:
    cards = played_mask(st)
    if st.is_over:
        for s in range(4):
            cards |= dealt(st, s)
    if st.trump_shown:
        if st.trump_mode is TrumpMode.SEVENTH and st.bidder >= 0:
            cards |= 1 << seventh_card(st, st.bidder)
        elif st.trump_mode is TrumpMode.HAND_CARD and hand_card is not None:
            cards |= 1 << hand_card
    return Allowed(cards, st.trump >= 0 and (st.trump_shown or st.is_over), frozenset())


def allowed(st: RoundState, hand_card: int | None, sees: frozenset[int]) -> Allowed:
    base = public(st, hand_card)
    cards, trump = base.cards, base.trump
    for s in sees:
        cards |= private(st, s)
        trump = trump or knows_trump(st, s)
    return Allowed(cards, trump, sees)


def hand_card_of(actions: list[dict[str, Any]]) -> int | None:
    """The hand card the bidder laid face down as the trump marker, if any."""
    for a in actions:
        if a.get("act") == "trump" and "card" in a:
            return parse_card(str(a["card"]))
    return None


# -- scanning messages ------------------------------------------------------------------------
def card_codes(obj: Any, out: set[str] | None = None, key: str = "") -> set[str]:
    """Every card code anywhere in ``obj`` (people's text and random ids left out)."""
    found = set() if out is None else out
    if key in USER_TEXT:
        return found
    if isinstance(obj, str):
        found.update(CARD.findall(obj))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            card_codes(v, found, str(k))
    elif isinstance(obj, list | tuple):
        for v in obj:
            card_codes(v, found, key)
    return found


def suit_reveals(obj: Any, found: list[str] | None = None, key: str = "") -> list[str]:
    """Suits named under a ``trump`` or ``suit`` key (a seat's own trump choices in
    ``legal_json`` left out: they are offers, not reveals)."""
    out = [] if found is None else found
    if key == "legal_json":
        return out
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in ("trump", "suit") and isinstance(v, str) and v in SUIT_LETTERS:
                out.append(v)
            else:
                suit_reveals(v, out, str(k))
    elif isinstance(obj, list | tuple):
        for v in obj:
            suit_reveals(v, out, key)
    return out


def check_against(
    st: RoundState | None, part: Any, ok: Allowed, where: str, problems: list[str]
) -> None:
    codes = card_codes(part)
    if st is None:
        if codes:
            problems.append(f"{where}: cards {sorted(codes)} before any deal")
        return
    hidden = sorted(c for c in codes if not ok.card_ok(c))
    if hidden:
        problems.append(f"{where}: hidden cards {hidden} (may see {sorted(ok.seats)})")
    for suit in suit_reveals(part):
        if not ok.trump:
            problems.append(f"{where}: trump {suit} named to a receiver who may not know it")
        elif st.trump >= 0 and suit != SUITS[st.trump]:
            problems.append(f"{where}: trump {suit} named but trump is {SUITS[st.trump]}")


def check_view(st: RoundState, view: dict[str, Any], ok: Allowed, problems: list[str]) -> None:
    check_against(st, view, ok, "view", problems)
    window = view.get("pair_window")
    if window is not None and window not in ok.seats:
        problems.append(f"view: pair window of seat {window} shown to {sorted(ok.seats)}")
    for s in view.get("to_act") or []:
        if s == st.pair_window and s != st.turn and s not in ok.seats:
            problems.append(f"view: to_act gives away seat {s}'s pair window")


def digest(message: dict[str, Any]) -> int:
    """A fingerprint of a message as the client gets it (the first message's chat history is
    added after it is made, so it is left out)."""
    body = {
        k: v for k, v in message.items() if not (k == "chat" and message.get("type") == "state")
    }
    return hash(json.dumps(body, sort_keys=True))


# -- the recorder -------------------------------------------------------------------------------
@dataclass
class Entry:
    version: int
    events: list[dict[str, Any]]
    game: Any


@dataclass
class ConnModel:
    table_id: str
    user_id: int | None
    seat: int | None
    toggled: set[int] = field(default_factory=set)
    acks: int = 0
    digests: list[int] = field(default_factory=list)


@dataclass
class Harness:
    """What the test set up, known independently of the server: seats, hosts, toggles sent."""

    seats: dict[tuple[str, int], int | None] = field(default_factory=dict)
    hosts: dict[str, int] = field(default_factory=dict)
    toggles: dict[tuple[str, int], list[int]] = field(default_factory=lambda: defaultdict(list))


class Auditor:
    """Hooks ``TableRuntime`` so every message to every connection is checked as it is made,
    against the game the server holds at that moment."""

    def __init__(self, harness: Harness) -> None:
        self.harness = harness
        self.problems: list[str] = []
        self.problem_count = 0
        self.skews: list[str] = []
        self.ledger: dict[str, dict[int, Entry]] = defaultdict(dict)
        self.latest: dict[str, Entry] = {}
        self.conns: dict[Connection, ConnModel] = {}
        self.order: dict[tuple[str, int], list[Connection]] = defaultdict(list)
        #: connections being connected: their catch-up message is sent before anything queued
        self.connecting: set[Connection] = set()
        #: catch-up messages already recorded, kept alive so their ids are not reused
        self.caught_up: dict[int, dict[str, Any]] = {}
        self.deals: Counter[str] = Counter()
        self.stats: Counter[str] = Counter()

    # -- installation
    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        auditor = self
        push = TableRuntime.push
        catch_up = TableRuntime.catch_up
        broadcast = TableRuntime._broadcast
        connect = TableRuntime.connect

        def push_hook(
            self: TableRuntime, conn: Connection, message: dict[str, Any] | bytes
        ) -> None:
            if auditor.caught_up.pop(id(message), None) is message:
                pass
            elif not conn.closed:
                # a broadcast hands in the JSON text it sends: audit exactly that
                sent = orjson.loads(message) if isinstance(message, bytes) else message
                auditor.guard(lambda: auditor.record(self, conn, sent, None, False))
            push(self, conn, message)

        def catch_up_hook(
            self: TableRuntime, conn: Connection, last_version: int | None
        ) -> dict[str, Any]:
            message = catch_up(self, conn, last_version)
            auditor.caught_up[id(message)] = message
            auditor.guard(lambda: auditor.record(self, conn, message, last_version, True))
            return message

        def broadcast_hook(
            self: TableRuntime, events: list[dict[str, Any]], *args: Any, **kwargs: Any
        ) -> None:
            auditor.guard(lambda: auditor.on_broadcast(self, events))
            broadcast(self, events, *args, **kwargs)

        async def connect_hook(
            self: TableRuntime, conn: Connection, last_version: int | None
        ) -> dict[str, Any]:
            if conn.user_id is not None:
                auditor.order[(self.info.id, conn.user_id)].append(conn)
            auditor.connecting.add(conn)
            try:
                return await connect(self, conn, last_version)
            finally:
                auditor.connecting.discard(conn)

        monkeypatch.setattr(TableRuntime, "push", push_hook)
        monkeypatch.setattr(TableRuntime, "catch_up", catch_up_hook)
        monkeypatch.setattr(TableRuntime, "_broadcast", broadcast_hook)
        monkeypatch.setattr(TableRuntime, "connect", connect_hook)

    def guard(self, job: Callable[[], None]) -> None:
        try:
            job()
        except Exception as e:  # the audit must not break the server it watches
            self.problem(f"audit error: {type(e).__name__}: {e}")

    def problem(self, text: str) -> None:
        self.problem_count += 1
        if len(self.problems) < MAX_REPORTED:
            self.problems.append(text)

    # -- the ledger of commits
    def on_broadcast(self, runtime: TableRuntime, events: list[dict[str, Any]]) -> None:
        table_id = runtime.info.id
        recent = runtime.recent
        # the table keeps each version's events encoded, for catch-ups: these are those
        committed = (
            bool(recent)
            and recent[-1][0] == runtime.version
            and orjson.loads(recent[-1][1]) == events
        )
        game = runtime.game
        st = game.round if game is not None else None
        problems: list[str] = []
        hand_card = hand_card_of(runtime.actions)
        if st is not None:
            check_against(st, events, public(st, hand_card), "events", problems)
        else:
            check_against(None, events, Allowed(0, False, frozenset()), "events", problems)
        for p in problems:
            self.problem(f"table {table_id} v{runtime.version} broadcast: {p}")
        self.stats["events checked"] += len(events)
        if committed:
            entry = Entry(runtime.version, events, game)
            self.ledger[table_id][runtime.version] = entry
            self.latest[table_id] = entry
            if any(e.get("type") == "round_ended" for e in events):
                self.deals[table_id] += 1

    # -- every message
    def model(self, runtime: TableRuntime, conn: Connection) -> ConnModel:
        m = self.conns.get(conn)
        if m is None:
            m = ConnModel(runtime.info.id, conn.user_id, conn.seat)
            self.conns[conn] = m
            if conn.user_id is not None:
                expected = self.harness.seats.get((runtime.info.id, conn.user_id))
                if expected != conn.seat:
                    self.problem(
                        f"table {runtime.info.id}: user {conn.user_id} connected as seat "
                        f"{conn.seat}, expected {expected}"
                    )
        return m

    def sees(self, runtime: TableRuntime, m: ConnModel) -> frozenset[int]:
        if m.seat is not None:
            return frozenset((m.seat,))
        if runtime.info.spectators_see == "none":
            return frozenset()
        host = self.harness.hosts.get(m.table_id)
        host_seat = self.harness.seats.get((m.table_id, host)) if host is not None else None
        return frozenset(m.toggled | ({host_seat} if host_seat is not None else set()))

    def record(
        self,
        runtime: TableRuntime,
        conn: Connection,
        message: dict[str, Any],
        last_version: int | None,
        caught_up: bool,
    ) -> None:
        m = self.model(runtime, conn)
        if caught_up:
            self.stats["catch-up messages"] += 1
        if caught_up and conn in self.connecting:
            # the socket's first message: sent before whatever was queued for it meanwhile
            self.connecting.discard(conn)
            m.digests.insert(0, digest(message))
            source = "connect"
        else:
            m.digests.append(digest(message))
            source = "catch-up" if caught_up else "push"
        kind = message.get("type")
        table_id = runtime.info.id
        where = f"table {table_id} v{runtime.version} to user {conn.user_id} seat {conn.seat}"
        game = runtime.game
        st = game.round if game is not None else None
        if kind == "state":
            self._toggle_ack(m, message)
        sees = self.sees(runtime, m)
        ok = (
            allowed(st, hand_card_of(runtime.actions), sees)
            if st is not None
            else Allowed(0, False, sees)
        )
        problems: list[str] = []
        self.stats[f"messages {kind}"] += 1
        self.stats["messages"] += 1
        if kind == "state":
            self._check_state(
                runtime, m, message, st, ok, last_version, source, caught_up, problems
            )
        elif kind == "error":
            check_against(st, message, ok, "error", problems)
        elif kind == "chat":
            check_against(st, {k: v for k, v in message.items() if k != "line"}, ok, "chat", [])
        elif kind != "pong":
            problems.append(f"a message of unknown type {kind!r}: audit it before sending it")
        for p in problems:
            self.problem(f"{where}: {p}")

    def _toggle_ack(self, m: ConnModel, message: dict[str, Any]) -> None:
        events = message.get("events") or []
        if m.seat is not None or len(events) != 1 or events[0].get("type") != "toggled":
            return
        requests = self.harness.toggles.get((m.table_id, m.user_id or 0), [])
        if m.acks >= len(requests):
            self.problem(f"table {m.table_id}: a toggle nobody asked for: {events[0]}")
            return
        seat = requests[m.acks]
        m.acks += 1
        if events[0].get("seat") != seat:
            self.problem(f"table {m.table_id}: asked to toggle seat {seat}, got {events[0]}")
        m.toggled ^= {seat}
        self.stats["toggles"] += 1

    def _check_state(
        self,
        runtime: TableRuntime,
        m: ConnModel,
        message: dict[str, Any],
        st: RoundState | None,
        ok: Allowed,
        last_version: int | None,
        source: str,
        caught_up: bool,
        problems: list[str],
    ) -> None:
        table_id = runtime.info.id
        version = int(message["version"])
        latest = self.latest.get(table_id)
        if version != runtime.version:
            problems.append(f"version {version} but the table is at {runtime.version}")
        if latest is not None and latest.version == version and latest.game is not runtime.game:
            self.skews.append(f"table {table_id} v{version} ({source}): an uncommitted state")
        rest = {k: v for k, v in message.items() if k not in ("view", "events")}
        check_against(st, rest, ok, "table", problems)
        view = message.get("view")
        if st is None:
            if view is not None:
                problems.append("a view before any deal")
        elif view is None:
            problems.append("no view while a deal is on")
        else:
            check_view(st, view, ok, problems)
            self._coverage(st, m, view, ok)
        events = message.get("events") or []
        if caught_up:
            self._check_catch_up(table_id, version, message, last_version, problems)
        elif st is not None:
            check_against(st, events, public(st, hand_card_of(runtime.actions)), "events", problems)
        you = (message.get("table") or {}).get("you") or {}
        if m.seat is None and st is not None and sorted(you.get("sees", [])) != sorted(ok.seats):
            problems.append(f"you.sees {you.get('sees')} but the spectator sees {sorted(ok.seats)}")

    def _check_catch_up(
        self,
        table_id: str,
        version: int,
        message: dict[str, Any],
        last_version: int | None,
        problems: list[str],
    ) -> None:
        events = message.get("events") or []
        if message.get("snapshot"):
            if events:
                problems.append("a snapshot with events")
            return
        if last_version is None:
            problems.append("a continuation without a last version")
            return
        ledger = self.ledger[table_id]
        expected: list[dict[str, Any]] = []
        for v in range(last_version + 1, version + 1):
            if v not in ledger:
                problems.append(f"catch-up from v{last_version}: no broadcast of v{v} recorded")
                return
            expected += ledger[v].events
        if events != expected:
            problems.append(f"catch-up from v{last_version}: events differ from those broadcast")
        self.stats["caught-up events"] += len(events)

    def _coverage(self, st: RoundState, m: ConnModel, view: dict[str, Any], ok: Allowed) -> None:
        hands = view.get("hands") or []
        shown = sum(h is not None for h in hands)
        if m.seat is None:
            self.stats[f"spectator views with {shown} hands"] += 1
        if st.is_over:
            return
        if st.trump >= 0 and not ok.trump:
            self.stats["views with trump hidden"] += 1
        if st.indicator >= 0 and view.get("indicator") is None:
            self.stats["views with the trump card hidden"] += 1
        if st.phase is Phase.SEVENTH_REDOUBLE and st.bidder in ok.seats:
            self.stats["seventh-card Redouble views"] += 1
        if st.caller >= 0 and st.caller in ok.seats and hands[partner(st.caller)] is not None:
            self.stats["Single Hand caller views with the partner's hand"] += 1
        if st.pair_window >= 0:
            self.stats["views in a pair window"] += 1

    # -- after the run
    def deliveries(self, received: dict[tuple[str, int], list[list[int]]]) -> list[str]:
        """Every message a client received must be one the audit checked, in order: each of a
        client's sessions got a prefix of what was made for its connection."""
        out: list[str] = []
        for key, sessions in received.items():
            conns = self.order.get(key, [])
            if len(conns) != len(sessions):
                out.append(f"{key}: {len(sessions)} client sessions, {len(conns)} connections")
                continue
            for i, (conn, got) in enumerate(zip(conns, sessions, strict=True)):
                made = self.conns[conn].digests if conn in self.conns else []
                if got != made[: len(got)]:
                    at = next(
                        (j for j, (a, b) in enumerate(zip(got, made, strict=False)) if a != b),
                        min(len(got), len(made)),
                    )
                    out.append(
                        f"{key} session {i}: message {at} of {len(got)} received was not the "
                        f"audited one ({len(made)} made)"
                    )
        return out


# -- the clients --------------------------------------------------------------------------------
class AuditClient:
    """One person's socket at one table: a player choosing random legal actions, or a spectator
    turning hands up and down; both now and then ask to catch up, players sometimes reconnect."""

    def __init__(
        self,
        ws_url: str,
        cookie: str,
        table_id: str,
        user_id: int,
        seat: int | None,
        harness: Harness,
        rng: random.Random,
        query: str = "",
        reconnects: bool = False,
    ) -> None:
        self.ws_url = ws_url
        self.cookie = cookie
        self.table_id = table_id
        self.user_id = user_id
        self.seat = seat
        self.harness = harness
        self.rng = rng
        self.query = query
        self.reconnects = reconnects
        self.ws: Any = None
        self.sessions: list[list[int]] = []
        self.state: dict[str, Any] | None = None
        self.errors: Counter[str] = Counter()
        self.changed = asyncio.Event()
        self.reader: asyncio.Task[None] | None = None
        self.closed_by_server = False
        self.actions = 0

    async def connect(self) -> None:
        params = [self.query] if self.query else []
        if self.state is not None:
            params.append(f"last_version={self.state['version']}")
        url = f"{self.ws_url}/ws/tables/{self.table_id}" + (
            "?" + "&".join(params) if params else ""
        )
        self.ws = await websockets.connect(url, additional_headers={"Cookie": self.cookie})
        self.sessions.append([])
        self.closed_by_server = False
        self.reader = asyncio.create_task(self._read(self.ws, self.sessions[-1]))

    async def _read(self, ws: Any, got: list[int]) -> None:
        try:
            async for raw in ws:
                message = json.loads(raw)
                got.append(digest(message))
                if message["type"] == "state":
                    self.state = message
                elif message["type"] == "error":
                    self.errors[str(message["reason"])] += 1
                self.changed.set()
        except websockets.ConnectionClosed:
            pass
        self.closed_by_server = True
        self.changed.set()

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await asyncio.wait_for(self.reader, 10)

    async def _wait(self, timeout: float) -> None:
        self.changed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.changed.wait(), timeout)

    async def play(self, done: Callable[[], bool]) -> None:
        while not done():
            if self.closed_by_server:
                await self.reconnect(0.0)
                continue
            st = self.state
            view = st["view"] if st else None
            legal = view["legal_json"] if view else []
            if self.seat is None:
                await self._spectate()
                continue
            if not legal:
                await self._wait(0.5)
                continue
            if self.reconnects and self.rng.random() < 0.01:
                await self.reconnect(self.rng.choice((0.0, 0.05, 0.3, 1.6)))
                continue
            assert st is not None
            if self.rng.random() < 0.01:
                await self.send({"type": "hello", "last_version": max(0, st["version"] - 3)})
            before, errors = st["version"], sum(self.errors.values())
            await self.send({"type": "act", "version": before, **self.pick(legal)})
            self.actions += 1
            for _ in range(40):
                cur = self.state
                if cur is None or cur["version"] > before or sum(self.errors.values()) > errors:
                    break
                if self.closed_by_server:
                    break
                await self._wait(0.25)

    def pick(self, legal: list[dict[str, Any]]) -> dict[str, Any]:
        """A random legal action; the seventh card and Double are favoured a little, so that
        the seventh-card Redouble (the bidder sees four cards and the seventh) comes up."""
        weights = [
            4 if a.get("suit") == "seventh" else 2 if a.get("act") == "double" else 1 for a in legal
        ]
        return self.rng.choices(legal, weights)[0]

    async def _spectate(self) -> None:
        roll = self.rng.random()
        if roll < 0.5:
            seat = self.rng.randrange(4)
            self.harness.toggles[(self.table_id, self.user_id)].append(seat)
            await self.send({"type": "toggle", "seat": seat})
        elif roll < 0.55 and self.state is not None:
            back = self.rng.choice((0, 1, 5, 50, 500))
            await self.send({"type": "hello", "last_version": max(0, self.state["version"] - back)})
        await asyncio.sleep(self.rng.uniform(0.02, 0.2))

    async def reconnect(self, pause: float) -> None:
        await self.close()
        await asyncio.sleep(pause)
        await self.connect()
