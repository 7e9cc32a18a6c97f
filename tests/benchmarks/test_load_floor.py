"""The load benchmark's floor (``benchmarks/load.py: floor_server``), a bare broadcast server run
as its own process: it answers an action with a state to all four of a group, pings only a
quiet socket (as our server does), and keeps what connecting made out of the collector's
passes when asked before the measured window. The same of the floor's work on our own socket
stack (``stack_floor_server``, ``--stack-floor``)."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx2
import pytest
from websockets.asyncio.client import connect

from tests.wsprobe import ping_times

from .modules import ROOT, benchmark


@pytest.fixture(params=["websockets", "our stack"])
def floor(request: pytest.FixtureRequest) -> Iterator[int]:
    """A floor server on a free port, its keepalive interval 0.3 s: the bare websockets one,
    and the same work on our socket stack (``--stack-floor``)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    argv = [sys.executable, str(ROOT / "benchmarks/load.py"), "--_floor-server", str(port)]
    if request.param == "our stack":
        argv.append("--_stack")
    process = subprocess.Popen([*argv, "--_pad", "300", "--_ping-interval", "0.3"])
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx2.get(f"http://127.0.0.1:{port}/healthz").status_code == 200:
                    break
            except httpx2.TransportError:
                pass
            assert time.monotonic() < deadline, "the floor server did not start"
            assert process.poll() is None, "the floor server exited"
            time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        process.wait(10)


async def test_an_action_reaches_all_four_of_its_group(floor: int) -> None:
    seats = [await connect(f"ws://127.0.0.1:{floor}/g/7/{seat}") for seat in range(4)]
    try:
        first = [json.loads(await ws.recv()) for ws in seats]
        assert [m["version"] for m in first] == [0, 0, 0, 0]
        assert [bool(m["view"]["legal_json"]) for m in first] == [True, False, False, False]
        await seats[1].send(json.dumps({"version": 0}))  # not seat 1's turn
        assert json.loads(await seats[1].recv()) == {"type": "error", "reason": "stale"}
        await seats[0].send(json.dumps({"version": 0}))
        after = [json.loads(await ws.recv()) for ws in seats]
        assert [m["version"] for m in after] == [1, 1, 1, 1]
        assert [bool(m["view"]["legal_json"]) for m in after] == [False, True, False, False]
    finally:
        for ws in seats:
            await ws.close()


async def test_a_keepalive_ping_goes_only_to_a_quiet_socket(floor: int) -> None:
    quiet, chatty = await asyncio.gather(
        ping_times(floor, "/g/1/0", seconds=1.5),
        ping_times(floor, "/g/2/0", seconds=1.5, chat=b'{"version": -1}'),
    )
    assert len(quiet) >= 3  # every 0.3 s
    assert chatty == []


async def test_settling_keeps_the_connected_sockets_objects_out_of_the_collectors_passes(
    floor: int,
) -> None:
    seats = [await connect(f"ws://127.0.0.1:{floor}/g/{g}/{s}") for g in range(3) for s in range(4)]
    try:
        async with httpx2.AsyncClient() as client:
            answer = await client.get(f"http://127.0.0.1:{floor}/settle")
        assert answer.status_code == 200
        kept = int(answer.text.split()[0])
        assert kept > 12 * 20  # the sockets' objects and the server's, frozen
        await seats[0].recv()
        await seats[0].send(json.dumps({"version": 0}))  # still serving
        assert json.loads(await seats[0].recv())["version"] == 1
    finally:
        for ws in seats:
            await ws.close()


async def test_the_load_client_sends_no_pings_of_its_own_and_answers_the_servers(
    floor: int,
) -> None:
    """The load client's sockets are a browser's: no keepalive of their own (the library's
    default pings every 20 s), and they stay open through the server's pings."""
    load = benchmark("load")
    ws = await load.open_socket(f"ws://127.0.0.1:{floor}/g/3/0", "", False)
    try:
        assert ws.keepalive_task is None
        assert json.loads(await ws.recv())["version"] == 0
        await asyncio.sleep(1.0)  # the floor pings a quiet socket every 0.3 s
        await ws.send(json.dumps({"version": 0}))
        assert json.loads(await ws.recv())["version"] == 1
    finally:
        await ws.close()
