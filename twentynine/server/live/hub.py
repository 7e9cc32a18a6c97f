"""The hub every domain tells of a change that someone's open pages show.

Domains call ``app.state.live``:

- ``await live.send(user_ids, message)``: to these people, on every page they have open;
- ``await live.broadcast(message)``: to everyone signed in (a public table opened, say).

A message is one JSON object with ``type`` at its top and the ids and names it concerns. The hub
delivers it to the ``/ws/me`` sockets of this process; with several processes the live package
relays it to the others.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

Message = dict[str, Any]


class LiveHub:
    """One process's subscribers, by user id; a subscriber is a queue its socket drains."""

    def __init__(self) -> None:
        self.subscribers: dict[int, set[asyncio.Queue[Message]]] = {}

    def subscribe(self, user_id: int) -> asyncio.Queue[Message]:
        queue: asyncio.Queue[Message] = asyncio.Queue()
        self.subscribers.setdefault(user_id, set()).add(queue)
        return queue

    def unsubscribe(self, user_id: int, queue: asyncio.Queue[Message]) -> None:
        queues = self.subscribers.get(user_id)
        if queues is not None:
            queues.discard(queue)
            if not queues:
                del self.subscribers[user_id]

    async def send(self, user_ids: Iterable[int], message: Message) -> None:
        for user_id in set(user_ids):
            for queue in self.subscribers.get(user_id, ()):
                queue.put_nowait(message)

    async def broadcast(self, message: Message) -> None:
        for queues in self.subscribers.values():
            for queue in queues:
                queue.put_nowait(message)
