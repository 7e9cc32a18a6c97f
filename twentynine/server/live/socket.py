"""The live channel's socket: ``/ws/me``, one per signed-in page. See docs/protocol.md.

A visitor (no session) may open it too, with ``?visitor=1``: such a page hears what is told to
everyone (``broadcast``: the tournaments' changes, the rated queue's count) and what it follows
(``watch``: the public tables, the counts), nothing stored and nothing of anyone's own.

Served straight from ASGI like the table socket (``TwentyNineApp`` hands it over before any
middleware), with the table socket's cookie and origin checks. Every signed-in page keeps one
open for as long as it is open, so a connection holds little: its socket, its reader's task,
and a list of what waits to be written (written at once when the transport takes it, by a task
only while it does not).

On connect: subscribe first, then read what the page missed from the store (after the
``last_id`` it gives), send ``hello`` and the missed messages, then what came meanwhile,
dropping what the catch-up already sent."""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import json
import logging
import time
from typing import Any

from pydantic import TypeAdapter
from starlette.types import Receive, Scope, Send

from ..accounts.models import User
from ..deps import user_from_token
from ..security import SESSION_COOKIE, token_hash
from ..tables.ws import Disconnected, Socket, _last_version, _origin_ok, _refuse, _short
from .hub import LiveHub, Message, encode
from .schemas import ClientMessage, Hello, Ping, Watch
from .store import CatchUp

log = logging.getLogger("twentynine.live")
PATH = "/ws/me"
MESSAGE: TypeAdapter[Any] = TypeAdapter(ClientMessage)
MAX_MESSAGE = 1024
#: visitors' pages a process keeps open at most (a visitor needs no account)
MAX_VISITORS = 20000
#: messages a page may have waiting; one that falls further behind is closed (code 4000) and
#: reconnects, catching up from the store
OUTBOX_LIMIT = 256
CLOSE_REASONS = {4000: "fell behind: reconnect and catch up", 4401: "signed out"}


def is_live_socket(scope: Scope) -> bool:
    return bool(scope["type"] == "websocket" and scope["path"] == PATH)


class PageSocket(Socket):
    """The table socket's ASGI wrapper, writing frames already encoded."""

    __slots__ = ()

    def write_now(self, data: bytes) -> bool:
        send_now = self._send_now
        return send_now is not None and send_now(data)

    async def write(self, data: bytes) -> None:
        try:
            await self._send({"type": "websocket.send", "text": data.decode()})
        except OSError as e:
            raise Disconnected() from e


class Page:
    """One open ``/ws/me``: a subscriber of the hub for its person."""

    __slots__ = (
        "buffer",
        "caught_to",
        "closed",
        "last_messages",
        "outbox",
        "sending",
        "session",
        "user_id",
        "ws",
    )

    def __init__(self, ws: PageSocket, user_id: int | None, session: str = "") -> None:
        self.ws = ws
        #: None: a visitor's page
        self.user_id = user_id
        #: the hash of the session it was opened with (signing out closes that session's pages)
        self.session = session
        #: while catching up, what the hub delivers waits here
        self.buffer: list[tuple[Message, bytes]] | None = []
        #: the newest number a catch-up sent this page up to: a numbered message up to it was
        #: in that catch-up, and is not taken again when the hub hands it over afterwards (it
        #: is stored before it is handed over, here or, later still, by another process's
        #: relay)
        self.caught_to = 0
        #: frames to write; a number closes the socket with that code (4000: fell behind,
        #: reconnect and catch up; 4401: signed out)
        self.outbox: list[bytes | int | None] = []
        self.sending: asyncio.Task[None] | None = None
        self.closed = False
        self.last_messages: list[float] = []

    def deliver(self, message: Message, data: bytes) -> None:
        if self.closed:
            return
        message_id = message.get("seq")
        if message_id is not None and message_id <= self.caught_to:
            return  # sent in the catch-up already
        if self.buffer is not None:
            self.buffer.append((message, data))
            return
        self.push(data)

    def push(self, data: bytes) -> None:
        if self.closed:
            return
        if len(self.outbox) >= OUTBOX_LIMIT:
            log.warning("live: closing a page that does not keep up (user %s)", self.user_id)
            self.closed = True
            self.outbox.append(4000)
        else:
            self.outbox.append(data)
        self._kick()

    def caught_up(self, upto: int | None) -> None:
        """The catch-up is sent up to id ``upto`` (None: nothing was asked for, nothing sent):
        what came meanwhile follows, less what was sent."""
        if upto is not None:
            self.caught_to = max(self.caught_to, upto)
        buffered, self.buffer = self.buffer or [], None
        for message, data in buffered:
            message_id = message.get("seq")
            if message_id is None or message_id > self.caught_to:
                self.push(data)

    def _kick(self) -> None:
        if self.sending is not None and not self.sending.done():
            return  # the sending task takes what was added
        outbox = self.outbox
        try:
            while outbox and isinstance(outbox[0], bytes) and self.ws.write_now(outbox[0]):
                del outbox[0]
        except Exception:
            self.closed = True
            outbox.clear()
            return
        if outbox:
            self.sending = asyncio.create_task(self._drain())

    async def _drain(self) -> None:
        try:
            while self.outbox:
                data = self.outbox.pop(0)
                if data is None:  # as a table connection's outbox says it: reconnect
                    data = 4000
                if isinstance(data, int):
                    self.outbox.clear()
                    reason = CLOSE_REASONS.get(data, "")
                    with contextlib.suppress(Exception):
                        await self.ws.close(data, reason)
                    return
                await self.ws.write(data)
        except Exception:
            self.closed = True
            self.outbox.clear()

    def end(self, code: int = 4401) -> None:
        """Close the socket (the person signed out everywhere, or their account went)."""
        if not self.closed:
            self.closed = True
            self.outbox.append(code)
            self._kick()

    async def stop(self) -> None:
        self.closed = True
        self.outbox.clear()
        task = self.sending
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


async def live_socket(app: Any, scope: Scope, receive: Receive, send: Send) -> None:
    """Serve one ``/ws/me`` for ``app``."""
    ws = PageSocket(scope, receive, send)
    if not _origin_ok(ws):
        await _refuse(ws, 4403, "cross-site socket refused")
        return
    who = await _who(app, ws)
    if who is None:
        if ws.query.get("visitor") == "1":
            await _visitor(app, ws, scope)
        else:
            await _refuse(ws, 4401, "sign in first")
        return
    user_id, name = who
    session = token_hash(ws.cookie(SESSION_COOKIE) or "")
    last_id = _last_version(ws.query.get("last_id"))
    ws.forget_handshake()
    scope["headers"] = []  # the server's scope outlives the handshake too
    try:
        await ws.accept()
    except Disconnected:
        return
    hub: LiveHub = app.state.live
    page = Page(ws, user_id, session)
    hub.attach(user_id, page)  # first: nothing sent from now on is missed
    opened = False
    try:
        await _catch_up(hub, page, last_id, greet=True)
        hub.presence.page_opened(user_id, name)
        opened = True
        await _reader(hub, page, app.state.settings.socket_messages_per_10s)
    except Disconnected:
        pass
    finally:
        hub.detach(user_id, page)
        hub.unwatch_all(page)
        if opened:
            hub.presence.page_closed(user_id)
        await page.stop()


async def _visitor(app: Any, ws: PageSocket, scope: Scope) -> None:
    """Serve a visitor's page: no catch-up (nothing is stored for a visitor), no presence."""
    hub: LiveHub = app.state.live
    if len(hub.visitors) >= MAX_VISITORS:
        await _refuse(ws, 4429, "too many visitors; sign in, or try again later")
        return
    ws.forget_handshake()
    scope["headers"] = []
    try:
        await ws.accept()
    except Disconnected:
        return
    page = Page(ws, None)
    hub.visitors.add(page)
    try:
        await _catch_up(hub, page, None, greet=True)
        await _reader(hub, page, app.state.settings.socket_messages_per_10s)
    except Disconnected:
        pass
    finally:
        hub.visitors.discard(page)
        hub.unwatch_all(page)
        await page.stop()


async def _who(app: Any, ws: PageSocket) -> tuple[int, str] | None:
    """The signed-in person's id and first name (in a function of its own: the database
    session and the account's row are let go here, not kept by the socket's long frame)."""
    async with app.state.sessionmaker() as db:
        user = await user_from_token(db, ws.cookie(SESSION_COOKIE))
        return None if user is None else (user.id, user.first_name)


async def _catch_up(hub: LiveHub, page: Page, last_id: int | None, greet: bool) -> None:
    """``hello`` (on connect, or when asked), then what the page missed after ``last_id``."""
    if page.buffer is None:
        page.buffer = []
    store = hub.store
    if page.user_id is None or store is None:  # a visitor's page: nothing is stored for it
        catch = CatchUp([], 0, True)
    else:
        catch = await store.since(page.user_id, last_id)
    hello: Message = {
        "type": "hello",
        "user_id": page.user_id,
        "last_id": catch.last_id,
        "complete": catch.complete,
        "missed": len(catch.messages),
    }
    if greet:
        hello.update(hub.presence.counts)
        if page.user_id is not None:
            hello["friends"] = await hub.presence.friend_states(page.user_id)
    page.push(encode(hello))
    for message in catch.messages:
        page.push(encode(message))
    # a first page asked for nothing: whatever reaches it from now on is news to it
    page.caught_up(None if last_id is None else catch.last_id)


async def _reader(hub: LiveHub, page: Page, limit: int) -> None:
    ws = page.ws
    while True:
        text = await ws.receive_text()
        if page.closed:
            raise Disconnected()
        now = time.monotonic()
        recent = page.last_messages
        if recent and now - recent[0] > 10:
            del recent[: bisect.bisect_left(recent, now - 10)]
        if len(recent) >= limit:
            _error(page, "rate_limited", f"at most {limit} messages in 10 seconds")
            continue
        recent.append(now)
        if text is None:
            _error(page, "malformed", "messages are JSON in text frames, not binary")
            continue
        if len(text) > MAX_MESSAGE:
            _error(page, "too_large", f"messages are at most {MAX_MESSAGE} characters")
            continue
        try:
            message = MESSAGE.validate_python(json.loads(text))
        except (ValueError, RecursionError) as e:
            _error(page, "malformed", _short(e))
            continue
        if isinstance(message, Hello):
            await _catch_up(hub, page, message.last_id, greet=False)
        elif isinstance(message, Watch):
            if message.lobby is not None:
                hub.watch("lobby", page, message.lobby)
            if message.leaderboard is not None:
                hub.watch("leaderboard", page, message.leaderboard)
            if message.history is not None:  # (only one's own deals are told: ``to_watchers``)
                hub.watch("history", page, message.history)
            if message.counts is not None:
                hub.watch("counts", page, message.counts)
                if message.counts:  # the counts may have changed since hello: say them now
                    page.push(encode({"type": "counts", **hub.presence.counts}))
            for topic, on, what in (
                ("tables", message.tables, "every table"),
                ("accounts", message.accounts, "the accounts"),
            ):
                if on is None:
                    continue
                if on and not await _is_admin(hub, page.user_id):
                    _error(page, "forbidden", f"only admins follow {what}")
                else:
                    hub.watch(topic, page, on)
        elif isinstance(message, Ping):
            page.push(b'{"type":"pong"}')


async def _is_admin(hub: LiveHub, user_id: int | None) -> bool:
    """Whether ``user_id`` is an admin now (asked when a page follows every table)."""
    if user_id is None or hub.maker is None:
        return False
    async with hub.maker() as db:
        user = await db.get(User, user_id)
        return user is not None and user.is_admin and not user.disabled


def _error(page: Page, reason: str, message: str) -> None:
    page.push(encode({"type": "error", "reason": reason, "message": message}))
