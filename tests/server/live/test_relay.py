"""The relay between processes, on a real Redis: a process that stops, or goes stale, leaves its
people for exactly one other process to claim (whichever asks first), so their friends are
told they left even when no other process had counted them yet."""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

from twentynine.server.live.relay import STALE_S, RedisRelay

from ..conftest import REDIS_URL, need_services


async def _started(namespace: str) -> RedisRelay:
    relay = RedisRelay(REDIS_URL, namespace)
    await relay.start(lambda envelope: None)
    return relay


async def test_a_stopped_processs_people_are_claimed_once() -> None:
    need_services("redis")
    namespace = f"test-{uuid.uuid4().hex[:8]}"
    one, two, three = [await _started(namespace) for _ in range(3)]
    try:
        await one.set_states({7: 1, 8: 3})
        assert (await two.people_by_process())[one.process_id] == {7: 1, 8: 3}
        assert await two.claim_vanished() == []  # nobody has gone
        await one.stop()
        # gone at once: no longer counted, and its people are the first claimer's alone
        assert one.process_id not in await two.people_by_process()
        assert await two.states([7, 8]) == {}
        claims = await asyncio.gather(two.claim_vanished(), three.claim_vanished())
        assert sorted(claims, key=len) == [[], [{7: 1, 8: 3}]]
        assert await two.claim_vanished() == [] and await three.claim_vanished() == []
    finally:
        for relay in (two, three):
            await relay.stop()
        await _forget(namespace)


async def test_a_stale_processs_people_are_claimed_after_the_stale_time() -> None:
    """A crashed process stops refreshing its entry: once ``STALE_S`` has passed it no longer
    counts, and its people, kept longer than that, are claimed."""
    need_services("redis")
    namespace = f"test-{uuid.uuid4().hex[:8]}"
    crashed, alive = await _started(namespace), await _started(namespace)
    try:
        await crashed.set_states({5: 2})
        for task in crashed.tasks:  # it stops beating, as a crashed one would
            task.cancel()
        # its last refresh, as if it were made just over STALE_S ago
        await alive.redis.zadd(alive.processes, {crashed.process_id: time.time() - STALE_S - 1})
        assert crashed.process_id not in await alive.people_by_process()
        assert await alive.claim_vanished() == [{5: 2}]
        assert await alive.claim_vanished() == []
    finally:
        await alive.stop()
        await crashed.redis.aclose()
        await _forget(namespace)


async def _forget(namespace: str) -> None:
    import redis.asyncio as redis

    client: Any = redis.from_url(REDIS_URL, decode_responses=True)
    try:
        keys = [k async for k in client.scan_iter(f"tn:{namespace}:*")]
        if keys:
            await client.delete(*keys)
    finally:
        await client.aclose()
