"""A table socket's leaving (``tables/presence.py``): its connection ends however telling the
others goes."""

from __future__ import annotations

import pytest

from ..conftest import LiveServer
from .test_clock import _until
from .test_mends import solo_match
from .wsclient import TableSocket


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
    await _until(lambda: failures, 5)
    await _until(lambda: conn.closed, 5)
    assert conn not in runtime.conns
    assert conn.sending is None or conn.sending.done()
