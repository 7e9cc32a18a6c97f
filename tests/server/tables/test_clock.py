"""The turn clock with a fake clock: a person's clock runs out and the seat's stand-in bot makes
that one move with the seat's own view; after two timeouts in a row the bot keeps the seat
until the person acts again or says "I'm back"; the clock is stored and runs again after a
restart; bots never wait on it; the table's socket state says whose clock runs and until when.
"""

from __future__ import annotations

import asyncio
import json
import random
from types import SimpleNamespace
from typing import Any

import orjson
import pytest

from twentynine.bots import make_bot
from twentynine.engine.records import RulesSpec
from twentynine.engine.views import View
from twentynine.server.settings import Settings
from twentynine.server.tables.clock import KEEP_AFTER
from twentynine.server.tables.runtime import (
    STANDIN_LEVEL,
    Connection,
    Seat,
    TableError,
    TableInfo,
    TableRuntime,
)
from twentynine.server.tables.store import StaleVersion

ME = 1  # the one person, in seat 0; bots in the other three


class FakeTimer:
    def __init__(self, until: float, callback: Any) -> None:
        self.until, self.callback, self.cancelled = until, callback, False

    def cancel(self) -> None:
        self.cancelled = True


class FakeClock:
    """Wall-clock time that moves only when the test says; timers go off when it has moved
    past them."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0
        self.timers: list[FakeTimer] = []

    def time(self) -> float:
        return self.now

    def call_later(self, seconds: float, callback: Any) -> FakeTimer:
        timer = FakeTimer(self.now + seconds, callback)
        self.timers.append(timer)
        return timer

    def advance(self, seconds: float) -> None:
        self.now += seconds
        for timer in list(self.timers):
            if timer.until <= self.now + 1e-6:  # (deadline - now) + now can be a hair past it
                self.timers.remove(timer)
                if not timer.cancelled:
                    timer.callback()


class MemoryStore:
    """Keeps the table's row and seats as the database would (compare-and-set on the version)."""

    def __init__(self, table_id: str, seats: list[Seat]) -> None:
        self.row = SimpleNamespace(
            id=table_id, version=0, status="waiting", state=None, conference_url="", name="Clock"
        )
        self.seats = [(i, s.user_id, s.bot, s.joined) for i, s in enumerate(seats)]

    async def save(
        self,
        table_id: str,
        version: int,
        new_version: int,
        state: Any,
        status: str,
        seats: Any = None,
    ) -> None:
        if self.row.version != version:
            raise StaleVersion(table_id)
        # a JSON round trip, as the database's JSON column gives it back
        self.row.version, self.row.status = new_version, status
        self.row.state = json.loads(json.dumps(state))
        if seats is not None:
            self.seats = list(seats)

    async def load(self, table_id: str) -> Any:
        seat_rows = [
            SimpleNamespace(seat=i, user_id=u, bot=b, joined=j) for i, u, b, j in self.seats
        ]
        return SimpleNamespace(**vars(self.row)), seat_rows

    async def names(self, user_ids: Any) -> dict[int, str]:
        return {ME: "Me"}

    async def add_deal(self, *args: Any, **kwargs: Any) -> None:
        return None


def _seats() -> list[Seat]:
    return [Seat(user_id=ME, name="Me", joined=True)] + [
        Seat(name="Random", bot="random", joined=True) for _ in range(3)
    ]


def _runtime(store: MemoryStore, clock: FakeClock, **state: Any) -> TableRuntime:
    info = TableInfo("clock1", "public", None, RulesSpec("standard", {}), turn_seconds=5)
    settings = Settings(bot_delay_ms=0, next_deal_seconds=0.0)
    runtime = TableRuntime(
        info,
        _seats(),
        store,  # type: ignore[arg-type]
        settings,
        rng=random.Random(29),
        **state,
    )
    runtime.wall = clock.time
    runtime.clock_later = clock.call_later
    return runtime


#: what each test connection was sent (by the connection's id)
SENT: dict[int, list[dict[str, Any]]] = {}


async def _connect(runtime: TableRuntime, user_id: int | None, seat: int | None) -> Connection:
    got: list[dict[str, Any]] = []

    async def send(message: dict[str, Any] | bytes) -> None:
        got.append(orjson.loads(message) if isinstance(message, bytes) else message)

    def send_now(message: dict[str, Any] | bytes) -> bool:
        got.append(orjson.loads(message) if isinstance(message, bytes) else message)
        return True

    conn = Connection(user_id, "Me", seat, send, None, send_now)
    SENT[id(conn)] = got
    first = await runtime.connect(conn, None)
    got.append(first)
    conn.open()
    return conn


def _latest(conn: Connection) -> dict[str, Any]:
    states = [m for m in SENT[id(conn)] if m.get("type") == "state"]
    return states[-1]


def _events(conn: Connection) -> list[dict[str, Any]]:
    return [e for m in SENT[id(conn)] if m.get("type") == "state" for e in m["events"]]


async def _until(check: Any, timeout: float = 10.0) -> None:
    """Let the table's queue and its bots run (on real time) until ``check()``."""

    async def wait() -> None:
        while not check():
            await asyncio.sleep(0.005)

    await asyncio.wait_for(wait(), timeout)


async def _my_clock(runtime: TableRuntime) -> float:
    """Wait until the game waits on the person in seat 0 alone and their clock runs; its
    deadline."""
    # only seat 0 may move: no bot (a partner in the doubling, say) can move meanwhile
    await _until(
        lambda: _to_act(runtime) == (0,) and 0 in runtime.deadlines and runtime.clock_timer
    )
    return runtime.deadlines[0]


async def _time_out(runtime: TableRuntime, clock: FakeClock) -> None:
    """Let seat 0's clock run out; wait for the stand-in's move. (Other seats may move on
    their own meanwhile: a bot partner in the doubling, say.)"""
    count = runtime.seats[0].timeouts
    clock.advance(runtime.deadlines[0] - clock.now)
    await _until(lambda: runtime.seats[0].timeouts > count or runtime.seats[0].bot_kept)


async def _started(clock: FakeClock) -> tuple[MemoryStore, TableRuntime, Connection]:
    store = MemoryStore("clock1", _seats())
    runtime = _runtime(store, clock)
    runtime.start()
    conn = await _connect(runtime, ME, 0)
    await runtime.submit(runtime.start_game)
    return store, runtime, conn


class SpyBot:
    """The stand-in bot, recording the views it was given."""

    def __init__(self) -> None:
        self.inner = make_bot(STANDIN_LEVEL, 5)
        self.views: list[View] = []
        self.chosen: list[Any] = []

    def choose(self, v: View) -> Any:
        self.views.append(v)
        self.chosen.append(self.inner.choose(v))
        return self.chosen[-1]


async def test_the_clock_runs_out_and_the_standin_makes_that_one_move() -> None:
    clock = FakeClock()
    _, runtime, conn = await _started(clock)
    try:
        ends_at = await _my_clock(runtime)
        assert ends_at == clock.now + 5
        state = _latest(conn)
        assert state["table"]["turn_seconds"] == 5
        assert state["table"]["clock"] == [{"seat": 0, "ends_at": ends_at}]
        assert state["table"]["server_time"] == clock.now
        spy = SpyBot()
        runtime.bots[0] = spy  # type: ignore[assignment]
        clock.advance(4.9)  # not yet
        await asyncio.sleep(0.05)
        assert not spy.views and runtime.seats[0].timeouts == 0

        clock.advance(0.2)
        await _until(lambda: runtime.seats[0].timeouts == 1)
        # that one move, made with the seat's own view: its own hand and no other
        (v,) = spy.views
        (move,) = spy.chosen
        assert move.seat == 0 and move.to_json() in runtime.actions
        assert v.viewer == 0 and v.hands[0] is not None
        assert all(v.hands[s] is None for s in (1, 2, 3))
        assert {"type": "timeout", "seat": 0, "timeouts": 1} in _events(conn)
        seat = runtime.seats[0]
        assert seat.timeouts == 1 and not seat.standin and not seat.bot_kept
        assert _latest(conn)["table"]["seats"][0]["timeouts"] == 1
    finally:
        await runtime.stop()


async def test_two_timeouts_in_a_row_and_the_bot_keeps_the_seat_until_i_am_back() -> None:
    clock = FakeClock()
    store, runtime, conn = await _started(clock)
    try:
        for n in range(1, KEEP_AFTER + 1):
            await _my_clock(runtime)
            await _time_out(runtime, clock)
            assert runtime.seats[0].timeouts == n
        seat = runtime.seats[0]
        assert seat.standin == STANDIN_LEVEL and seat.standin_cause == "clock" and seat.bot_kept
        assert {"type": "bot_keeps_seat", "seat": 0} in _events(conn)
        assert _latest(conn)["table"]["seats"][0]["kept"] is True
        assert store.row.state["standin_causes"] == {"0": "clock"}  # stored

        # the bot now plays the seat without any clock: no time passes, yet the seat moves on
        assert 0 not in runtime.deadlines
        mine = sum(1 for a in runtime.actions if a["seat"] == 0)
        await _until(lambda: sum(1 for a in runtime.actions if a["seat"] == 0) > mine + 1)
        assert runtime.clock_timer is None and not runtime.deadlines

        # a reconnect is not coming back: the bot keeps the seat
        await runtime.disconnect(conn)
        conn = await _connect(runtime, ME, 0)
        assert runtime.seats[0].bot_kept

        # only the seat's own player says "I'm back"
        with pytest.raises(TableError) as refused:
            await runtime.back(2, 0)
        assert refused.value.reason == "not_your_seat"
        with pytest.raises(TableError) as refused:
            await runtime.back(ME, None)
        assert refused.value.reason == "spectator"

        await runtime.back(ME, 0)
        seat = runtime.seats[0]
        assert not seat.standin and not seat.standin_cause and seat.timeouts == 0
        assert {"type": "seat_back", "seat": 0} in _events(conn)
        assert store.row.state["standins"] == {} and store.row.state["timeouts"] == {}
        with pytest.raises(TableError) as refused:
            await runtime.back(ME, 0)
        assert refused.value.reason == "not_kept"
        # and the clock runs for the person again
        ends_at = await _my_clock(runtime)
        assert ends_at > clock.now
    finally:
        await runtime.stop()


async def test_a_move_of_ones_own_between_timeouts_starts_the_count_again() -> None:
    clock = FakeClock()
    _, runtime, conn = await _started(clock)
    try:
        await _my_clock(runtime)
        await _time_out(runtime, clock)
        assert runtime.seats[0].timeouts == 1

        await _my_clock(runtime)
        legal = _latest(conn)["view"]["legal_json"]
        await runtime.act(conn, {"type": "act", **legal[0]})
        assert runtime.seats[0].timeouts == 0

        await _my_clock(runtime)
        await _time_out(runtime, clock)
        assert runtime.seats[0].timeouts == 1 and not runtime.seats[0].bot_kept
    finally:
        await runtime.stop()


async def test_acting_takes_the_seat_back_from_the_clocks_standin() -> None:
    clock = FakeClock()
    _, runtime, conn = await _started(clock)
    try:
        _standin_idles(runtime)
        for _ in range(KEEP_AFTER):
            await _my_clock(runtime)
            await _time_out(runtime, clock)
        assert runtime.seats[0].bot_kept
        await _until(lambda: 0 in _to_act(runtime))
        legal = _latest(conn)["view"]["legal_json"]
        await runtime.act(conn, {"type": "act", **legal[0]})
        assert not runtime.seats[0].bot_kept and runtime.seats[0].timeouts == 0
        assert {"type": "seat_back", "seat": 0} in _events(conn)
    finally:
        await runtime.stop()


def _standin_idles(runtime: TableRuntime) -> None:
    """From now on the stand-in in seat 0 does not move (the other bots do), so that the
    person's own move comes first."""
    bot_move = runtime._bot_move

    def only_others(seat_no: int, version: int) -> Any:
        async def idle() -> None:
            return None

        return idle if seat_no == 0 else bot_move(seat_no, version)

    runtime._bot_move = only_others  # type: ignore[method-assign]


def _to_act(runtime: TableRuntime) -> tuple[int, ...]:
    from twentynine.engine.round import to_act

    game = runtime.game
    return () if game is None or game.round.is_over else to_act(game.round)


async def test_an_illegal_move_does_not_take_the_seat_back() -> None:
    clock = FakeClock()
    _, runtime, conn = await _started(clock)
    try:
        _standin_idles(runtime)
        for _ in range(KEEP_AFTER):
            await _my_clock(runtime)
            await _time_out(runtime, clock)
        await _until(lambda: 0 in _to_act(runtime))
        with pytest.raises(Exception):  # noqa: B017 - the engine's own refusal
            await runtime.act(conn, {"type": "act", "act": "bid", "value": 99})
        assert runtime.seats[0].bot_kept and runtime.seats[0].timeouts == KEEP_AFTER
    finally:
        await runtime.stop()


async def test_the_clock_is_stored_and_runs_after_a_restart() -> None:
    clock = FakeClock()
    store, runtime, _ = await _started(clock)
    ends_at = await _my_clock(runtime)
    await runtime.stop()
    assert store.row.state["clock"] == {"0": ends_at}

    clock.advance(2)  # the server was down two seconds
    again = _runtime(store, clock, version=store.row.version, status=store.row.status,
                     state=store.row.state)  # fmt: skip
    again.start()
    try:
        await again.submit(again.resume_duties)
        assert again.deadlines == {0: ends_at}  # the same deadline, not a fresh one
        clock.advance(2.9)
        await asyncio.sleep(0.05)
        assert again.seats[0].timeouts == 0
        clock.advance(0.2)
        await _until(lambda: again.seats[0].timeouts == 1)
        assert {"type": "timeout", "seat": 0, "timeouts": 1} in [
            e for evs in again.recent for e in json.loads(evs[1])
        ]
    finally:
        await again.stop()


async def test_a_process_without_the_lease_runs_no_clock() -> None:
    clock = FakeClock()
    _, runtime, _ = await _started(clock)
    try:
        await _my_clock(runtime)
        runtime.leader = False
        runtime._arm_clock()
        assert runtime.clock_timer is None and 0 in runtime.deadlines
        clock.advance(60)
        await asyncio.sleep(0.05)
        assert runtime.seats[0].timeouts == 0
    finally:
        await runtime.stop()


async def test_no_clock_at_a_table_without_one() -> None:
    clock = FakeClock()
    store = MemoryStore("clock1", _seats())
    runtime = _runtime(store, clock)
    runtime.info.turn_seconds = 0
    runtime.start()
    conn = await _connect(runtime, ME, 0)
    try:
        await runtime.submit(runtime.start_game)
        await _until(lambda: runtime.waiting_on() == (0,))
        assert _latest(conn)["table"]["clock"] == [] and runtime.clock_timer is None
        assert store.row.state["clock"] == {}
    finally:
        await runtime.stop()


async def test_a_snapshot_from_before_the_clock_is_read() -> None:
    """A table stored before the clock existed: no deadlines yet, a stand-in there is the
    takeover's (away), and the clock starts with the next change."""
    clock = FakeClock()
    store, runtime, _ = await _started(clock)
    await _my_clock(runtime)
    await runtime.stop()
    old = {k: v for k, v in store.row.state.items() if k not in ("clock", "timeouts")}
    old.pop("standin_causes")
    old["standins"] = {"2": STANDIN_LEVEL}
    again = _runtime(store, clock, version=store.row.version, status="playing", state=old)
    assert again.deadlines == {} and again.seats[2].standin_cause == "away"
    assert again.seats[0].timeouts == 0
    again.start()
    try:
        await again.submit(lambda: again._commit([{"type": "test"}]))
        assert again.deadlines == {0: clock.now + 5}
    finally:
        await again.stop()


async def test_the_clock_keeps_the_seat_of_someone_who_left_and_coming_back_is_not_enough() -> None:
    clock = FakeClock()
    _, runtime, conn = await _started(clock)
    try:
        await runtime.disconnect(conn)  # gone: the takeover (60 s, real time) is under way
        assert runtime.seats[0].takeover_at is not None
        for _ in range(KEEP_AFTER):
            await _my_clock(runtime)
            await _time_out(runtime, clock)
        seat = runtime.seats[0]
        assert seat.bot_kept and seat.standin_cause == "clock"
        assert seat.takeover_at is None and "takeover-0" not in runtime.timers
        version = runtime.version
        conn = await _connect(runtime, ME, 0)  # back on the page, but not "back"
        assert runtime.seats[0].bot_kept
        assert {"type": "seat_back", "seat": 0} not in _events(conn)
        assert runtime.version >= version
        await runtime.back(ME, 0)
        assert not runtime.seats[0].bot_kept
    finally:
        await runtime.stop()
