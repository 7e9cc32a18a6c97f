"""A connection's sending: at once while the socket takes data, else in order from a task."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

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


_KEPT_RSS = """
import orjson, sys
from twentynine.server.tables.connection import to_keep

def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1])

you = {"user_id": 12345, "seat": 2, "spectator": False, "host": False, "sees": [2]}
keep = to_keep if sys.argv[1] == "to_keep" else (lambda text: text)
before = rss()
texts = [keep(orjson.dumps(you)) for _ in range(4000)]
assert all(t == orjson.dumps(you) for t in texts)
print(rss() - before)
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads RSS from /proc")
def test_text_kept_for_long_holds_only_its_own_length() -> None:
    """4,000 short texts kept as orjson returns them hold ~16 MB (its buffer, ~4 KiB each);
    through ``to_keep``, a few hundred KiB: what a table's catch-up list and each player's
    kept "you" hold for as long as the table lives."""
    grown = {
        how: int(
            subprocess.run(
                [sys.executable, "-c", _KEPT_RSS, how], capture_output=True, text=True, check=True
            ).stdout
        )
        for how in ("to_keep", "as_is")
    }
    assert grown["to_keep"] < 4000 and grown["as_is"] > 4 * grown["to_keep"], grown
