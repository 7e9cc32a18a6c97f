"""The hub every domain tells of a change that someone's open pages show.

Domains call ``app.state.live``:

- ``await live.send(user_ids, message)``: to these people, on every page they have open;
- ``await live.broadcast(message)``: to every open page, visitors' too (no one's own news);
- ``await live.to_watchers(topic, message)``: to the pages that follow ``topic`` (``lobby``: the
  public tables; ``counts``: the people online and playing; a page says so on its socket, so
  thousands of other pages are not told).

A message is one JSON object with ``type`` at its top and the ids and names it concerns. The hub
delivers it to the ``/ws/me`` sockets of this process and, through the relay (Redis), to those
of the site's other processes.

Once started (the app's lifespan), what ``send`` sends is also stored: each person's copy gets
the next number (``seq``) of their own stream, so a page that reconnects says the last one it
saw and gets what it missed (``live/socket.py``). Sends are written in batches by one writer
task (the sends that come while a transaction is under way go together in the next one);
``send`` returns once its message is stored and handed to every process. ``broadcast`` and
``tell`` (presence: what is true now, not a change to catch up on) are not stored and carry no
``seq``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

import orjson
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from .presence import Presence
from .relay import Envelope, LocalRelay, Relay
from .store import MessageStore

log = logging.getLogger("twentynine.live")

Message = dict[str, Any]
#: messages that change who is whose friend (the presence's cache of friends is dropped)
FRIEND_TYPES = frozenset(
    {"friend_accepted", "friend_removed", "friend_request", "friend_declined", "friend_cancelled"}
)
PRUNE_EVERY_S = 600.0


class Subscriber(Protocol):
    """A page's socket (or a test's queue): takes each message with its encoding (UTF-8 JSON)."""

    def deliver(self, message: Message, data: bytes) -> None: ...


class _QueueSubscriber:
    __slots__ = ("queue",)

    def __init__(self, queue: asyncio.Queue[Message]) -> None:
        self.queue = queue

    def deliver(self, message: Message, data: bytes) -> None:
        self.queue.put_nowait(message)


@dataclass(eq=False, slots=True)
class _Send:
    user_ids: list[int]
    message: Message
    done: asyncio.Future[None] | None


def encode(message: Message) -> bytes:
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)


class LiveHub:
    """One process's subscribers, by user id, and the way to the other processes."""

    def __init__(self) -> None:
        self.subscribers: dict[int, set[Any]] = {}
        #: topic → the pages here that follow it
        self.watchers: dict[str, set[Any]] = {}
        #: the visitors' pages here (no account: they hear ``broadcast`` and their topics)
        self.visitors: set[Any] = set()
        self._queues: dict[int, dict[asyncio.Queue[Message], _QueueSubscriber]] = {}
        self.store: MessageStore | None = None
        self.maker: async_sessionmaker[AsyncSession] | None = None
        self.relay: Relay = LocalRelay()
        self.presence = Presence(self)
        self._pending: list[_Send] = []
        self._writer: asyncio.Task[None] | None = None
        self._pruner: asyncio.Task[None] | None = None
        self._posted: set[asyncio.Task[None]] = set()
        self.loop: asyncio.AbstractEventLoop | None = None  # the server's, once started
        #: what else closes a person's sockets on this process when ``close_pages`` reaches it
        #: (the app adds its tables': a disabled account's table sockets close on every process)
        self.on_close: list[Callable[[int], object]] = []

    # -- life ------------------------------------------------------------------------------------
    async def start(self, maker: async_sessionmaker[AsyncSession], relay: Relay) -> None:
        self.loop = asyncio.get_running_loop()
        self.maker = maker
        self.store = MessageStore(maker)
        self.relay = relay
        await relay.start(self._on_envelope)
        await self.presence.start()
        self._pruner = asyncio.create_task(self._prune(), name="live-prune")

    async def stop(self) -> None:
        for task in list(self._posted):
            with contextlib.suppress(Exception):
                await task
        if self._writer is not None:
            with contextlib.suppress(Exception):
                await self._writer
        if self._pruner is not None:
            self._pruner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pruner
        await self.presence.stop()
        await self.relay.stop()
        self.store = None

    async def _prune(self) -> None:
        while True:
            # not at start: a write there would take SQLite's lock while the tables load
            await asyncio.sleep(PRUNE_EVERY_S)
            with contextlib.suppress(Exception):
                if self.store is not None:
                    await self.store.prune()

    # -- subscribers -------------------------------------------------------------------------
    def attach(self, user_id: int, subscriber: Any) -> None:
        self.subscribers.setdefault(user_id, set()).add(subscriber)

    def detach(self, user_id: int, subscriber: Any) -> None:
        subs = self.subscribers.get(user_id)
        if subs is not None:
            subs.discard(subscriber)
            if not subs:
                del self.subscribers[user_id]

    def watch(self, topic: str, subscriber: Any, on: bool) -> None:
        if on:
            self.watchers.setdefault(topic, set()).add(subscriber)
        else:
            watching = self.watchers.get(topic)
            if watching is not None:
                watching.discard(subscriber)

    def unwatch_all(self, subscriber: Any) -> None:
        """``subscriber`` follows no topic any more (its page closed)."""
        for watching in self.watchers.values():
            watching.discard(subscriber)

    def subscribe(self, user_id: int) -> asyncio.Queue[Message]:
        """A queue that gets every message to ``user_id`` (as a dict) from now on."""
        queue: asyncio.Queue[Message] = asyncio.Queue()
        sub = _QueueSubscriber(queue)
        self._queues.setdefault(user_id, {})[queue] = sub
        self.attach(user_id, sub)
        return queue

    def unsubscribe(self, user_id: int, queue: asyncio.Queue[Message]) -> None:
        sub = self._queues.get(user_id, {}).pop(queue, None)
        if sub is not None:
            self.detach(user_id, sub)
        if not self._queues.get(user_id, True):
            del self._queues[user_id]

    # -- sending -------------------------------------------------------------------------------
    async def send(self, user_ids: Iterable[int], message: Message) -> None:
        """To these people, on every page they have open (stored for catch-up once started)."""
        ids = sorted(set(user_ids))
        if not ids:
            return
        if self.store is None:  # not started (no database): this process's pages only
            self._deliver(ids, message, None)
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append(_Send(ids, message, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_pending(), name="live-writer")
        await done

    def post(self, user_ids: Iterable[int], message: Message) -> None:
        """``send`` without waiting (for a table's queue, which must not wait on this)."""
        task = asyncio.ensure_future(self.send(user_ids, message))
        self._posted.add(task)
        task.add_done_callback(self._posted.discard)

    def idle(self) -> bool:
        """Nothing posted, waiting to be stored or being stored now."""
        writing = self._writer is not None and not self._writer.done()
        return not self._posted and not self._pending and not writing

    async def broadcast(self, message: Message) -> None:
        """To every open page, visitors' too, on every process (not stored: a page that
        reconnects reloads what such messages update). Nothing here may be anyone's own."""
        self.deliver_everyone(message)
        await self._publish({"to": None, "m": message})

    async def to_watchers(
        self, topic: str, message: Message, user_ids: Iterable[int] | None = None
    ) -> None:
        """To the pages that follow ``topic`` (with ``user_ids``: only these people's), on
        every process (not stored)."""
        users = None if user_ids is None else sorted(set(user_ids))
        self.deliver_watchers(topic, message, users)
        envelope: Envelope = {"topic": topic, "m": message}
        if users is not None:
            envelope["users"] = users
        await self._publish(envelope)

    async def tell(self, user_ids: Iterable[int], message: Message) -> None:
        """To these people now, on every process, without storing it (presence)."""
        ids = sorted(set(user_ids))
        if ids:
            self._deliver(ids, message, None)
            await self._publish({"to": [[u, None] for u in ids], "m": message})

    async def close_pages(self, user_id: int) -> None:
        """Close every open page of ``user_id`` on every process (code 4401: their sessions
        ended, or their account went), and what ``on_close`` closes there (their table
        sockets): call it after ending the sessions."""
        self._close_here(user_id)
        await self._publish({"close": user_id})

    async def close_session_pages(self, user_id: int, session: str) -> None:
        """Close the open pages of ``user_id`` opened with the session whose hash is
        ``session`` (code 4401: it was signed out), on every process; their other sessions'
        pages stay open."""
        self._close_session_here(user_id, session)
        await self._publish({"close": user_id, "session": session})

    def _close_session_here(self, user_id: int, session: str) -> None:
        for sub in list(self.subscribers.get(user_id, ())):
            end = getattr(sub, "end", None)
            if end is not None and getattr(sub, "session", None) == session:
                end()

    def _close_here(self, user_id: int) -> None:
        for hook in self.on_close:
            try:
                hook(user_id)
            except Exception:
                log.exception("live: closing the sockets of %d failed", user_id)
        for sub in list(self.subscribers.get(user_id, ())):
            end = getattr(sub, "end", None)
            if end is not None:
                end()

    async def _write_pending(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                assert self.store is not None
                numbered = await self.store.append([(s.user_ids, s.message) for s in batch])
            except Exception:
                # the notice still goes out live (only catch-up is lost): what it tells of is
                # stored by its own domain
                log.exception("live: storing %d messages failed", len(batch))
                numbered = [{} for _ in batch]
            for send, ids in zip(batch, numbered, strict=True):
                self._deliver(send.user_ids, send.message, ids)
                await self._publish(
                    {"to": [[u, ids.get(u)] for u in send.user_ids], "m": send.message}
                )
                if send.done is not None and not send.done.done():
                    send.done.set_result(None)

    async def _publish(self, envelope: Envelope) -> None:
        try:
            await self.relay.publish(envelope)
        except Exception:
            log.exception("live: relaying a message failed")

    # -- delivering --------------------------------------------------------------------------------
    def _on_envelope(self, envelope: Envelope) -> None:
        """A message from another process: to the people it is for who have pages here."""
        if "close" in envelope:
            if envelope.get("session"):
                self._close_session_here(int(envelope["close"]), str(envelope["session"]))
            else:
                self._close_here(int(envelope["close"]))
            return
        if "topic" in envelope:
            users = envelope.get("users")
            self.deliver_watchers(str(envelope["topic"]), envelope["m"], users)
            return
        message = envelope["m"]
        to = envelope.get("to")
        if to is None:
            self.deliver_everyone(message)
            return
        for user_id, message_id in to:
            self._deliver_one(user_id, message, message_id)

    def _deliver(self, user_ids: list[int], message: Message, ids: dict[int, int] | None) -> None:
        for user_id in user_ids:
            self._deliver_one(user_id, message, None if ids is None else ids.get(user_id))

    def _deliver_one(self, user_id: int, message: Message, message_id: int | None) -> None:
        kind = message.get("type")
        if kind in FRIEND_TYPES:
            self.presence.forget_friends(user_id)
        elif kind == "account_changed" and isinstance(message.get("name"), str):
            self.presence.renamed(user_id, message["name"])  # what their friends are told
        subs = self.subscribers.get(user_id)
        if not subs:
            return
        if message_id is not None:
            message = {**message, "seq": message_id}
        data = encode(message)
        for sub in list(subs):
            try:
                sub.deliver(message, data)
            except Exception:
                log.exception("live: a subscriber failed")

    def deliver_watchers(
        self, topic: str, message: Message, user_ids: list[int] | None = None
    ) -> None:
        """To the pages open on this process that follow ``topic`` (only those of ``user_ids``
        when given)."""
        watching = self.watchers.get(topic)
        if not watching:
            return
        data = encode(message)
        for sub in list(watching):
            if user_ids is not None and sub.user_id not in user_ids:
                continue
            try:
                sub.deliver(message, data)
            except Exception:
                log.exception("live: a subscriber failed")

    def deliver_everyone(self, message: Message) -> None:
        """To every page open on this process, visitors' too."""
        data = encode(message)
        for subs in [*self.subscribers.values(), self.visitors]:
            for sub in list(subs):
                try:
                    sub.deliver(message, data)
                except Exception:
                    log.exception("live: a subscriber failed")
