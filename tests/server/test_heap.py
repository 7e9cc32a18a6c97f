"""The idle collector runs the middle generation's pass only when the process is idle."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator

import pytest

from twentynine.server.heap import IdleCollector


def middle_passes() -> int:
    return int(gc.get_stats()[1]["collections"])


@pytest.fixture
def small_thresholds() -> Iterator[None]:
    """Young passes every 100 new objects; the middle one never by the count."""
    before = gc.get_threshold()
    gc.set_threshold(100, 1_000_000, 1_000_000)
    gc.collect()
    try:
        yield
    finally:
        gc.set_threshold(*before)


def feed_young_passes(n: int, keep: list[object]) -> None:
    """At least ``n`` young passes, each leaving survivors for the middle generation."""
    start = gc.get_stats()[0]["collections"]
    while gc.get_stats()[0]["collections"] < start + n:
        keep.append([[] for _ in range(50)])


def test_collects_the_middle_generation_once_idle(small_thresholds: None) -> None:
    keep: list[object] = []
    collector = IdleCollector(backlog=10)
    feed_young_passes(12, keep)
    assert gc.get_count()[1] >= 10
    # busy: young passes since the last look, so it leaves the collector alone
    before = middle_passes()
    assert not collector.tick()
    assert middle_passes() == before
    # idle now (nothing made since): the middle pass runs, and the backlog is gone
    assert collector.tick()
    assert middle_passes() == before + 1
    assert gc.get_count()[1] == 0 and collector.runs == 1
    # still idle, but nothing waits in the middle generation: nothing to do
    assert not collector.tick()
    assert middle_passes() == before + 1


def test_a_small_backlog_is_left_to_the_collector(small_thresholds: None) -> None:
    keep: list[object] = []
    collector = IdleCollector(backlog=10)
    gc.collect(1)
    feed_young_passes(3, keep)
    collector.tick()
    before = middle_passes()
    assert not collector.tick()  # idle, but only a few young passes' worth
    assert middle_passes() == before


def test_not_while_the_collector_is_disabled(small_thresholds: None) -> None:
    keep: list[object] = []
    collector = IdleCollector(backlog=10)
    feed_young_passes(12, keep)
    collector.tick()
    gc.disable()
    try:
        assert not collector.tick()
    finally:
        gc.enable()


async def test_runs_in_the_background_and_stops() -> None:
    collector = IdleCollector(interval=0.01)
    collector.start()
    await asyncio.sleep(0.05)
    await collector.stop()
    assert collector._task is None
