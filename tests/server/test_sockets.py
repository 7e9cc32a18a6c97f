"""The lighter WebSocket protocol (server/sockets.py): its queue and gate, and the
``twentynine.send_now`` extension under a real uvicorn server."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from collections.abc import AsyncIterator
from typing import Any

import pytest
import uvicorn
from websockets.asyncio.client import connect
from websockets.frames import Frame, Opcode

from tests.wsprobe import ping_times
from twentynine.server.cli import uvicorn_options
from twentynine.server.sockets import SEND_NOW, Gate, Inbox, LeanWebSocketProtocol, text_frame


async def test_inbox_hands_items_over_in_order_and_wakes_its_reader() -> None:
    inbox = Inbox()
    assert inbox.empty()
    reader = asyncio.ensure_future(inbox.get())
    await asyncio.sleep(0)
    assert not reader.done()  # waits for an item
    inbox.put_nowait("a")
    inbox.put_nowait("b")
    assert await reader == "a"
    assert inbox.qsize() == 1
    assert await inbox.get() == "b"
    assert inbox.empty()


async def test_inbox_refuses_a_second_reader_and_survives_a_cancelled_one() -> None:
    inbox = Inbox()
    first = asyncio.ensure_future(inbox.get())
    await asyncio.sleep(0)
    with pytest.raises(RuntimeError, match="one reader"):
        await inbox.get()
    first.cancel()
    await asyncio.sleep(0)
    inbox.put_nowait(1)
    assert await inbox.get() == 1  # the cancelled reader left no waiter behind


async def test_gate_holds_waiters_while_shut_and_lets_all_through_when_opened() -> None:
    gate = Gate()
    assert gate.is_set()
    assert await gate.wait()  # open: no wait
    gate.clear()
    waiters = [asyncio.ensure_future(gate.wait()) for _ in range(3)]
    await asyncio.sleep(0)
    assert not any(w.done() for w in waiters)
    gate.set()
    assert await asyncio.gather(*waiters) == [True, True, True]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.asynccontextmanager
async def _serving(app: Any, **options: Any) -> AsyncIterator[int]:
    """``app`` served by uvicorn in a thread as ``twentynine serve`` runs it (with ``options``
    over its own): the port, until the block ends."""
    port = _free_port()
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="off",
        **{**uvicorn_options(), **options},
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(200):
            if server.started:
                break
            await asyncio.sleep(0.02)
        yield port
    finally:
        server.should_exit = True
        await asyncio.to_thread(thread.join, 10)


#: payload lengths around each of a frame header's three length forms (RFC 6455, 5.2)
SIZES = [0, 125, 126, 65535, 65536, 70000]


def test_a_text_frame_is_what_the_library_would_send() -> None:
    for n in SIZES:
        text = ("é" * n).encode()[:n]
        expected = Frame(Opcode.TEXT, text).serialize(mask=False, extensions=[])
        assert text_frame(text) == expected, n


async def test_send_now_writes_frames_at_once_under_uvicorn() -> None:
    seen: dict[str, Any] = {}

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            return
        send_now = scope["extensions"].get(SEND_NOW)
        seen["has"] = send_now is not None
        seen["before_accept"] = send_now(b"early") if send_now else None
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        seen["now"] = [send_now(b'{"n":1}'), send_now("καλημέρα".encode())]
        seen["sizes"] = [send_now(b"x" * n) for n in SIZES]  # every length form of the header
        await send({"type": "websocket.send", "text": "after"})  # the ASGI way still works
        message = await receive()
        seen["received"] = message.get("text")
        await send({"type": "websocket.close", "code": 1000})
        seen["after_close"] = send_now(b"late")

    async with _serving(app) as port, connect(f"ws://127.0.0.1:{port}/x") as ws:
        got = [await ws.recv() for _ in range(3 + len(SIZES))]
        await ws.send("hi")
        await asyncio.sleep(0.1)
    assert got == ['{"n":1}', "καλημέρα", *("x" * n for n in SIZES), "after"]
    assert seen == {
        "has": True,
        "before_accept": False,  # nothing goes out before the handshake
        "now": [True, True],
        "sizes": [True] * len(SIZES),
        "received": "hi",
        "after_close": False,
    }


async def test_a_socket_stops_reading_only_when_many_messages_wait() -> None:
    """uvicorn's protocol stops reading after every message until the app has read it; ours
    reads on, and stops only once ``INBOX_HIGH`` messages wait unread, then starts again when
    the app has read them: every message arrives, in order."""
    high = LeanWebSocketProtocol.INBOX_HIGH
    count = 3 * high
    seen: dict[str, Any] = {}

    async def waiting(protocol: Any, n: int) -> None:
        for _ in range(500):
            if protocol.queue.qsize() >= n:
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"never {n} messages waiting")

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            return
        protocol = scope["extensions"][SEND_NOW].__self__
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        await waiting(protocol, 1)
        seen["one_unread"] = protocol.read_paused
        await waiting(protocol, high)
        seen["many_unread"] = (protocol.read_paused, protocol.queue.qsize())
        seen["texts"] = [(await receive())["text"] for _ in range(count)]
        seen["all_read"] = protocol.read_paused
        await send({"type": "websocket.send", "text": "done"})

    async with _serving(app) as port, connect(f"ws://127.0.0.1:{port}/x") as ws:
        await ws.send("m0")
        for _ in range(500):  # the app looks while the first message is unread
            if "one_unread" in seen:
                break
            await asyncio.sleep(0.01)
        for i in range(1, count):
            await ws.send(f"m{i}")
        assert await ws.recv() == "done"
    assert seen["one_unread"] is False  # reading goes on
    paused, unread = seen["many_unread"]
    # stopped once that many wait (the rest of a chunk already read still goes in)
    assert paused is True and unread >= high
    assert seen["texts"] == [f"m{i}" for i in range(count)]
    assert seen["all_read"] is False  # reading again


async def _accepting(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """An app that accepts a socket and reads until it ends."""
    if scope["type"] != "websocket":
        return
    assert (await receive())["type"] == "websocket.connect"
    await send({"type": "websocket.accept"})
    while (await receive())["type"] != "websocket.disconnect":
        pass


async def test_a_keepalive_ping_goes_only_to_a_peer_that_has_been_quiet() -> None:
    async with _serving(_accepting, ws_ping_interval=0.3, ws_ping_timeout=5.0) as port:
        quiet, chatty = await asyncio.gather(
            ping_times(port, "/x", seconds=1.5),
            ping_times(port, "/x", seconds=1.5, chat=b"x"),
        )
    assert len(quiet) >= 3  # every 0.3 s, as uvicorn does
    assert chatty == []


async def test_sockets_opened_together_are_first_pinged_at_spread_moments() -> None:
    """After a restart every client comes back at once: their keepalive pings must not come
    together (each first one at a random moment of the interval's second half)."""

    async with _serving(_accepting, ws_ping_interval=0.4, ws_ping_timeout=5.0) as port:
        times = await asyncio.gather(*(ping_times(port, "/x", seconds=1.0) for _ in range(8)))
    assert all(times)  # each heard one
    heard = [t[0] for t in times]
    assert min(heard) >= 0.2 - 0.02  # not before half the interval
    assert max(heard) - min(heard) > 0.02  # not all at the same moment (uvicorn: 0.4 s each)
