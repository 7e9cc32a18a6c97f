"""A WebSocket client for tests that must see the frames themselves (keepalive pings), which the
websockets library's own clients answer out of sight."""

from __future__ import annotations

import asyncio

from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.uri import parse_uri


async def ping_times(
    port: int, path: str, seconds: float, chat: bytes | None = None
) -> list[float]:
    """When (seconds after its handshake) a client of ``ws://127.0.0.1:{port}{path}`` hears
    each keepalive ping in ``seconds``, answering each, sending the text ``chat`` every 20 ms
    if given, else nothing."""
    protocol = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}{path}"))
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    protocol.send_request(protocol.connect())
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    opened: float | None = None
    heard: list[float] = []
    try:
        while loop.time() < deadline:
            if chat is not None and protocol.state is State.OPEN:
                protocol.send_text(chat)
            writer.write(b"".join(protocol.data_to_send()))  # with the pongs owed
            try:
                data = await asyncio.wait_for(reader.read(65536), 0.02)
            except TimeoutError:
                continue
            protocol.receive_data(data)
            if opened is None and protocol.state is State.OPEN:
                opened = loop.time()
            for event in protocol.events_received():
                if isinstance(event, Frame) and event.opcode is Opcode.PING:
                    assert opened is not None
                    heard.append(loop.time() - opened)
    finally:
        writer.close()
    return heard
