"""The paced collector: a young pass when none has come for a tick; while busy, the young
passes' survivors retired out of the collector's sight; once the tables are idle, the middle
generation's pass, or a walk of the whole heap that frees retired garbage."""

from __future__ import annotations

import asyncio
import gc
import weakref
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
        gc.unfreeze()  # what a test retired is the collector's again


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


class Knot:
    """An object in a cycle of references with itself: only the collector frees it."""

    def __init__(self) -> None:
        self.me = self


def tracked_anywhere(obj: object) -> bool:
    """Whether ``obj`` is in one of the collector's generations (not retired)."""
    return any(o is obj for o in gc.get_objects())


def test_while_busy_the_survivors_are_retired_instead_of_a_middle_pass(
    small_thresholds: None,
) -> None:
    work = Work()
    collector = PacedCollector(work, idle_after=0.5, interval=0.1, retire_every=5)
    keep: list[object] = []
    survivor = [object()]
    frozen = gc.get_freeze_count()
    before = middle_passes()
    ran = []
    while "retire" not in ran:
        feed_young_passes(1, keep)
        work.done += 1
        ran.append(collector.tick())
        assert len(ran) < 20
    assert ran.count("retire") == 1 and collector.retirements == 1
    # out of the collector's sight: no pass walks it again, the middle generation is empty
    assert gc.get_freeze_count() > frozen
    assert gc.is_tracked(survivor) and not tracked_anywhere(survivor)
    assert gc.get_count()[1] == 0
    # the middle pass it ran walked nothing but resets Python's own count; none otherwise
    assert middle_passes() == before + 1
    # a retired object is still freed as soon as nothing refers to it
    knot = Knot()
    ref = weakref.ref(knot)
    feed_young_passes(1, keep)
    work.done += 1
    while collector.tick() != "retire":
        feed_young_passes(1, keep)
        work.done += 1
    assert not tracked_anywhere(knot)
    knot.me = None  # type: ignore[assignment]
    del knot
    assert ref() is None


def test_retired_garbage_cycles_are_freed_by_a_refresh_once_idle(small_thresholds: None) -> None:
    work = Work()
    collector = PacedCollector(work, idle_after=0.2, interval=0.1, retire_every=1, refresh_after=2)
    knot = Knot()
    ref = weakref.ref(knot)
    keep: list[object] = []
    for _ in range(2):  # busy: two retirements, the knot retired with the first
        feed_young_passes(1, keep)
        work.done += 1
        assert collector.tick() == "retire"
    del knot
    gc.collect()  # an ordinary full pass does not see retired objects
    assert ref() is not None
    ran = [collector.tick() for _ in range(2)]  # idle from the second look on
    assert ran[-1] == "refresh" and "refresh" not in ran[:-1]
    assert ref() is None and collector.retired_since_refresh == 0
    # what lives on is retired again, nothing waits in the generations
    assert not tracked_anywhere(keep[0])


def test_a_server_busy_for_long_refreshes_anyway(small_thresholds: None) -> None:
    work = Work()
    collector = PacedCollector(
        work, idle_after=0.5, interval=0.1, retire_every=1, refresh_after=1, refresh_anyway=3
    )
    keep: list[object] = []
    ran = []
    for _ in range(4):
        feed_young_passes(1, keep)
        work.done += 1
        ran.append(collector.tick())
    assert ran == ["retire", "retire", "retire", "refresh"]
