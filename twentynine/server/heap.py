"""The process's heap and Python's cyclic garbage collector.

A collector pass holds the event loop for as long as it takes to walk the objects of the
generations it collects: every table's players wait for it. Two things keep those pauses short:

* :func:`settle_the_heap`, at start: everything made while starting (modules, numba, the tables
  loaded) lives as long as the process, so it is moved out of the collector's sight, and the
  collector's thresholds are set (``Settings.gc_thresholds``);
* :class:`PacedCollector`, while serving, adds passes of its own on a timer:

  - while the tables are busy, a young pass whenever none has come for a fiftieth of a second.
    Python starts one when the objects made outnumber the objects freed by 700, but a busy
    server mostly *replaces* objects (a table's new state for its old one): the count hardly
    moves while the young generation fills with the new ones. At the start of a load run it
    held 38,000 objects after 1.4 s, and its first pass then held the loop ~25 ms. A pass's
    length follows what came since the last one, the total hardly depends on how often: in
    load runs at 1,000 actions a second, a pass every tenth of a second averaged 1.2-1.3 ms
    (longest 4.2 ms; ~250 ms in 20 s), every fiftieth 0.23 ms (longest 2.5 ms; ~230 ms), and
    an action that comes during a pass waits for its end.
  - while busy, about once a second (every 50 young passes), what survived them is *retired*
    like the start-up heap (:func:`retire`), so that Python never starts a middle pass in a
    busy moment. What survives a young pass here is mostly what waits for a socket's next
    message (its reader's coroutines and futures, the protocol's parser, its keepalive timer):
    at 1,000 actions a second the middle generation held 60,000-75,000 such objects after ~6 s,
    and its pass held the loop 45-60 ms of CPU every ~6 s, each pass delaying the few hundred
    actions that came during it and while the server caught up. Retiring them costs nothing to
    speak of; they are freed as before when their last reference goes. Only a cycle of garbage
    among them waits: the middle passes that retirement replaces found 0-14 such objects each.
  - once no change has been handed to the table store for half a second (not: none stored,
    which a writer held up by a burst of deal records also looks like), what would otherwise
    come in a busy moment: after 300 retirements (~5 minutes busy), one walk of the whole heap
    (:func:`refresh`: 0.75 s with 8,000 sockets, start-up heap and all), which frees those
    cycles; else the full pass if half-way due, else the middle generation's pass. After
    thousands of sockets connect (a restart: every client comes back at once) the middle
    generation holds about a hundred objects a socket; its pass took ~80 ms, and came, by the
    count, under the load that followed. A server busy without a break for 1,800 retirements
    (~30 minutes) walks the heap anyway: one such pause in half an hour, rather than a middle
    pass every few seconds.

  (Measured with ``benchmarks/load.py --profile timing``.)
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import Callable

log = logging.getLogger("twentynine.server")


def settle_the_heap(thresholds: tuple[int, int, int]) -> None:
    """Keep the start-up heap out of the collector's passes, which otherwise walk it all again
    and again (a full pass over ~200k start-up objects paused the loop for ~100 ms).

    Then the collector's thresholds. Young passes stay small and frequent (700, Python's own:
    each holds the loop about a millisecond; at 10,000 they held it 25-80 ms, since every
    socket's waiting reader is young). A middle pass is due after 300 young ones (the paced
    ones below count too) and runs at Python's next own young pass, which the paced passes
    make rare while the tables are busy; a full one after 100 middle ones; with 4,000 sockets
    a full pass takes ~300 ms."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)


def retire() -> None:
    """Move what survived the young passes out of the collector's sight, as at start: a young
    pass first (the young garbage goes), then ``gc.freeze`` (it only relinks lists: as quick
    with a million objects as with ten), then a middle pass over what is left there, nothing,
    which resets the count that would start Python's own middle pass."""
    gc.collect(0)
    gc.freeze()
    gc.collect(1)


def refresh() -> None:
    """Walk the whole heap once, what was retired too, and retire what lives on: a cycle of
    garbage made of retired objects is freed only here."""
    gc.unfreeze()
    gc.collect(2)
    gc.freeze()


def young_passes() -> int:
    """Young-generation passes the collector has run so far in this process."""
    return int(gc.get_stats()[0]["collections"])


class PacedCollector:
    """The timer's passes described in the module's note. ``activity`` counts the process's
    work so far (the table changes handed in): unchanged for ``idle_after`` seconds means idle.

    While busy, every ``retire_every`` young passes the survivors are retired out of the
    collector's sight (``gc.freeze``) instead of waiting for a middle pass; once idle after
    ``refresh_after`` retirements, or busy after ``refresh_anyway``, the whole heap is walked
    once (``refresh``) so that no cycle of garbage among the retired objects lasts."""

    def __init__(
        self,
        activity: Callable[[], int],
        interval: float = 0.02,
        idle_after: float = 0.5,
        backlog: int = 10,
        retire_every: int = 50,
        refresh_after: int = 300,
        refresh_anyway: int = 1800,
    ) -> None:
        self.activity = activity
        self.interval = interval
        self.idle_ticks = max(1, round(idle_after / interval))
        self.backlog = backlog
        self.retire_every = retire_every
        self.refresh_after = refresh_after
        self.refresh_anyway = refresh_anyway
        self.young_runs = 0
        self.middle_runs = 0
        self.full_runs = 0
        #: retirements so far, and since the last full walk of the heap
        self.retirements = 0
        self.retired_since_refresh = 0
        self._passes = young_passes()
        self._retired_at = self._passes  # young passes when the last retirement came
        self._work = activity()
        self._quiet = 0  # ticks in a row without activity
        self._task: asyncio.Task[None] | None = None

    def tick(self) -> str | None:
        """One look: "young", "retire", "middle", "full" or "refresh" for the pass it ran,
        else None."""
        work = self.activity()
        self._quiet = self._quiet + 1 if work == self._work else 0
        self._work = work
        passes = young_passes()
        none_since = passes == self._passes
        self._passes = passes
        if not gc.isenabled():
            return None
        idle = self._quiet >= self.idle_ticks
        due = self.refresh_after if idle else self.refresh_anyway
        if self.retired_since_refresh and self.retired_since_refresh >= due:
            refresh()
            self.retired_since_refresh = 0
            self.full_runs += 1
            ran = "refresh"
        elif idle and gc.get_count()[2] >= gc.get_threshold()[2] // 2:
            gc.collect(2)  # due before long: better now than in a busy moment
            self.full_runs += 1
            ran = "full"
        elif idle and gc.get_count()[1] >= self.backlog:
            gc.collect(1)
            self.middle_runs += 1
            ran = "middle"
        elif not idle and passes - self._retired_at >= self.retire_every:
            retire()
            self.retirements += 1
            self.retired_since_refresh += 1
            ran = "retire"
        elif none_since and not idle:
            gc.collect(0)
            self.young_runs += 1
            ran = "young"
        else:
            return None
        self._passes = young_passes()
        if ran in ("retire", "refresh"):
            self._retired_at = self._passes
        return ran

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="paced-collector")

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
                log.exception("paced collection failed")
