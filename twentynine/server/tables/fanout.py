"""How the server processes of one site hear of each other's table changes.

One process (no Redis): ``LocalFanout`` — nothing to tell, this process leads every table, and a
seat is connected when this process holds a connection for it.

Many processes (``REDIS_URL``): ``RedisFanout`` — every stored change is published on the table's
channel so every process can send its own connections their views; one process at a time holds a
table's *lease* and runs its bots and timers (a lease lapses within seconds when its process dies,
and another takes over); seat presence is kept in Redis keys that expire unless refreshed, so a
crashed process's connections do not count for long.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

log = logging.getLogger("twentynine.fanout")

Listener = Callable[[str, dict[str, Any]], Awaitable[None]]
LEASE_MS = 8000
PRESENCE_TTL = 15


class Fanout(Protocol):
    process_id: str

    async def start(self, listener: Listener) -> None: ...
    async def stop(self) -> None: ...
    async def publish(self, table_id: str, message: dict[str, Any]) -> None: ...
    async def lead(self, table_id: str) -> bool: ...
    async def presence(self, table_id: str, seat: int, count: int) -> None: ...
    async def connected(self, table_id: str, seat: int) -> bool | None: ...
    async def connected_elsewhere(self, table_id: str, seat: int) -> bool: ...


class LocalFanout:
    """A single process: it leads every table; presence is its own connections."""

    def __init__(self) -> None:
        self.process_id = "local"

    async def start(self, listener: Listener) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def publish(self, table_id: str, message: dict[str, Any]) -> None:
        return None

    async def lead(self, table_id: str) -> bool:
        return True

    async def presence(self, table_id: str, seat: int, count: int) -> None:
        return None

    async def connected(self, table_id: str, seat: int) -> bool | None:
        return None  # ask the runtime's own counts

    async def connected_elsewhere(self, table_id: str, seat: int) -> bool:
        return False  # there is nowhere else


class RedisFanout:
    def __init__(self, url: str) -> None:
        import redis.asyncio as redis

        self.redis = redis.from_url(url, decode_responses=True)
        self.process_id = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
        self.listener: Listener | None = None
        self.reader: asyncio.Task[None] | None = None
        self.refresher: asyncio.Task[None] | None = None
        self.counts: dict[tuple[str, int], int] = {}

    async def start(self, listener: Listener) -> None:
        self.listener = listener
        pubsub = self.redis.pubsub()
        await pubsub.psubscribe("tn:table:*")
        self.reader = asyncio.create_task(self._read(pubsub))
        self.refresher = asyncio.create_task(self._refresh())

    async def stop(self) -> None:
        for task in (self.reader, self.refresher):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        for (table_id, seat), _ in list(self.counts.items()):
            with contextlib.suppress(Exception):
                await self.redis.delete(self._presence_key(table_id, seat))
        await self.redis.aclose()

    async def _read(self, pubsub: Any) -> None:
        while True:
            try:
                async for item in pubsub.listen():
                    if item.get("type") != "pmessage":
                        continue
                    table_id = str(item["channel"]).split(":", 2)[2]
                    message = json.loads(item["data"])
                    if message.get("origin") == self.process_id or self.listener is None:
                        continue
                    await self.listener(table_id, message)
            except asyncio.CancelledError:
                raise
            except Exception:  # a lost Redis connection: try again shortly
                log.exception("redis subscription failed; resubscribing")
                await asyncio.sleep(1)
                pubsub = self.redis.pubsub()
                with contextlib.suppress(Exception):
                    await pubsub.psubscribe("tn:table:*")

    async def publish(self, table_id: str, message: dict[str, Any]) -> None:
        payload = json.dumps({**message, "origin": self.process_id})
        await self.redis.publish(f"tn:table:{table_id}", payload)

    async def lead(self, table_id: str) -> bool:
        """Take or keep the table's lease; True while this process holds it."""
        key = f"tn:lease:{table_id}"
        if await self.redis.set(key, self.process_id, nx=True, px=LEASE_MS):
            return True
        holder = await self.redis.get(key)
        if holder == self.process_id:
            await self.redis.pexpire(key, LEASE_MS)
            return True
        return False

    def _presence_key(self, table_id: str, seat: int) -> str:
        return f"tn:presence:{table_id}:{seat}:{self.process_id}"

    async def presence(self, table_id: str, seat: int, count: int) -> None:
        self.counts[(table_id, seat)] = count
        key = self._presence_key(table_id, seat)
        if count > 0:
            await self.redis.set(key, count, ex=PRESENCE_TTL)
        else:
            self.counts.pop((table_id, seat), None)
            await self.redis.delete(key)

    async def connected(self, table_id: str, seat: int) -> bool | None:
        async for _ in self.redis.scan_iter(match=f"tn:presence:{table_id}:{seat}:*", count=100):
            return True
        return False

    async def connected_elsewhere(self, table_id: str, seat: int) -> bool:
        """Has the seat a connection on another process (its presence key, kept alive)?"""
        mine = self._presence_key(table_id, seat)
        async for key in self.redis.scan_iter(match=f"tn:presence:{table_id}:{seat}:*", count=100):
            if key != mine:
                return True
        return False

    async def _refresh(self) -> None:
        while True:
            await asyncio.sleep(PRESENCE_TTL / 3)
            for (table_id, seat), count in list(self.counts.items()):
                with contextlib.suppress(Exception):
                    await self.redis.set(self._presence_key(table_id, seat), count, ex=PRESENCE_TTL)


def make_fanout(redis_url: str) -> Fanout:
    return RedisFanout(redis_url) if redis_url else LocalFanout()
