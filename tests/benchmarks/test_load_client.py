"""The load benchmark's client reads a state's version and legal actions without decoding the
whole message (``benchmarks/load.py: read_state``): checked here against what decoding it in
full gives, on the messages a real table runtime sends its four seats over whole deals."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson

from twentynine.server.tables.connection import encoded

from .modules import benchmark

load = benchmark("load")
table_action = benchmark("table_action")


async def _messages(actions: int) -> list[bytes]:
    """Every message a table with four seated players sends them over ``actions`` actions
    (``benchmarks/table_action.py``'s table: the first legal action each time), and a fresh
    snapshot at the end."""
    sent: list[bytes] = []

    def write(message: dict[str, Any] | bytes) -> bool:
        sent.append(encoded(message))
        return True

    runtime, conns = table_action.seated_table(7, write)
    await table_action.play(runtime, conns, actions)
    sent.append(encoded(runtime.message_for(conns[0], [], snapshot=True)))
    return sent


def _decoded(raw: bytes) -> tuple[int, list[Any]]:
    message = orjson.loads(raw)
    v = message.get("view")
    return int(message["version"]), list(v.get("legal_json") or []) if v else []


def test_reading_a_state_without_decoding_it_agrees_with_decoding_it() -> None:
    sent = asyncio.run(_messages(120))  # three deals and more
    read = 0
    for raw in sent:
        state = load.read_state(raw)
        if state is not None:
            read += 1
            assert state == _decoded(raw)
            assert state[1] == []
        else:  # what it leaves to decoding: a seat with actions to choose from
            assert _decoded(raw)[1]
    # three seats in four have nothing to do: those are read without decoding
    assert read >= len(sent) // 2


def test_the_floor_state_and_other_messages() -> None:
    assert load.read_state(b'{"type":"state","version":9,"view":{"legal_json":[]},"pad":"x"}') == (
        9,
        [],
    )
    act = b'{"type":"state","version":9,"view":{"legal_json":[{"act":"go"}]},"pad":"x"}'
    assert load.read_state(act) is None
    assert load.read_state(b'{"type":"error","reason":"stale"}') is None
    assert load.read_state(b'{"type":"state","version":3,"table":{},"view":null}') == (3, [])


async def test_the_setup_lets_an_idle_connection_go_before_the_server_closes_it() -> None:
    """The setup's HTTP connections are not reused once idle for as long as the server keeps
    one (uvicorn closes it then, and a request sent on it just then fails)."""
    import uvicorn

    from twentynine.server.cli import uvicorn_options

    server_keeps = uvicorn.Config(app=None, **uvicorn_options()).timeout_keep_alive
    accounts = load.Accounts("http://127.0.0.1:1")
    try:
        expiry = accounts._transport(0)._pool._keepalive_expiry
    finally:
        await accounts.close()
    assert expiry == load.KEEPALIVE_EXPIRY < server_keeps
