"""A table socket's leaving (``tables/presence.py``): its connection ends however telling the
others goes."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from ..conftest import LiveServer
from .test_mends import solo_match
from .wsclient import TableSocket


async def until(check: Callable[[], object], timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        assert loop.time() < deadline, "not in time"
        await asyncio.sleep(0.02)


async def test_a_socket_that_closes_while_the_fanout_fails_still_ends(
    live: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fanout (Redis, with several processes) failing as a socket closes: the failure is
    the fanout's, and the connection still stops sending and leaves the table."""
    me, table_id = await solo_match(live, "mira@example.com")
    sock = await TableSocket(live, me, table_id).connect()
    runtime = await live.app.state.tables.get(table_id)
    (conn,) = runtime.conns
    failures: list[tuple[int, int]] = []

    async def failing(table: str, seat: int, count: int) -> None:
        failures.append((seat, count))
        raise ConnectionError("the fanout is away")

    monkeypatch.setattr(runtime.fanout, "presence", failing)
    await sock.close()
    await until(lambda: failures)
    await until(lambda: conn.closed)
    assert conn not in runtime.conns
    assert conn.sending is None or conn.sending.done()
