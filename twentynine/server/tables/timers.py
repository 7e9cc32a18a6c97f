"""The table's timers: each a task that waits, then queues its command on the table."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from .base import TableParts


class Timers(TableParts):
    def _start_timer(self, key: str, seconds: float, command: Callable[[], Awaitable[Any]]) -> None:
        self._cancel_timer(key)

        async def later() -> None:
            await asyncio.sleep(seconds)
            self.timers.pop(key, None)
            with contextlib.suppress(Exception):
                await self.submit(command)

        self.timers[key] = asyncio.create_task(later())

    def _cancel_timer(self, key: str) -> None:
        task = self.timers.pop(key, None)
        if task is not None:
            task.cancel()
