"""The table socket: ``/ws/tables/{id}``. See docs/protocol.md for every message.

The socket is served straight from ASGI (``TwentyNineApp`` hands it ``(scope, receive, send)``
before any middleware or router): thousands of sockets sit idle for minutes, and every layer
in between would keep a frame and wrap every message, each connection's life long."""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple
from urllib.parse import urlparse

from pydantic import TypeAdapter
from starlette.datastructures import Headers, QueryParams
from starlette.requests import cookie_parser
from starlette.types import Receive, Scope, Send

from ...engine.errors import EngineError, NotationError
from ..deps import user_from_token
from ..safety.hooks import visible_lines
from ..security import SESSION_COOKIE
from ..sockets import SEND_NOW
from . import service
from .connection import Message, encoded
from .models import GameTable
from .runtime import Connection, TableError, TableRuntime
from .schemas import Act, Back, Chat, ClientMessage, Hello, Pause, Ping, Reset, Toggle

log = logging.getLogger("twentynine.ws")
MESSAGE = TypeAdapter(ClientMessage)
MAX_MESSAGE = 4096
PATH_PREFIX = "/ws/tables/"


def table_id_of(scope: Scope) -> str | None:
    """The table id when ``scope`` is a table socket (``/ws/tables/{id}``), else None."""
    if scope["type"] != "websocket":
        return None
    path: str = scope["path"]
    if not path.startswith(PATH_PREFIX):
        return None
    table_id = path[len(PATH_PREFIX) :]
    return table_id if table_id and "/" not in table_id else None


class Disconnected(Exception):
    """The client went away (or closed the socket)."""


class Socket:
    """One table socket over plain ASGI: what the handler reads of the handshake, and the
    four things it does (accept, receive a text, send a text, close)."""

    __slots__ = ("_receive", "_send", "_send_now", "headers", "query")

    def __init__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self._receive = receive
        self._send = send
        #: the server's synchronous write, where it has one (``server/sockets.py``)
        self._send_now: Callable[[bytes], bool] | None = scope.get("extensions", {}).get(SEND_NOW)
        self.headers = Headers(scope=scope)
        self.query = QueryParams(scope.get("query_string", b""))

    def forget_handshake(self) -> None:
        """Drop the handshake's headers: an idle connection keeps only its socket."""
        self.headers = Headers()
        self.query = QueryParams()

    def cookie(self, name: str) -> str | None:
        return cookie_parser(self.headers.get("cookie", "")).get(name)

    async def accept(self) -> None:
        message = await self._receive()
        if message["type"] != "websocket.connect":
            raise Disconnected()
        await self._send({"type": "websocket.accept"})

    async def receive_text(self) -> str | None:
        """The next message's text; None for a binary one. Raises Disconnected at the end."""
        message = await self._receive()
        if message["type"] == "websocket.disconnect":
            raise Disconnected()
        text = message.get("text")
        return text if isinstance(text, str) else None

    def send_json_now(self, message: Message) -> bool:
        """Write the message at once if the server can; False if it must wait (``send_json``)."""
        send_now = self._send_now
        return send_now is not None and send_now(encoded(message))

    async def send_json(self, message: Message) -> None:
        try:
            await self._send({"type": "websocket.send", "text": encoded(message).decode()})
        except OSError as e:  # uvicorn's ClientDisconnected
            raise Disconnected() from e

    async def close(self, code: int, reason: str = "") -> None:
        await self._send({"type": "websocket.close", "code": code, "reason": reason})

    async def close_for_snapshot(self) -> None:
        with contextlib.suppress(Exception):
            await self.close(4000, "reconnect for a fresh snapshot")


def _origin_ok(ws: Socket) -> bool:
    """Refuse cross-site sockets: a browser always sends Origin; it must be this host."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True  # not a browser (bots, tests, tools): cookies are still required
    return urlparse(origin).netloc == ws.headers.get("host", "")


async def table_socket(app: Any, table_id: str, scope: Scope, receive: Receive, send: Send) -> None:
    """Serve one table socket for ``app`` (see the module's note)."""
    ws = Socket(scope, receive, send)
    if not _origin_ok(ws):
        await _refuse(ws, 4403, "cross-site socket refused")
        return
    found = await _who_and_where(app, ws, table_id)
    if isinstance(found, _Refusal):
        await _refuse(ws, found.code, found.reason)
        return
    runtime, user_id, first_name = found
    last_version = _last_version(ws.query.get("last_version"))
    ws.forget_handshake()
    scope["headers"] = []  # the server's scope outlives the handshake too
    try:
        await ws.accept()
    except Disconnected:
        return
    conn = Connection(
        user_id,
        first_name,
        runtime.seat_of(user_id),
        ws.send_json,
        ws.close_for_snapshot,
        ws.send_json_now,
    )
    # who is at a table, for their friends' pages (live/presence.py)
    at_table = app.state.live.presence.sat(user_id, first_name, runtime, conn.seat is not None)
    try:
        first = await runtime.connect(conn, last_version)
        lines = await visible_lines(
            runtime.store.maker, user_id, await runtime.store.chat(table_id)
        )
        first["chat"] = [_chat(r) for r in lines]
        conn.shown_chat(frozenset(r.id for r in lines))
        await ws.send_json(first)
        del first
        conn.open()
        await _reader(ws, runtime, conn, app.state.settings.socket_messages_per_10s)
    except Disconnected:
        pass
    finally:
        app.state.live.presence.rose(at_table)
        try:
            await _unless_stopped(runtime, lambda: runtime.disconnect(conn))
        finally:  # even if telling the others failed (Redis away, say)
            await conn.stop()
            if runtime.notices is not None:  # "your turn", if they left in the middle of it
                runtime.notices.left(runtime, conn.seat)


class _Refusal(NamedTuple):
    code: int
    reason: str


async def _who_and_where(
    app: Any, ws: Socket, table_id: str
) -> tuple[TableRuntime, int, str] | _Refusal:
    """(the table's runtime, the user's id, first name), or why the socket is refused."""
    async with app.state.sessionmaker() as db:
        user = await user_from_token(db, ws.cookie(SESSION_COOKIE))
        # no id holds a NUL (PostgreSQL cannot even compare one); codes are ASCII
        row = await db.get(GameTable, table_id) if "\x00" not in table_id else None
        code = ws.query.get("code")
        code = code if code is None or code.isascii() else ""
        allowed = row is not None and await service.can_view(db, row, user, code)
    if user is None:
        return _Refusal(4401, "sign in first")
    if not allowed:
        return _Refusal(4404, "no such table")
    runtime: TableRuntime | None = await app.state.tables.get(table_id)
    if runtime is None:
        return _Refusal(4404, "no such table")
    return runtime, user.id, user.first_name


async def _unless_stopped(runtime: TableRuntime, command: Callable[[], Awaitable[None]]) -> None:
    """Run ``command`` on the table's queue unless the table stops first: a closed table's
    queue runs nothing more, and waiting on it would keep this socket's task forever."""
    worker = runtime.worker
    if worker is None or worker.done():
        return
    task = asyncio.ensure_future(command())
    await asyncio.wait({task, worker}, return_when=asyncio.FIRST_COMPLETED)
    if not task.done():
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        return
    task.result()


def _last_version(text: str | None) -> int | None:
    """The ``last_version`` query parameter: a plain number, else none (a fresh snapshot).
    ``str.isdigit`` alone lets "²" and 5000-digit numbers through to ``int``, which fails."""
    if text and text.isascii() and text.isdigit() and len(text) <= 18:
        return int(text)
    return None


async def _refuse(ws: Socket, code: int, reason: str) -> None:
    """Close with ``code`` (docs/protocol.md). A close before the handshake would reach the
    client as a bare HTTP 403, so the socket is accepted first; nothing is sent on it."""
    with contextlib.suppress(Disconnected, OSError):
        await ws.accept()
        await ws.close(code, reason)


def _chat(row: Any) -> dict[str, Any]:
    from .runtime import chat_json

    return chat_json(row)


async def _reader(ws: Socket, runtime: TableRuntime, conn: Connection, limit: int) -> None:
    while True:
        text = await ws.receive_text()
        now = time.monotonic()
        recent = conn.last_messages
        if recent and now - recent[0] > 10:
            del recent[: bisect.bisect_left(recent, now - 10)]
        if len(recent) >= limit:
            _error(runtime, conn, "rate_limited", f"at most {limit} messages in 10 seconds")
            continue
        recent.append(now)
        if text is None:
            _error(runtime, conn, "malformed", "messages are JSON in text frames, not binary")
            continue
        if len(text) > MAX_MESSAGE:
            _error(runtime, conn, "too_large", f"messages are at most {MAX_MESSAGE} characters")
            continue
        try:
            message = MESSAGE.validate_python(json.loads(text))
        # not JSON (or nested too deep), or not a message (pydantic's ValidationError)
        except (ValueError, RecursionError) as e:
            _error(runtime, conn, "malformed", _short(e))
            continue
        try:
            await _handle(runtime, conn, message)
        except TableError as e:
            _error(runtime, conn, e.reason, e.message)
        except NotationError as e:
            _error(runtime, conn, "malformed", str(e))
        except EngineError as e:
            _error(runtime, conn, getattr(e, "reason", "illegal"), str(e))


async def _handle(runtime: TableRuntime, conn: Connection, message: Any) -> None:
    if isinstance(message, Act):
        await runtime.act(conn, message.model_dump(exclude_none=True))
    elif isinstance(message, Chat):
        if "\x00" in message.text:  # no database text column holds a NUL (PostgreSQL fails)
            raise TableError("malformed", "chat lines cannot hold NUL characters")
        await runtime.chat(conn, message.text)
    elif isinstance(message, Toggle):
        await runtime.toggle(conn, message.seat)
    elif isinstance(message, Reset):
        await runtime.reset(conn.user_id, message.what)
    elif isinstance(message, Pause):
        await runtime.pause(conn.user_id, message.type == "pause")
    elif isinstance(message, Back):
        await runtime.back(conn.user_id, conn.seat)
    elif isinstance(message, Hello):
        last = message.last_version

        async def hello() -> None:  # in the table's order: never a state not yet stored
            runtime.push(conn, runtime.catch_up(conn, last))

        await runtime.submit(hello)
    elif isinstance(message, Ping):
        runtime.push(conn, {"type": "pong", "version": runtime.version})


def _error(runtime: TableRuntime, conn: Connection, reason: str, message: str) -> None:
    runtime.push(conn, {"type": "error", "reason": reason, "message": message})


def _short(e: Exception) -> str:
    text = str(e)
    return text if len(text) < 300 else text[:297] + "..."
