"""The table socket: ``/ws/tables/{id}``. See docs/protocol.md for every message."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple
from urllib.parse import urlparse

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import TypeAdapter

from ...engine.errors import EngineError, NotationError
from ..deps import user_from_token
from ..security import SESSION_COOKIE
from . import service
from .models import GameTable
from .runtime import Connection, TableError, TableRuntime
from .schemas import Act, Chat, ClientMessage, Hello, Pause, Ping, Reset, Toggle

log = logging.getLogger("twentynine.ws")
MESSAGE = TypeAdapter(ClientMessage)
MAX_MESSAGE = 4096


def _origin_ok(ws: WebSocket) -> bool:
    """Refuse cross-site sockets: a browser always sends Origin; it must be this host."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True  # not a browser (bots, tests, tools): cookies are still required
    return urlparse(origin).netloc == ws.headers.get("host", "")


async def table_socket(ws: WebSocket) -> None:
    """A plain Starlette route (no FastAPI dependency machinery): the endpoint keeps only what
    the connection needs, so an idle socket holds little memory."""
    table_id = ws.path_params["table_id"]
    app = ws.app
    if not _origin_ok(ws):
        await _refuse(ws, 4403, "cross-site socket refused")
        return
    found = await _who_and_where(ws, table_id)
    if isinstance(found, _Refusal):
        await _refuse(ws, found.code, found.reason)
        return
    runtime, user_id, first_name = found
    await ws.accept()
    conn = Connection(
        user_id,
        first_name,
        runtime.seat_of(user_id),
        functools.partial(_send, ws),
        functools.partial(_close_for_snapshot, ws),
    )
    first = await runtime.connect(conn, _last_version(ws.query_params.get("last_version")))
    first["chat"] = [_chat(r) for r in await runtime.store.chat(table_id)]
    await _send(ws, first)
    del first
    conn.open()
    try:
        await _reader(ws, runtime, conn, app.state.settings.socket_messages_per_10s)
    except WebSocketDisconnect:
        pass
    finally:
        await _unless_stopped(runtime, lambda: runtime.disconnect(conn))
        await conn.stop()


class _Refusal(NamedTuple):
    code: int
    reason: str


async def _who_and_where(ws: WebSocket, table_id: str) -> tuple[TableRuntime, int, str] | _Refusal:
    """(the table's runtime, the user's id, first name), or why the socket is refused."""
    app = ws.app
    async with app.state.sessionmaker() as db:
        user = await user_from_token(db, ws.cookies.get(SESSION_COOKIE))
        # no id holds a NUL (PostgreSQL cannot even compare one); codes are ASCII
        row = await db.get(GameTable, table_id) if "\x00" not in table_id else None
        code = ws.query_params.get("code")
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


router = APIRouter()
router.add_websocket_route("/ws/tables/{table_id}", table_socket)


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


async def _send(ws: WebSocket, message: dict[str, Any]) -> None:
    """One JSON text frame (orjson: several times quicker than ``json`` for our states)."""
    await ws.send_text(orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode())


def _last_version(text: str | None) -> int | None:
    """The ``last_version`` query parameter: a plain number, else none (a fresh snapshot).
    ``str.isdigit`` alone lets "²" and 5000-digit numbers through to ``int``, which fails."""
    if text and text.isascii() and text.isdigit() and len(text) <= 18:
        return int(text)
    return None


async def _refuse(ws: WebSocket, code: int, reason: str) -> None:
    """Close with ``code`` (docs/protocol.md). A close before the handshake would reach the
    client as a bare HTTP 403, so the socket is accepted first; nothing is sent on it."""
    await ws.accept()
    await ws.close(code=code, reason=reason)


def _chat(row: Any) -> dict[str, Any]:
    from .runtime import chat_json

    return chat_json(row)


async def _close_for_snapshot(ws: WebSocket) -> None:
    with contextlib.suppress(Exception):
        await ws.close(code=4000, reason="reconnect for a fresh snapshot")


async def _reader(ws: WebSocket, runtime: TableRuntime, conn: Connection, limit: int) -> None:
    while True:
        text = await _receive(ws)
        now = time.monotonic()
        while conn.last_messages and now - conn.last_messages[0] > 10:
            conn.last_messages.popleft()
        if len(conn.last_messages) >= limit:
            _error(runtime, conn, "rate_limited", f"at most {limit} messages in 10 seconds")
            continue
        conn.last_messages.append(now)
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


async def _receive(ws: WebSocket) -> str | None:
    """The next frame's text; None for a binary frame (``receive_text`` fails on one)."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    return text if isinstance(text, str) else None


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
