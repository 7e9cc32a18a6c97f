"""The table's one ordered queue: a command runs at once in its caller's task only when the
table has nothing queued or running, and never beside another; whatever comes meanwhile waits
and runs after it, in the order it came."""

from __future__ import annotations

import asyncio
import random

import pytest

from twentynine.engine.records import RulesSpec
from twentynine.server.settings import Settings
from twentynine.server.tables.errors import TableError
from twentynine.server.tables.runtime import Seat, TableInfo, TableRuntime

from .test_clock import MemoryStore


def _table() -> TableRuntime:
    info = TableInfo("q1", "hosted", 10, RulesSpec("standard", {}))
    seats = [Seat(user_id=10 + i, name=f"P{i}", joined=True) for i in range(4)]
    return TableRuntime(
        info,
        seats,
        MemoryStore("q1", seats),  # type: ignore[arg-type]
        Settings(next_deal_seconds=3600.0),
        rng=random.Random(1),
    )


async def test_an_idle_table_runs_a_command_here_and_a_busy_one_on_its_worker() -> None:
    runtime = _table()
    runtime.start()
    try:
        ran_in: list[asyncio.Task[object] | None] = []

        async def where() -> str:
            ran_in.append(asyncio.current_task())
            return "done"

        assert await runtime.submit(where, here=True) == "done"
        assert ran_in == [asyncio.current_task()]  # this task, no hand-over
        assert await runtime.submit(where) == "done"  # not asked: the worker
        assert ran_in[-1] is runtime.worker

        # while a command runs, one asked to run here waits for the worker instead
        release = asyncio.Event()

        async def slow() -> None:
            await release.wait()

        first = asyncio.ensure_future(runtime.submit(slow))
        await asyncio.sleep(0)
        second = asyncio.ensure_future(runtime.submit(where, here=True))
        for _ in range(5):
            await asyncio.sleep(0)
        assert len(ran_in) == 2 and not second.done()
        release.set()
        assert await second == "done"
        await first
        assert ran_in[-1] is runtime.worker
    finally:
        await runtime.stop()


async def test_what_comes_while_a_command_runs_here_waits_and_keeps_its_order() -> None:
    runtime = _table()
    runtime.start()
    try:
        order: list[str] = []
        running = 0
        most = 0
        release = asyncio.Event()

        def command(name: str, wait: bool = False):  # type: ignore[no-untyped-def]
            async def run() -> str:
                nonlocal running, most
                running += 1
                most = max(most, running)
                order.append(f"{name} starts")
                if wait:
                    await release.wait()
                await asyncio.sleep(0)
                order.append(f"{name} ends")
                running -= 1
                return name

            return run

        await asyncio.sleep(0)
        assert runtime.inbox.idle  # the worker waits, nothing runs
        here = asyncio.ensure_future(runtime.submit(command("here", wait=True), here=True))
        await asyncio.sleep(0)
        assert order == ["here starts"]
        assert not runtime.inbox.idle  # one runs in its caller's task
        later = [
            asyncio.ensure_future(runtime.submit(command("a"))),
            asyncio.ensure_future(runtime.submit(command("b"), here=True)),
            asyncio.ensure_future(runtime.submit(command("c"))),
        ]
        for _ in range(5):
            await asyncio.sleep(0)
        assert order == ["here starts"]  # nothing beside it
        release.set()
        assert await here == "here"
        assert [await f for f in later] == ["a", "b", "c"]
        assert most == 1
        await asyncio.sleep(0)
        assert runtime.inbox.idle
        assert order == [f"{n} {e}" for n in ("here", "a", "b", "c") for e in ("starts", "ends")]
    finally:
        await runtime.stop()


async def test_a_failure_here_reaches_the_caller_and_the_queue_goes_on() -> None:
    runtime = _table()
    runtime.start()
    try:

        async def refused() -> None:
            raise TableError("not_your_seat", "this is not your seat")

        async def fine() -> int:
            return 7

        with pytest.raises(TableError) as caught:
            await runtime.submit(refused, here=True)
        assert caught.value.reason == "not_your_seat"
        assert not runtime.inbox.running
        assert await runtime.submit(fine, here=True) == 7
        assert await runtime.submit(fine) == 7
    finally:
        await runtime.stop()


async def test_a_stopped_table_runs_nothing_here() -> None:
    runtime = _table()
    runtime.start()
    await runtime.stop()
    ran: list[int] = []

    async def command() -> None:
        ran.append(1)

    waiting = asyncio.ensure_future(runtime.submit(command, here=True))
    for _ in range(5):
        await asyncio.sleep(0)
    assert ran == [] and not waiting.done() and len(runtime.inbox) == 1
    waiting.cancel()
