"""How the server processes of one site hear of each other's table changes.

One process (no Redis): ``LocalFanout`` — nothing to tell, this process leads every table, and a
seat is connected when this process holds a connection for it.

Many processes (``REDIS_URL``): ``RedisFanout`` — every stored change is published on the table's
channel so every process can send its own connections their views; one process at a time holds a
table's *lease* and runs its bots and timers (a lease lapses within seconds when its process dies,
and another takes over). A seat's presence is one sorted set per seat (``tn:seat:{table}:{seat}``):
each process with a connection for the seat is a member, scored with the moment its word lapses
unless refreshed, so a crashed process's connections do not count for long; finding whether a
seat is connected is one look at that set, however many keys Redis holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

log = logging.getLogger("twentynine.fanout")

Listener = Callable[[str, dict[str, Any]], Awaitable[None]]
LEASE_MS = 8000
PRESENCE_TTL = 15
#: the presence "seat" that says a process has the table open on some page (a seat's or a
#: watcher's): a table is not left to its bots while anyone, on any process, looks at it
TABLE_OPEN = 4


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
        for table_id, seat in list(self.counts):
            with contextlib.suppress(Exception):
                await self.redis.zrem(self._seat_key(table_id, seat), self.process_id)
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

    @staticmethod
    def _seat_key(table_id: str, seat: int) -> str:
        return f"tn:seat:{table_id}:{seat}"

    async def _say_here(self, pairs: list[tuple[str, int]]) -> None:
        """This process holds connections for these seats, for the next ``PRESENCE_TTL``
        seconds (a seat's set outlives its last member's word by as long again)."""
        lapses = time.time() + PRESENCE_TTL
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id, seat in pairs:
                key = self._seat_key(table_id, seat)
                pipe.zadd(key, {self.process_id: lapses})
                pipe.zremrangebyscore(key, "-inf", time.time())
                pipe.pexpire(key, int(2000 * PRESENCE_TTL))
            await pipe.execute()

    async def _here(self, table_id: str, seat: int) -> list[str]:
        """The processes whose word that they hold a connection for the seat has not lapsed."""
        found = await self.redis.zrangebyscore(self._seat_key(table_id, seat), time.time(), "+inf")
        return [str(p) for p in found]

    async def presence(self, table_id: str, seat: int, count: int) -> None:
        if count > 0:
            self.counts[(table_id, seat)] = count
            await self._say_here([(table_id, seat)])
        else:
            self.counts.pop((table_id, seat), None)
            await self.redis.zrem(self._seat_key(table_id, seat), self.process_id)

    async def connected(self, table_id: str, seat: int) -> bool | None:
        return bool(await self._here(table_id, seat))

    async def connected_elsewhere(self, table_id: str, seat: int) -> bool:
        """Has the seat a connection on another process (its word, kept alive)?"""
        return any(p != self.process_id for p in await self._here(table_id, seat))

    async def _refresh(self) -> None:
        while True:
            await asyncio.sleep(PRESENCE_TTL / 3)
            with contextlib.suppress(Exception):
                await self._say_here(list(self.counts))


def make_fanout(redis_url: str) -> Fanout:
    return RedisFanout(redis_url) if redis_url else LocalFanout()
