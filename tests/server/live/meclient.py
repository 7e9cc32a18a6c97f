"""A test client for the live channel (``/ws/me``): keeps every message, waits for a type."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import websockets

from ..conftest import Client, LiveServer

Message = dict[str, Any]


class MeSocket:
    def __init__(self, live: LiveServer, http: Client | None) -> None:
        self.live = live
        self.http = http
        self.ws: Any = None
        self.hello: Message = {}
        self.messages: list[Message] = []
        self.changed = asyncio.Event()
        self.reader: asyncio.Task[None] | None = None
        self.close_code: int | None = None

    def cookies(self) -> str:
        if self.http is None:
            return ""
        return "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())

    async def connect(
        self, last_id: int | None = None, origin: str | None = None, visitor: bool = False
    ) -> MeSocket:
        headers = {"Cookie": self.cookies()} if self.http is not None else {}
        query = "" if last_id is None else f"?last_id={last_id}"
        if visitor:
            query = "?visitor=1"
        self.ws = await websockets.connect(
            f"{self.live.ws_url}/ws/me{query}", additional_headers=headers, origin=origin
        )
        self.reader = asyncio.create_task(self._read())
        self.hello = await self.next("hello")
        return self

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                self.messages.append(json.loads(raw))
                self.changed.set()
        except websockets.ConnectionClosed as e:
            self.close_code = e.rcvd.code if e.rcvd else None
        self.changed.set()

    async def send(self, message: Message | str | bytes) -> None:
        await self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def of(self, kind: str) -> list[Message]:
        return [m for m in self.messages if m.get("type") == kind]

    def pass_over(self, kind: str) -> None:
        """The messages of ``kind`` that came so far are not what ``next`` waits for."""
        for m in self.of(kind):
            m["_taken"] = True

    async def next(
        self, kind: str, where: Callable[[Message], bool] = lambda m: True, timeout: float = 5
    ) -> Message:
        """The first message of ``kind`` (meeting ``where``) not taken yet by ``next``."""

        async def wait() -> Message:
            while True:
                for m in self.messages:
                    if m.get("type") == kind and where(m) and not m.get("_taken"):
                        m["_taken"] = True
                        return m
                if self.reader is not None and self.reader.done():
                    raise AssertionError(f"closed ({self.close_code}) before a {kind}")
                self.changed.clear()
                await self.changed.wait()

        return await asyncio.wait_for(wait(), timeout)

    async def closed_with(self, timeout: float = 5) -> int | None:
        """The close code of a socket the server refuses."""
        if self.reader is not None:
            await asyncio.wait_for(self.reader, timeout)
        return self.close_code

    @property
    def last_id(self) -> int:
        ids = [int(m["seq"]) for m in self.messages if "seq" in m]
        return max([int(self.hello.get("last_id", 0)), *ids])

    async def close(self) -> None:
        await self.ws.close()
        if self.reader is not None:
            await asyncio.wait_for(self.reader, 5)


async def refused(live: LiveServer, http: Client | None, origin: str | None = None) -> int | None:
    """The close code when the server refuses the socket (it accepts, then closes at once)."""
    headers = {"Cookie": MeSocket(live, http).cookies()} if http is not None else {}
    ws = await websockets.connect(f"{live.ws_url}/ws/me", additional_headers=headers, origin=origin)
    try:
        await asyncio.wait_for(ws.recv(), 5)
    except websockets.ConnectionClosed as e:
        return e.rcvd.code if e.rcvd else None
    raise AssertionError("the socket was not refused")
