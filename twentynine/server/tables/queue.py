"""The table's one ordered queue of commands: each runs alone, in the order it came.

A command runs on the table's worker task, or, when the caller asks (``here=True``) and the
table has nothing queued or running, at once in the caller's own task: a move from a socket
is most often the only thing the table has to do, and handing it to the worker costs a future
and a wake-up of another task for every move. Only the table socket's reader asks: a task that
nothing cancels while the server runs (a timer's task may be cancelled by the very command it
runs, and must not run one itself)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from ...engine import IllegalAction, NotationError
from ..sockets import Inbox
from .base import TableParts
from .errors import TableError
from .store import StaleVersion

log = logging.getLogger("twentynine.tables")

Command = Callable[[], Awaitable[Any]]

#: how many times a command is tried when other processes store changes to its table first
#: (three people joining one table through three processes: the last one's join fails twice)
TRIES = 6


class Commands(Inbox):
    """The commands waiting (each with the future of its result) and whether one is running:
    a list and one waiter (the worker), small for thousands of quiet tables."""

    __slots__ = ("running",)

    def __init__(self) -> None:
        super().__init__()
        #: a command is running (on the worker or in a caller's task)
        self.running = False

    def __len__(self) -> int:
        return self.qsize()

    @property
    def idle(self) -> bool:
        """Nothing waits or runs, and the worker waits for the next command."""
        return self.empty() and not self.running and self._waiter is not None

    def put(self, command: Command, future: asyncio.Future[Any]) -> None:
        self.put_nowait((command, future))

    async def next(self) -> tuple[Command, asyncio.Future[Any]]:
        """The first command waiting, once there is one and none is running (the worker's)."""
        while self.empty() or self.running:
            await self.woken()
        item: tuple[Command, asyncio.Future[Any]] = await self.get()
        return item


class CommandQueue(TableParts):
    async def submit(self, command: Command, here: bool = False) -> Any:
        """Run ``command`` in the table's order and return its result (or raise its error);
        ``here``: in this task if nothing is queued or running (see the module's note)."""
        queue = self.inbox
        worker = self.worker
        if here and not queue.running and not queue and worker is not None and not worker.done():
            queue.running = True
            try:
                return await self._run(command)
            finally:
                queue.running = False
                if queue:
                    queue.wake()  # what came meanwhile waits for the worker
        return await self.post(command)

    def post(self, command: Command) -> asyncio.Future[Any]:
        """Queue ``command`` in the table's order; the future of its result. Nobody need wait
        for it: a failure nobody reads is logged by the queue's worker."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        future.add_done_callback(lambda f: f.cancelled() or f.exception())
        self.inbox.put(command, future)
        return future

    async def _run(self, command: Command) -> Any:
        """``command``, tried again after catching up whenever another process stored a change
        first (up to ``TRIES`` times: each such failure is another process's change made, so
        a few processes acting at once all get through); unexpected failures are logged."""
        try:
            for _ in range(TRIES - 1):
                try:
                    return await command()
                except StaleVersion:
                    await self._catch_up()
            return await command()
        except StaleVersion as e:
            await self._catch_up()
            raise TableError("stale", "the table changed; try again") from e
        except Exception as e:
            if not isinstance(e, TableError | IllegalAction | NotationError):
                log.exception("table %s: command failed", self.info.id)
            raise

    async def _work(self) -> None:
        queue = self.inbox
        while True:
            command, future = await queue.next()
            queue.running = True
            try:
                result = await self._run(command)
            except Exception as e:
                if not future.done():
                    future.set_exception(e)
            else:
                if not future.done():
                    future.set_result(result)
            finally:
                queue.running = False
