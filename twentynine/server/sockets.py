"""uvicorn's WebSocket protocol (websockets' sans-I/O one), lighter for thousands of idle
sockets: every table socket stays open for a whole game, most of the time with nothing to do.

Per connection, uvicorn keeps an ``asyncio.Queue`` of received events (four deques, each
with a 64-slot block) and an ``asyncio.Event`` for write flow control (one more deque), and the
handshake's request and response (their headers) for the connection's whole life. Here the
queue and the event are small slotted objects that hold a list or a future only while used,
and the handshake is let go once the socket is accepted. A keepalive ping goes only to a peer
that has been quiet for a while, and a socket's first look comes at a random moment of the
interval's second half. A socket stops reading only when many messages wait unread (uvicorn's
stops after each one). Everything else is uvicorn's.

It also offers the app an ASGI extension, ``twentynine.send_now`` in the scope's
``extensions``: a plain function that writes one text frame (UTF-8 bytes) at once when the
socket is open and its transport takes more data, and answers False otherwise (the app then
uses the ASGI ``send``, which waits). A table sends every state to four or more sockets; doing
it without a task, a coroutine and a future for each is most of what sending costs. Such a
frame's header is written here (``text_frame``) rather than by the library's framing.

Used by ``twentynine serve`` through ``cli.uvicorn_options()``; tests run real servers with it.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.http11 import Request
from websockets.protocol import State

SEND_NOW = "twentynine.send_now"


def text_frame(text: bytes) -> bytes:
    """One unfragmented, unmasked text frame (RFC 6455, 5.2) of ``text`` (UTF-8), as a server
    sends it without extensions: the library's own framing builds a frame object, checks its
    flags and packs it in several steps, a few microseconds a message."""
    n = len(text)
    if n < 126:
        return b"".join((_TEXT_FIN, n.to_bytes(1, "big"), text))
    if n < 65536:
        return b"".join((_TEXT_FIN, b"\x7e", n.to_bytes(2, "big"), text))
    return b"".join((_TEXT_FIN, b"\x7f", n.to_bytes(8, "big"), text))


_TEXT_FIN = b"\x81"  # FIN, opcode 1 (text)


class Inbox:
    """What uvicorn's protocol asks of its ``asyncio.Queue``: ``put_nowait``, ``empty`` and
    ``get``, for one reader at a time (the ASGI app's ``receive``)."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: list[Any] = []
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: Any) -> None:
        self._items.append(item)
        self.wake()

    def wake(self) -> None:
        """Wake the reader, if one waits."""
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def empty(self) -> bool:
        return not self._items

    def qsize(self) -> int:
        return len(self._items)

    async def get(self) -> Any:
        while not self._items:
            await self.woken()
        return self._items.pop(0)

    async def woken(self) -> None:
        """Wait for the next item or ``wake`` (one reader at a time)."""
        if self._waiter is not None:
            raise RuntimeError("one reader at a time")
        self._waiter = asyncio.get_running_loop().create_future()
        try:
            await self._waiter
        finally:
            self._waiter = None


class Gate:
    """What uvicorn's protocol asks of its ``asyncio.Event`` (open while the transport takes
    more data): ``set``, ``clear``, ``is_set`` and ``wait``; waiters are kept only while the
    gate is shut."""

    __slots__ = ("_open", "_waiters")

    def __init__(self) -> None:
        self._open = True
        self._waiters: list[asyncio.Future[None]] | None = None

    def is_set(self) -> bool:
        return self._open

    def set(self) -> None:
        self._open = True
        waiters, self._waiters = self._waiters, None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(None)

    def clear(self) -> None:
        self._open = False

    async def wait(self) -> bool:
        if self._open:
            return True
        waiter = asyncio.get_running_loop().create_future()
        if self._waiters is None:
            self._waiters = []
        self._waiters.append(waiter)
        await waiter
        return True


class LeanWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol with the small queue and gate above, letting go of
    the handshake once the socket is accepted."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = Inbox()  # type: ignore[assignment]
        self.writable = Gate()  # type: ignore[assignment]
        #: when the peer last sent anything (the loop's clock)
        self.heard_at = self.loop.time()

    #: messages a socket's inbox holds, not yet read by the app, before the socket stops
    #: reading from the network (uvicorn's own stops after every message and starts again
    #: once the app has read it: two changes of what the event loop polls, each message)
    INBOX_HIGH = 16

    def data_received(self, data: bytes) -> None:
        self.heard_at = self.loop.time()
        super().data_received(data)

    def send_receive_event_to_app(self) -> None:
        """A whole message, to the app's inbox; reading stops only once ``INBOX_HIGH`` wait
        there (``receive`` starts it again when the app has read them all)."""
        frames, self.frames = self.frames, []
        if self.close_sent:
            return  # past the app's close, a message is dropped; reading goes on to the close
        data = frames[0] if len(frames) == 1 else b"".join(frames)
        if self.curr_msg_data_type == "text":
            try:
                text = data.decode()
            except UnicodeDecodeError:
                self.logger.warning("a text message that is not UTF-8: closing the socket")
                self.conn.send_close(1007)
                self.handle_parser_exception()
                return
            self.queue.put_nowait({"type": "websocket.receive", "text": text})
        else:
            self.queue.put_nowait({"type": "websocket.receive", "bytes": data})
        if not self.read_paused and self.queue.qsize() >= self.INBOX_HIGH:
            self.read_paused = True
            self.transport.pause_reading()

    def start_keepalive(self) -> None:
        """The first keepalive look at a random moment of the second half of the interval, not
        a whole interval after the socket opened: after a restart every client comes back
        within seconds, and their timers would otherwise come together, every interval, for as
        long as they stay (the load benchmark's floor, whose 4,000 sockets connect within 2 s,
        was held up 23-36 ms each time). A socket quiet since it opened is pinged then, and
        every interval after (the next ping follows the pong); one that spoke is looked at
        again an interval after it last did."""
        interval = self.ping_interval
        if interval is not None and interval > 0:
            first = random.uniform(interval / 2, interval)
            self.ping_timer = self.loop.call_later(first, self.send_keepalive_ping)

    def send_keepalive_ping(self) -> None:
        """Ping only a peer that has been quiet for half the interval or more: one that sent
        something since is alive, and is asked again an interval after it last spoke. (A
        player sends a move every few seconds; thousands of pings every interval cost the
        server a few percent of its time. The pong to the last ping counts as quiet, so an idle
        peer is pinged every interval as before.)"""
        interval = self.ping_interval
        if interval:
            quiet = self.loop.time() - self.heard_at
            if quiet < interval / 2 and not self.close_sent:
                self.ping_timer = self.loop.call_later(interval - quiet, self.send_keepalive_ping)
                return
        super().send_keepalive_ping()

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # none when the handshake was refused
        if scope is not None:
            scope["extensions"][SEND_NOW] = self.send_now

    def send_now(self, text: bytes) -> bool:
        """One text frame (``text``: UTF-8) written now, as the ASGI ``websocket.send`` would;
        False (nothing written) when it cannot be written at once."""
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or self.initial_response is not None
            or not self.writable.is_set()
        ):
            return False
        conn = self.conn
        if conn.extensions or conn.expect_continuation_frame or conn.debug:
            try:  # the library's own framing (not taken by our server: no compression)
                conn.send_text(text)
            except InvalidState:
                return False
            self.transport.write(b"".join(conn.data_to_send()))
            return True
        if conn.state is not State.OPEN:
            return False
        if conn.writes:  # anything the library still holds goes first
            self.transport.write(b"".join(conn.data_to_send()))
        self.transport.write(text_frame(text))
        return True

    async def send(self, message: Any) -> None:
        await super().send(message)
        if self.handshake_complete and getattr(self, "response", None) is not None:
            # accepted (or refused): the request and response are not read again
            self.request = None  # type: ignore[assignment]
            self.response = None  # type: ignore[assignment]
