"""How the live channels of a site's server processes hear of each other.

One process (no Redis): :class:`LocalRelay` — nothing to relay, every socket is here.

Several (``REDIS_URL``): :class:`RedisRelay` — every message goes out on one pub/sub channel and
each process hands it to its own sockets; each process keeps who is online through it (and in
what state) in a hash of its own that expires unless refreshed, so a crashed process's people
stop counting within ``STALE_S``. A process that stops, or is found stale, leaves its hash for
one of the others to claim (``claim_vanished``), which tells those people's friends they left.
Every key and channel is under ``tn:{namespace}:live:``, the namespace a digest of the
database's address, so two sites (or two test databases) sharing one Redis never see each
other's messages or people.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import socket
import time
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, cast

import orjson

if TYPE_CHECKING:
    from redis.typing import FieldT

log = logging.getLogger("twentynine.live")

Envelope = dict[str, Any]
#: a process that has not refreshed its entry for this long is taken to be gone
STALE_S = 20.0
#: how long a process's people outlive its last refresh: time for another to claim them
KEEP_S = 2 * STALE_S
HEARTBEAT_S = 5.0


def namespace_of(database_url: str) -> str:
    """A short name for the site: the same for every process on one database."""
    return hashlib.sha256(database_url.encode()).hexdigest()[:16]


class Relay(Protocol):
    process_id: str

    async def start(self, on_envelope: Callable[[Envelope], None]) -> None: ...
    async def stop(self) -> None: ...
    async def publish(self, envelope: Envelope) -> None: ...
    async def set_states(self, changes: dict[int, int]) -> None: ...
    async def states(self, user_ids: list[int]) -> dict[int, int]: ...
    async def people_by_process(self) -> dict[str, dict[int, int]]: ...
    async def claim_vanished(self) -> list[dict[int, int]]: ...


class LocalRelay:
    """One process: nothing to tell anyone, no one elsewhere."""

    process_id = "local"

    async def start(self, on_envelope: Callable[[Envelope], None]) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def publish(self, envelope: Envelope) -> None:
        return None

    async def set_states(self, changes: dict[int, int]) -> None:
        return None

    async def states(self, user_ids: list[int]) -> dict[int, int]:
        return {}

    async def people_by_process(self) -> dict[str, dict[int, int]]:
        return {}

    async def claim_vanished(self) -> list[dict[int, int]]:
        return []


class RedisRelay:
    """Messages through one pub/sub channel; each process's people (user id → presence rank)
    in a hash of its own, listed in a sorted set by the time it last refreshed it."""

    def __init__(self, url: str, namespace: str) -> None:
        import redis.asyncio as redis

        self.redis = redis.from_url(url, decode_responses=True)
        self.prefix = f"tn:{namespace}:live"
        self.channel = f"{self.prefix}:messages"
        self.processes = f"{self.prefix}:processes"
        self.process_id = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
        self.tasks: list[asyncio.Task[None]] = []

    def _people(self, process_id: str) -> str:
        return f"{self.prefix}:people:{process_id}"

    async def start(self, on_envelope: Callable[[Envelope], None]) -> None:
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(self.channel)  # subscribed before the first socket is served
        await self._heartbeat()
        self.tasks = [
            asyncio.create_task(self._read(pubsub, on_envelope), name="live-relay"),
            asyncio.create_task(self._beat(), name="live-heartbeat"),
        ]

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            # gone at once: its people (kept ``KEEP_S``) are another process's to claim
            await self.redis.zadd(self.processes, {self.process_id: 0})
        await self.redis.aclose()

    async def _read(self, pubsub: Any, on_envelope: Callable[[Envelope], None]) -> None:
        while True:
            try:
                async for item in pubsub.listen():
                    if item.get("type") != "message":
                        continue
                    envelope = orjson.loads(item["data"])
                    if envelope.get("o") != self.process_id:
                        on_envelope(envelope)
            except asyncio.CancelledError:
                raise
            except Exception:  # a lost connection: subscribe again shortly
                log.exception("live relay: subscription failed; subscribing again")
                await asyncio.sleep(1)
                pubsub = self.redis.pubsub()
                with contextlib.suppress(Exception):
                    await pubsub.subscribe(self.channel)

    async def _heartbeat(self) -> None:
        now = time.time()
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(self.processes, {self.process_id: now})
            pipe.expire(self.processes, int(KEEP_S))  # (gone once no process is left)
            pipe.expire(self._people(self.process_id), int(KEEP_S))
            await pipe.execute()

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_S)
            try:
                await self._heartbeat()
            except Exception:
                log.warning("live relay: heartbeat failed", exc_info=True)

    async def publish(self, envelope: Envelope) -> None:
        await self.redis.publish(self.channel, orjson.dumps({**envelope, "o": self.process_id}))

    async def set_states(self, changes: dict[int, int]) -> None:
        key = self._people(self.process_id)
        gone = [u for u, rank in changes.items() if rank == 0]
        here: dict[FieldT, int] = {u: rank for u, rank in changes.items() if rank > 0}
        async with self.redis.pipeline(transaction=False) as pipe:
            if gone:
                pipe.hdel(key, *gone)
            if here:
                pipe.hset(key, mapping=here)
            pipe.expire(key, int(KEEP_S))
            await pipe.execute()

    async def _others(self) -> list[str]:
        # (members come back as ``str``: the client decodes responses)
        alive = cast(
            list[str],
            await self.redis.zrangebyscore(self.processes, time.time() - STALE_S, "+inf"),
        )
        return [p for p in alive if p != self.process_id]

    async def states(self, user_ids: list[int]) -> dict[int, int]:
        """The highest rank each of ``user_ids`` has on the other processes (absent: none)."""
        out: dict[int, int] = {}
        if not user_ids:
            return out
        for process in await self._others():
            ranks = await self.redis.hmget(self._people(process), user_ids)
            for u, rank in zip(user_ids, ranks, strict=True):
                if rank:
                    out[u] = max(out.get(u, 0), int(rank))
        return out

    async def people_by_process(self) -> dict[str, dict[int, int]]:
        """Each other process that is alive: its people and their ranks there."""
        out: dict[str, dict[int, int]] = {}
        for process in await self._others():
            people = await self.redis.hgetall(self._people(process))
            out[process] = {int(u): int(rank) for u, rank in people.items()}
        return out

    async def claim_vanished(self) -> list[dict[int, int]]:
        """The people of each process that stopped or went stale, for this process alone to
        tell of: taking a process off the list is the claim (one process's ``zrem`` wins)."""
        stale = cast(
            list[str],
            await self.redis.zrangebyscore(self.processes, "-inf", time.time() - STALE_S),
        )
        claimed: list[dict[int, int]] = []
        for process in stale:
            if process == self.process_id or not await self.redis.zrem(self.processes, process):
                continue
            key = self._people(process)
            people = await self.redis.hgetall(key)
            await self.redis.delete(key)
            claimed.append({int(u): int(rank) for u, rank in people.items()})
        return claimed


def make_relay(redis_url: str, namespace: str) -> Relay:
    return RedisRelay(redis_url, namespace) if redis_url else LocalRelay()
