"""The process's heap and Python's cyclic garbage collector.

A collector pass holds the event loop for as long as it takes to walk the objects of the
generations it collects: every table's players wait for it. Two things keep those pauses short:

* :func:`settle_the_heap`, at start: everything made while starting (modules, numba, the tables
  loaded) lives as long as the process, so it is moved out of the collector's sight, and the
  collector's thresholds are set (``Settings.gc_thresholds``);
* :class:`IdleCollector`, while serving: the middle generation's pass is run when the process
  is idle (no young pass for a while) rather than whenever the young passes add up to the
  threshold, which may be in the middle of a busy moment. After thousands of sockets connect
  (a restart: every client comes back at once) the middle generation holds about a hundred
  objects a socket; its pass then took ~80 ms, and it came, by the count, under the load that
  followed (measured by ``benchmarks/load.py --profile timing``).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging

log = logging.getLogger("twentynine.server")


def settle_the_heap(thresholds: tuple[int, int, int]) -> None:
    """Keep the start-up heap out of the collector's passes, which otherwise walk it all again
    and again (a full pass over ~200k start-up objects paused the loop for ~100 ms).

    Then the collector's thresholds. Young passes stay small and frequent (700, Python's own:
    each holds the loop about a millisecond; at 10,000 they held it 25-80 ms, since every
    socket's waiting reader is young). A middle pass comes every 300 young ones (at 1,000
    actions a second about every half minute) and a full one every 100 middle ones; with
    4,000 sockets a full pass takes ~300 ms."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)


def young_passes() -> int:
    """Young-generation passes the collector has run so far in this process."""
    return int(gc.get_stats()[0]["collections"])


class IdleCollector:
    """Runs the middle generation's pass when the process has been idle for a tick (no young
    pass since the last tick: few objects made) and at least ``backlog`` young passes have
    fed the middle generation since its last pass. Under steady load it never runs and the
    collector keeps its own schedule."""

    def __init__(self, interval: float = 0.5, backlog: int = 10) -> None:
        self.interval = interval
        self.backlog = backlog
        self.runs = 0
        self._seen = young_passes()
        self._task: asyncio.Task[None] | None = None

    def tick(self) -> bool:
        """One look; True if it collected."""
        seen = young_passes()
        idle = seen == self._seen
        self._seen = seen
        if idle and gc.isenabled() and gc.get_count()[1] >= self.backlog:
            gc.collect(1)
            self.runs += 1
            self._seen = young_passes()
            return True
        return False

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="idle-collector")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                self.tick()
            except Exception:  # never let the collector's helper end the server
                log.exception("idle collection failed")
