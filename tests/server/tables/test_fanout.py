"""Seat presence across processes (``RedisFanout``) with a real Redis: one sorted set per seat,
each process's word lapsing unless refreshed."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest

from twentynine.server.tables import fanout as fanout_module
from twentynine.server.tables.fanout import RedisFanout

from ..conftest import REDIS_URL, need_services


@pytest.fixture
async def two() -> AsyncIterator[tuple[RedisFanout, RedisFanout]]:
    """Two processes' fan-outs on one Redis (started: each refreshes its word)."""
    need_services("redis")

    async def listener(table_id: str, message: dict[str, Any]) -> None:
        return None

    a, b = RedisFanout(REDIS_URL), RedisFanout(REDIS_URL)
    await a.start(listener)
    await b.start(listener)
    try:
        yield a, b
    finally:
        await a.stop()
        await b.stop()


async def test_a_seat_is_connected_while_a_process_says_so(
    two: tuple[RedisFanout, RedisFanout],
) -> None:
    a, b = two
    table = uuid.uuid4().hex
    assert not await a.connected(table, 1) and not await b.connected_elsewhere(table, 1)
    await a.presence(table, 1, 2)
    assert await a.connected(table, 1) and await b.connected(table, 1)
    assert await b.connected_elsewhere(table, 1)
    assert not await a.connected_elsewhere(table, 1)  # its own connections are not elsewhere
    assert not await b.connected(table, 2) and not await b.connected(uuid.uuid4().hex, 1)
    await b.presence(table, 1, 1)
    await a.presence(table, 1, 0)  # a's last connection closed; b's remains
    assert await b.connected(table, 1) and not await b.connected_elsewhere(table, 1)
    assert await a.connected_elsewhere(table, 1)
    await b.presence(table, 1, 0)
    assert not await a.connected(table, 1)


@pytest.fixture
def short_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process's word lasts 0.6 s, refreshed every 0.2 s (set before the fan-outs start)."""
    monkeypatch.setattr(fanout_module, "PRESENCE_TTL", 0.6)


async def test_a_word_kept_alive_lasts_and_a_dead_process_word_lapses(
    short_words: None, two: tuple[RedisFanout, RedisFanout]
) -> None:
    a, b = two
    table = uuid.uuid4().hex
    await a.presence(table, 0, 1)
    await b.presence(table, 0, 1)
    # b dies without a word: its refresher stops, its connections are never said to close
    assert b.refresher is not None
    b.refresher.cancel()
    await asyncio.sleep(1.5)  # well past the word's life, refreshed twice over by a
    assert await b.connected_elsewhere(table, 0)  # a's word was kept alive
    assert not await a.connected_elsewhere(table, 0)  # b's lapsed
    # the seat's set does not outlive its members for long
    ttl = await a.redis.ttl(f"tn:seat:{table}:0")
    assert 0 < ttl <= 2
