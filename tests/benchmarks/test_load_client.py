"""The load benchmark's client reads a state's version and legal actions without decoding the
whole message (``benchmarks/load.py: read_state``): checked here against what decoding it in
full gives, on the messages a real table runtime sends its four seats over whole deals."""

from __future__ import annotations

import asyncio
import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import orjson

from twentynine.engine.records import RulesSpec
from twentynine.engine.round import to_act
from twentynine.engine.views import view
from twentynine.server.settings import Settings
from twentynine.server.tables.connection import encoded
from twentynine.server.tables.runtime import Connection, Seat, TableInfo, TableRuntime

ROOT = Path(__file__).resolve().parents[2]


def _load_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("load_benchmark", ROOT / "benchmarks/load.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["load_benchmark"] = module
    spec.loader.exec_module(module)
    return module


load = _load_module()


class _NoStore:
    async def save(self, *args: Any) -> None:
        return None

    async def add_deal(self, *args: Any, **kwargs: Any) -> None:
        return None

    async def names(self, *args: Any, **kwargs: Any) -> dict[int, str]:
        return {}


async def _messages(actions: int) -> list[bytes]:
    """Every message a table with four seated players sends them over ``actions`` actions."""
    info = TableInfo("t", "public", None, RulesSpec("standard", {}))
    seats = [Seat(user_id=i + 1, name=f"P{i + 1}", joined=True) for i in range(4)]
    runtime = TableRuntime(
        info,
        seats,
        _NoStore(),  # type: ignore[arg-type]
        Settings(next_deal_seconds=0.0),
        rng=random.Random(7),
    )
    sent: list[bytes] = []

    def write(message: dict[str, Any] | bytes) -> bool:
        sent.append(encoded(message))
        return True

    async def send(message: dict[str, Any] | bytes) -> None:
        write(message)

    conns = []
    for i in range(4):
        conn = Connection(i + 1, f"P{i + 1}", i, send)
        conn.send_now = write
        conn.open()
        runtime.conns.add(conn)
        conns.append(conn)
    runtime.start()
    await runtime.submit(runtime.start_game)
    done = 0
    try:
        while done < actions:
            game = runtime.game
            if game is None or game.round.is_over:
                await asyncio.sleep(0.001)  # the next deal comes on a timer
                continue
            seat = to_act(game.round)[0]
            action = view(game.round, seat).legal[0]
            await runtime.act(conns[seat], {"type": "act", **action.to_json()})
            done += 1
        sent.append(encoded(runtime.message_for(conns[0], [], snapshot=True)))
    finally:
        await runtime.stop()
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
