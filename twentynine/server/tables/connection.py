"""One WebSocket of a table: who it is, what it sees, and its outbox."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

#: messages a connection may have waiting; a client that falls further behind is dropped
#: (it reconnects and gets a fresh snapshot)
OUTBOX_LIMIT = 256

#: what an outbox holds: a message, the JSON text of one, or None (close for a snapshot)
Message = dict[str, Any] | bytes


def encoded(message: Any) -> bytes:
    """A message (or any JSON value) as the JSON text a socket sends; text already encoded
    as it is (orjson: several times quicker than ``json`` for our states)."""
    if isinstance(message, bytes):
        return message
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)


def to_keep(text: bytes) -> bytes:
    """``text`` as a copy of exactly its length, for JSON text that is kept for long (a table's
    catch-up list, a player's "you"): what orjson returns holds about 4 KiB of memory however
    short the text (4,000 kept 87-byte texts: 16 MB of RSS, their copies 0.7 MB)."""
    return bytes(memoryview(text))


@dataclass(eq=False, slots=True)
class Connection:
    """One WebSocket: who it is, what it sees, and what waits to be sent to it.

    Messages wait in ``outbox`` and go out in order: at once through ``send_now`` when the
    socket has one (a plain function that writes the frame, or answers False when it cannot
    now), else from a sending task that runs only while there is something to send (an idle
    connection holds no task). ``None`` in the outbox closes the socket (code 4000: reconnect
    for a fresh snapshot). Nothing is sent before ``open`` is called (the first message, the
    snapshot, goes out before anything queued). Thousands sit idle at once, so the fields are
    small: slots, and lists rather than deques (an empty deque holds a 64-slot block)."""

    user_id: int | None
    name: str
    seat: int | None  # the seat it plays, or None for a spectator
    send: Callable[[Message], Awaitable[None]]
    close_socket: Callable[[], Awaitable[None]] | None = None
    send_now: Callable[[Message], bool] | None = None
    toggled: frozenset[int] = frozenset()
    outbox: list[Message | None] = field(default_factory=list)
    #: when its latest messages came (monotonic seconds), for the socket's rate limit
    last_messages: list[float] = field(default_factory=list)
    closed: bool = False
    opened: bool = False
    sending: asyncio.Task[None] | None = None
    #: a player's "you" as last sent: (the seat it was for, its JSON text); see
    #: ``Broadcast._you_text``
    you: tuple[int, bytes] | None = None
    #: the ids of the chat lines its first message showed (``shown_chat``)
    chat_ids: frozenset[int] = frozenset()

    @property
    def spectator(self) -> bool:
        return self.seat is None

    def shown_chat(self, ids: frozenset[int]) -> None:
        """The first message shows the chat lines ``ids`` (read once the connection was
        added, so that no line said meanwhile is missed): a line among them that also comes
        as said (queued already, or from another process later) is not sent again."""
        self.chat_ids = ids
        self.outbox = [m for m in self.outbox if not self.shows(m)]

    def shows(self, message: Message | None) -> bool:
        """Whether ``message`` is a chat line the first message showed already."""
        return (
            isinstance(message, dict)
            and message.get("type") == "chat"
            and message["line"].get("id") in self.chat_ids
        )

    def open(self) -> None:
        self.opened = True
        self.kick()

    def kick(self) -> None:
        if not self.opened or not self.outbox:
            return
        if self.sending is not None and not self.sending.done():
            return  # the sending task takes what was added
        outbox, send_now = self.outbox, self.send_now
        if send_now is not None:
            try:
                while outbox and outbox[0] is not None and send_now(outbox[0]):
                    del outbox[0]
            except Exception:
                self._gone()
                return
        if outbox:
            self.sending = asyncio.create_task(self._drain())

    async def _drain(self) -> None:
        try:
            while self.outbox:
                message = self.outbox.pop(0)  # a short list: most often one message
                if message is None:
                    self.outbox.clear()
                    if self.close_socket is not None:
                        await self.close_socket()
                    return
                await self.send(message)
        except Exception:
            self._gone()

    def _gone(self) -> None:
        """A write failed: the socket went away (its reader ends the connection)."""
        self.closed = True
        self.outbox.clear()

    async def stop(self) -> None:
        """The socket ended: stop sending."""
        self.closed = True
        self.outbox.clear()
        task = self.sending
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
