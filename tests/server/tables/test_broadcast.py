"""A table's broadcast builds each connection's message from parts encoded once (the table, the
head, each distinct view): the text each connection gets must be exactly what encoding its own
message (``message_for``, built through the engine's view functions) gives, for players and for
spectators who see different hands."""

from __future__ import annotations

import random
from typing import Any

import orjson

from twentynine.engine.records import RulesSpec
from twentynine.engine.round import to_act
from twentynine.engine.views import view
from twentynine.server.settings import Settings
from twentynine.server.tables.connection import encoded
from twentynine.server.tables.runtime import Connection, Seat, TableInfo, TableRuntime

from .test_clock import MemoryStore

HOST = 10


def _hosted_table(table_id: str, seed: int) -> TableRuntime:
    """A hosted table of four seated players (the host in seat 0), not started, whose clock
    always reads the same (one "server_time" in every message)."""
    info = TableInfo(table_id, "hosted", HOST, RulesSpec("standard", {}))
    seats = [Seat(user_id=HOST + i, name=f"P{i}", joined=True) for i in range(4)]
    runtime = TableRuntime(
        info,
        seats,
        MemoryStore(table_id, seats),  # type: ignore[arg-type]
        Settings(next_deal_seconds=3600.0),
        rng=random.Random(seed),
    )
    runtime.wall = lambda: 1_800_000_000.0  # type: ignore[method-assign]
    return runtime


async def test_each_connection_gets_exactly_its_own_message_encoded() -> None:
    runtime = _hosted_table("bc1", 3)
    checked: list[tuple[int | None, frozenset[int]]] = []
    mismatches: list[str] = []

    def writer(conn_box: list[Connection]) -> Any:
        def send_now(message: dict[str, Any] | bytes) -> bool:
            assert isinstance(message, bytes), "a broadcast sends encoded text"
            got = orjson.loads(message)
            conn = conn_box[0]
            expected = runtime.message_for(conn, got["events"], got["snapshot"])
            if encoded(expected) != message:
                mismatches.append(f"seat {conn.seat}: {message[:80]!r}")
            checked.append((conn.seat, frozenset(got["table"]["you"]["sees"])))
            return True

        return send_now

    conns: list[Connection] = []
    for seat, user in [(0, HOST), (1, HOST + 1), (2, HOST + 2), (3, HOST + 3)]:
        box: list[Connection] = []
        conn = Connection(user, f"P{seat}", seat, _never, None, writer(box))
        box.append(conn)
        conns.append(conn)
    for toggled in (frozenset(), frozenset({1}), frozenset({1, 2})):
        box = []
        conn = Connection(None, "Watcher", None, _never, None, writer(box), toggled=toggled)
        box.append(conn)
        conns.append(conn)
    for conn in conns:
        conn.open()
        runtime.conns.add(conn)
    runtime.start()
    try:
        await runtime.submit(runtime.start_game)
        for _ in range(40):  # the auction and the first tricks: each a broadcast
            game = runtime.game
            assert game is not None
            if game.round.is_over:
                break
            seat = to_act(game.round)[0]
            action = view(game.round, seat).legal[0]
            await runtime.act(conns[seat], {**action.to_json(), "version": runtime.version})
    finally:
        await runtime.stop()
    assert mismatches == []
    assert len(checked) >= 7 * 20
    # players see their own hand; the host's seat (0) shows to every spectator, and each
    # spectator's toggled seats too
    assert {sees for seat, sees in checked} == {
        frozenset({0}),
        frozenset({1}),
        frozenset({2}),
        frozenset({3}),
        frozenset({0, 1}),
        frozenset({0, 1, 2}),
    }


async def _never(message: Any) -> None:
    raise AssertionError("every message here is written at once")


async def test_a_player_who_leaves_their_seat_is_told_as_a_watcher_from_then_on() -> None:
    """A player's "you" is kept encoded while they keep their seat (``_you_text``): once they
    leave it (their connections become a watcher's, as ``seats`` does), every message says so."""
    runtime = _hosted_table("bc2", 5)
    sent: list[bytes] = []

    def keep(message: dict[str, Any] | bytes) -> bool:
        assert isinstance(message, bytes)
        sent.append(message)
        return True

    conn = Connection(HOST + 1, "P1", 1, _never, None, keep)
    conn.open()
    runtime.conns.add(conn)
    runtime.start()
    try:
        await runtime.submit(runtime.start_game)
        runtime._broadcast([])
        conn.seat = None  # left the seat
        runtime._broadcast([])
    finally:
        await runtime.stop()
    seated, watching = (orjson.loads(m)["table"]["you"] for m in sent[-2:])
    assert (seated["seat"], seated["spectator"], seated["sees"]) == (1, False, [1])
    assert (watching["seat"], watching["spectator"], watching["sees"]) == (None, True, [0])
    assert sent[-1] == encoded(runtime.message_for(conn, [], False))
