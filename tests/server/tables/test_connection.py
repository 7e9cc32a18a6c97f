"""A connection's sending: at once while the socket takes data, else in order from a task."""

from __future__ import annotations

import asyncio
from typing import Any

from twentynine.server.tables.runtime import Connection


def _conn(now: Any) -> tuple[Connection, list[Any], list[Any]]:
    sent_now: list[Any] = []
    sent_later: list[Any] = []

    async def send(message: dict[str, Any]) -> None:
        await asyncio.sleep(0)
        sent_later.append(message["n"])

    def send_now(message: dict[str, Any]) -> bool:
        ok = now(message)
        if ok:
            sent_now.append(message["n"])
        return bool(ok)

    return Connection(1, "A", 0, send, None, send_now), sent_now, sent_later


async def test_messages_go_out_at_once_while_the_socket_takes_them() -> None:
    conn, sent_now, sent_later = _conn(lambda m: True)
    conn.outbox.append({"n": 0})
    conn.kick()
    assert sent_now == []  # nothing before open
    conn.open()
    for n in (1, 2):
        conn.outbox.append({"n": n})
        conn.kick()
    assert sent_now == [0, 1, 2] and sent_later == []
    assert conn.sending is None and not conn.outbox


async def test_a_socket_that_cannot_take_more_gets_the_rest_in_order_from_a_task() -> None:
    taking = {"ok": True}
    conn, sent_now, sent_later = _conn(lambda m: taking["ok"])
    conn.open()
    conn.outbox.append({"n": 0})
    conn.kick()
    taking["ok"] = False
    for n in (1, 2, 3):
        conn.outbox.append({"n": n})
        conn.kick()
    assert conn.sending is not None
    taking["ok"] = True
    conn.outbox.append({"n": 4})
    conn.kick()  # the task is still sending: it takes this one too, after the others
    await conn.sending
    assert sent_now == [0] and sent_later == [1, 2, 3, 4]


async def test_a_failing_write_closes_the_connection_without_raising() -> None:
    def broken(message: dict[str, Any]) -> bool:
        raise OSError("gone")

    conn, _, _ = _conn(broken)
    conn.open()
    conn.outbox.append({"n": 0})
    conn.kick()  # must not raise into the table's broadcast
    assert conn.closed and not conn.outbox
