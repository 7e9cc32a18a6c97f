"""Each process's matchmaker: a matching pass when someone queues and every few seconds (the
band widens while people wait); seating a four starts its table and tells the four, and every
change of the queue tells everyone how many wait."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from . import service

log = logging.getLogger("twentynine.matchmaking")
PASS_EVERY = 2.0


class MatchMaker:
    def __init__(self, app: Any) -> None:
        self.app = app
        self.task: asyncio.Task[None] | None = None

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
                async with self.app.state.sessionmaker() as db:
                    waiting = await service.waiting_count(db)
                if waiting >= 4:  # (the count itself is told where it changes: the live
                    await self.run_pass()  # channel relays it to every process)
            except Exception:
                log.exception("matching pass failed")

    async def run_pass(self) -> list[service.Match]:
        async with self.app.state.sessionmaker() as db:
            matches = await service.match(db)
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
