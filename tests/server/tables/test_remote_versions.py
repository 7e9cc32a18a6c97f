"""Versions made by other processes reach this process's connections in order and complete,
whatever order their fanout messages arrive in (several processes publish; a process can also
store a version before the message of the one before it has come)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import orjson
import pytest

from twentynine.engine.records import RulesSpec
from twentynine.server.settings import Settings
from twentynine.server.tables.queue import TRIES
from twentynine.server.tables.runtime import (
    Connection,
    Seat,
    TableError,
    TableInfo,
    TableRuntime,
)
from twentynine.server.tables.store import StaleVersion


class _NoStore:
    """Nothing stored: a reload finds no row and changes nothing; a save keeps nothing."""

    async def load(self, table_id: str) -> None:
        return None

    async def save(self, *args: Any) -> None:
        return None


async def _runtime() -> tuple[TableRuntime, list[dict[str, Any]]]:
    info = TableInfo("remote1", "hosted", None, RulesSpec("standard", {}))
    runtime = TableRuntime(info, [Seat() for _ in range(4)], _NoStore(), Settings(), version=7)  # type: ignore[arg-type]
    got: list[dict[str, Any]] = []

    async def send(message: dict[str, Any] | bytes) -> None:
        got.append(orjson.loads(message) if isinstance(message, bytes) else message)

    conn = Connection(None, "Watcher", None, send)
    conn.open()
    runtime.conns.add(conn)
    runtime.start()
    return runtime, got


async def _settled(runtime: TableRuntime) -> None:
    """Until the table's queue has run everything queued so far."""

    async def nothing() -> None:
        return None

    await runtime.submit(nothing)


def _state(version: int, name: str) -> dict[str, Any]:
    return {"type": "state", "version": version, "events": [{"type": "test", "name": name}]}


async def test_a_version_that_arrives_before_the_one_before_it_waits_for_it() -> None:
    runtime, got = await _runtime()
    try:
        # 9 comes first; 8 a moment later: the connection gets 8's events, then 9's
        await runtime.on_remote(_state(9, "b"))
        await asyncio.sleep(0.05)  # 9's command is under way, waiting for 8
        assert got == [] and runtime.sent == 7
        await runtime.on_remote(_state(8, "a"))
        await _settled(runtime)
        states = [m for m in got if m["type"] == "state"]
        assert [[e["name"] for e in m["events"]] for m in states] == [["a", "b"]]
        assert not states[0]["snapshot"] and runtime.sent == 9
        assert [v for v, _ in runtime.recent] == [8, 9]  # for catch-ups too
        assert runtime.arrived == {}
    finally:
        await runtime.stop()


async def test_a_version_that_never_comes_gives_a_snapshot(
    caplog: pytest.LogCaptureFixture,
) -> None:
    runtime, got = await _runtime()
    runtime.MISSED_WAIT = 0.05
    try:
        with caplog.at_level(logging.WARNING, logger="twentynine.tables"):
            await runtime.on_remote(_state(10, "c"))  # 8 and 9 never come
            await _settled(runtime)
        states = [m for m in got if m["type"] == "state"]
        assert len(states) == 1 and states[0]["snapshot"]
        assert "versions 8-10 did not all come over the fanout" in caplog.text  # said in the log
        assert runtime.sent == 10
        await runtime.on_remote(_state(9, "late"))  # too late: already covered
        await _settled(runtime)
        assert len([m for m in got if m["type"] == "state"]) == 1
    finally:
        await runtime.stop()


async def test_a_command_that_loses_every_race_leaves_no_version_untold() -> None:
    """Another process stores versions 8 and 9 while a command here loses the race each time
    it is tried (``queue.TRIES``): the connections here get 8's and 9's events before the next
    change made here (10), and nothing is skipped when that change moves ``sent`` on."""
    runtime, got = await _runtime()  # at version 7
    store_version = [7]
    looks = [0]

    async def reload() -> None:  # the first two looks at the store find one more version each
        looks[0] += 1
        store_version[0] = min(store_version[0] + 1, 9)
        runtime.version = store_version[0]

    async def stale() -> None:
        raise StaleVersion()

    async def change() -> None:
        await runtime._commit([{"type": "test", "name": "c"}])

    runtime.reload = reload  # type: ignore[method-assign]
    try:
        lost = runtime.post(stale)  # queued before the other process's messages come
        runtime.post(change)
        await runtime.on_remote(_state(8, "a"))
        await runtime.on_remote(_state(9, "b"))
        await _settled(runtime)
        assert isinstance(lost.exception(), TableError)  # stale every time: "try again"
        assert looks[0] == TRIES  # a look after each try
        states = [m for m in got if m["type"] == "state"]
        assert [[e["name"] for e in m["events"]] for m in states] == [["a"], ["b"], ["c"]]
        assert not any(m["snapshot"] for m in states)
        assert runtime.sent == runtime.version == 10
    finally:
        await runtime.stop()
