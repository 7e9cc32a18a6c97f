"""The table's one ordered queue of commands: each runs alone, in the order it came."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from ...engine import IllegalAction, NotationError
from .base import TableParts
from .errors import TableError
from .store import StaleVersion

log = logging.getLogger("twentynine.tables")


class CommandQueue(TableParts):
    async def submit(self, command: Callable[[], Awaitable[Any]]) -> Any:
        """Run ``command`` in the table's order and return its result (or raise its error)."""
        return await self.post(command)

    def post(self, command: Callable[[], Awaitable[Any]]) -> asyncio.Future[Any]:
        """Queue ``command`` in the table's order; the future of its result. Nobody need wait
        for it: a failure nobody reads is logged by the queue's worker."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        future.add_done_callback(lambda f: f.cancelled() or f.exception())
        self.inbox.put_nowait((command, future))
        return future

    async def _work(self) -> None:
        while True:
            command, future = await self.inbox.get()
            try:
                try:
                    result = await command()
                except StaleVersion:
                    # another process stored a change first: catch up, then try once more
                    await self._catch_up()
                    result = await command()
            except StaleVersion:
                await self._catch_up()
                if not future.done():
                    future.set_exception(TableError("stale", "the table changed; try again"))
            except Exception as e:
                if not future.done():
                    future.set_exception(e)
                if not isinstance(e, TableError | IllegalAction | NotationError):
                    log.exception("table %s: command failed", self.info.id)
            else:
                if not future.done():
                    future.set_result(result)
