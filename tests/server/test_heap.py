"""The paced collector: a young pass when none has come for a tick, the middle generation's
pass once the tables are idle."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator

import pytest

from twentynine.server.heap import PacedCollector, young_passes


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
    start = young_passes()
    while young_passes() < start + n:
        keep.append([[] for _ in range(50)])


class Work:
    """A stand-in for the count of table changes."""

    def __init__(self) -> None:
        self.done = 0

    def __call__(self) -> int:
        return self.done


def test_a_young_pass_when_none_came_for_a_tick(small_thresholds: None) -> None:
    work = Work()
    collector = PacedCollector(work, idle_after=0.5, interval=0.1)
    keep: list[object] = [[]]
    gc.collect(0)
    work.done += 1
    assert collector.tick() is None  # a young pass came since the last look
    # objects replaced, not added: the collector's count does not move, nor start a pass
    young = young_passes()
    for _ in range(20):
        keep[0] = []
    assert young_passes() == young
    work.done += 1
    assert collector.tick() == "young"
    assert young_passes() == young + 1 and collector.young_runs == 1


def test_the_middle_generation_once_the_tables_are_idle(small_thresholds: None) -> None:
    work = Work()
    collector = PacedCollector(work, idle_after=0.3, interval=0.1, backlog=10)
    keep: list[object] = []
    feed_young_passes(12, keep)
    assert gc.get_count()[1] >= 10
    before = middle_passes()
    # tables busy: no middle pass, however many young ones wait
    for _ in range(5):
        work.done += 1
        assert collector.tick() != "middle"
    assert middle_passes() == before
    # idle for three ticks (0.3 s): the middle pass runs, and the backlog is gone
    ran = [collector.tick() for _ in range(3)]
    assert ran[-1] == "middle" and "middle" not in ran[:-1]
    assert middle_passes() == before + 1
    assert gc.get_count()[1] == 0 and collector.middle_runs == 1
    # still idle, nothing waits in the middle generation: at most a (cheap) young pass
    assert collector.tick() in (None, "young")
    assert middle_passes() == before + 1


def test_a_small_backlog_is_left_to_the_collector(small_thresholds: None) -> None:
    keep: list[object] = []
    collector = PacedCollector(Work(), idle_after=0.1, interval=0.1, backlog=10)
    gc.collect(1)
    feed_young_passes(3, keep)
    before = middle_passes()
    for _ in range(3):
        assert collector.tick() != "middle"  # idle, but only a few young passes' worth
    assert middle_passes() == before


def test_nothing_while_the_collector_is_disabled(small_thresholds: None) -> None:
    keep: list[object] = []
    collector = PacedCollector(Work(), idle_after=0.1, interval=0.1, backlog=10)
    feed_young_passes(12, keep)
    gc.disable()
    try:
        passes = (young_passes(), middle_passes())
        assert [collector.tick() for _ in range(3)] == [None] * 3
        assert (young_passes(), middle_passes()) == passes
    finally:
        gc.enable()


def test_the_full_pass_when_idle_and_half_due(small_thresholds: None) -> None:
    gc.set_threshold(100, 1_000_000, 4)  # the full pass due after 4 middle ones
    gc.collect(1)
    gc.collect(1)  # two middle passes: half-way
    work = Work()
    collector = PacedCollector(work, idle_after=0.2, interval=0.1)
    full = gc.get_stats()[2]["collections"]
    work.done += 1
    assert collector.tick() != "full"  # busy
    ran = [collector.tick() for _ in range(2)]
    assert ran[-1] == "full" and collector.full_runs == 1
    assert gc.get_stats()[2]["collections"] == full + 1 and gc.get_count()[2] == 0


async def test_runs_in_the_background_and_stops() -> None:
    busy = iter(range(1_000_000))  # a table changes at every look: young passes only
    collector = PacedCollector(lambda: next(busy), interval=0.01)
    collector.start()
    await asyncio.sleep(0.1)
    await collector.stop()
    assert collector.young_runs > 0 and collector.middle_runs == collector.full_runs == 0
