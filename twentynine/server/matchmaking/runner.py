"""Each process's matchmaker: a matching pass when someone queues and every few seconds (the
band widens while people wait); seating a four starts its table and tells the four, and every
change of the queue tells everyone how many wait.

Who waits with a page of the site open and then closes every one (the tab, the browser) has
left: seated, a bot would keep the seat and they would lose. So a waiting person seen with a
page open and now with none is not seated, and after ``AWAY_GRACE_S`` (longer than a reload or
a dropped network takes) leaves the queue. Someone who queued with no page open (a script over
HTTP) is never seen with one, and waits as before."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from ..live.presence import OFFLINE
from . import service

log = logging.getLogger("twentynine.matchmaking")
PASS_EVERY = 2.0
#: how long a waiting person's pages may all be closed before they leave the queue
AWAY_GRACE_S = 15.0


class MatchMaker:
    def __init__(self, app: Any) -> None:
        self.app = app
        self.task: asyncio.Task[None] | None = None
        #: waiting people seen with a page open (here or on another process)
        self.seen: set[int] = set()
        #: waiting people seen with a page open and now with none: since when (monotonic)
        self.away_since: dict[int, float] = {}

    async def start(self) -> None:
        self.task = asyncio.create_task(self._every(), name="matchmaking")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def _every(self) -> None:
        while True:
            await asyncio.sleep(PASS_EVERY)
            try:
                await self.look_for_the_gone()
                async with self.app.state.sessionmaker() as db:
                    waiting = await service.waiting_count(db)
                if waiting >= 4:  # (the count itself is told where it changes: the live
                    await self.run_pass(looked=True)  # channel relays it to every process)
            except Exception:
                log.exception("matching pass failed")

    async def look_for_the_gone(self) -> None:
        """Note who waits with a page open, who had one and has none, and let those gone for
        ``AWAY_GRACE_S`` out of the queue (see the module's note)."""
        async with self.app.state.sessionmaker() as db:
            queued = await service.queued_ids(db)
        live = self.app.state.live
        elsewhere = await live.relay.states(queued) if queued else {}
        now = time.monotonic()
        gone: list[int] = []
        for user_id in queued:
            if max(live.presence.rank_here(user_id), elsewhere.get(user_id, OFFLINE)) > OFFLINE:
                self.seen.add(user_id)
                self.away_since.pop(user_id, None)
            elif user_id in self.seen:
                since = self.away_since.setdefault(user_id, now)
                if now - since >= AWAY_GRACE_S:
                    gone.append(user_id)
        waiting = set(queued).difference(gone)
        self.seen &= waiting
        self.away_since = {u: t for u, t in self.away_since.items() if u in waiting}
        if gone:
            async with self.app.state.sessionmaker() as db:
                dropped = await service.drop(db, gone)
            if dropped:
                log.info("left the rated queue with every page closed: %s", gone)
                await self.tell_count()

    async def run_pass(self, looked: bool = False) -> list[service.Match]:
        if not looked:  # (a tab closed a moment ago: its person is not seated)
            await self.look_for_the_gone()
        away = frozenset(self.away_since)
        async with self.app.state.sessionmaker() as db:
            matches = await service.match(db, away=away)
        for m in matches:
            runtime = await self.app.state.tables.get(m.table_id)
            if runtime is not None:
                await runtime.submit(runtime.start_game)
            await self.app.state.live.send(
                m.user_ids, {"type": "rated_match", "table_id": m.table_id, "user_ids": m.user_ids}
            )
            log.info("rated table %s for %s", m.table_id, m.user_ids)
        if matches:
            await self.tell_count()
        return matches

    async def tell_count(self, waiting: int | None = None) -> None:
        if waiting is None:
            async with self.app.state.sessionmaker() as db:
                waiting = await service.waiting_count(db)
        await self.app.state.live.broadcast({"type": "rated_queue", "waiting": waiting})


async def start(app: Any) -> None:
    app.state.matchmaker = MatchMaker(app)
    await app.state.matchmaker.start()


async def stop(app: Any) -> None:
    await app.state.matchmaker.stop()
