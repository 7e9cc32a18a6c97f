"""A test client for the table socket: keeps the latest state, plays from its view."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import websockets

from ..conftest import Client, LiveServer


class TableSocket:
    def __init__(self, live: LiveServer, http: Client, table_id: str, query: str = "") -> None:
        self.live = live
        self.http = http
        self.table_id = table_id
        self.query = query
        self.ws: Any = None
        self.state: dict[str, Any] | None = None
        self.messages: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.chat: list[dict[str, Any]] = []
        self.reader: asyncio.Task[None] | None = None
        self.changed = asyncio.Event()

    async def connect(self, last_version: int | None = None) -> TableSocket:
        cookies = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        q = self.query
        if last_version is not None:
            q = f"{q}&last_version={last_version}" if q else f"last_version={last_version}"
        url = f"{self.live.ws_url}/ws/tables/{self.table_id}" + (f"?{q}" if q else "")
        self.ws = await websockets.connect(url, additional_headers={"Cookie": cookies})
        first = json.loads(await self.ws.recv())
        self._take(first)
        self.chat = list(first.get("chat", []))
        self.reader = asyncio.create_task(self._read())
        return self

    def _take(self, msg: dict[str, Any]) -> None:
        self.messages.append(msg)
        if msg["type"] == "state":
            self.state = msg
        elif msg["type"] == "error":
            self.errors.append(msg)
        elif msg["type"] == "chat":
            self.chat.append(msg["line"])
        self.changed.set()

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                self._take(json.loads(raw))
        except websockets.ConnectionClosed:
            pass

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def close(self) -> None:
        await self.ws.close()
        if self.reader:
            await asyncio.wait_for(self.reader, 5)

    @property
    def view(self) -> dict[str, Any]:
        assert self.state is not None and self.state["view"] is not None
        return self.state["view"]

    @property
    def version(self) -> int:
        assert self.state is not None
        return int(self.state["version"])

    async def wait_for(self, predicate: Any, timeout: float = 20) -> dict[str, Any]:
        async def waiter() -> dict[str, Any]:
            while True:
                if self.state is not None and predicate(self.state):
                    return self.state
                self.changed.clear()
                await self.changed.wait()

        return await asyncio.wait_for(waiter(), timeout)

    def seen_event(self, kind: str) -> bool:
        """Has any state message so far carried an event of this type? (The latest state alone
        may not: two messages can arrive before a waiter looks.)"""
        states = (m for m in self.messages if m["type"] == "state")
        return any(e["type"] == kind for m in states for e in m.get("events", ()))

    async def wait_error(self, count: int, timeout: float = 10) -> dict[str, Any]:
        async def waiter() -> dict[str, Any]:
            while len(self.errors) < count:
                self.changed.clear()
                await self.changed.wait()
            return self.errors[count - 1]

        return await asyncio.wait_for(waiter(), timeout)


def unexpected_errors(sock: TableSocket) -> list[dict[str, Any]]:
    """Errors other than a stale move that lost a race to another seat."""
    return [e for e in sock.errors if e["reason"] != "stale"]


def my_turn(state: dict[str, Any]) -> bool:
    v = state.get("view")
    return bool(v and v["legal"])


def first_legal(legal: list[dict[str, Any]]) -> dict[str, Any]:
    return legal[0]


def no_single_hand(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The first legal action other than Single Hand (a Single Hand sits the caller's partner
    out of the deal, which a test of that partner's turns cannot have)."""
    return next((a for a in legal if a["act"] != "single_hand"), legal[0])


async def play_until(
    sockets: list[TableSocket], done: Any, timeout: float = 60, choose: Any = first_legal
) -> None:
    """Every socket plays ``choose(legal actions)`` (the first legal action unless told)
    whenever it may act, until ``done()``."""

    async def loop() -> None:
        while not done():
            acted = False
            for s in sockets:
                st = s.state
                if st and st["view"] and st["view"]["legal_json"]:
                    before = st["version"]
                    # the version makes a move that raced another seat's (say, two players who
                    # may both Double) come back as "stale" instead of being misapplied
                    action = {"type": "act", "version": before, **choose(st["view"]["legal_json"])}
                    errors = len(s.errors)
                    await s.send(action)
                    await s.wait_for(
                        lambda x, b=before, q=s, n=errors: x["version"] > b or len(q.errors) > n
                    )
                    acted = True
                    break
            if not acted:
                await asyncio.sleep(0.02)

    await asyncio.wait_for(loop(), timeout)


async def deal_in_play(sockets: list[TableSocket], timeout: float = 20) -> int:
    """Wait until every socket has the same state of a deal someone may act in (a first deal
    can end invalid before the sockets connect, and the next one comes a moment later); the
    seat to act."""

    async def waiter() -> int:
        while True:
            states = [s.state for s in sockets]
            if all(st is not None for st in states):
                versions = {st["version"] for st in states if st is not None}
                acting = [i for i, s in enumerate(sockets) if s.state and my_turn(s.state)]
                if len(versions) == 1 and acting:
                    return acting[0]
            for s in sockets:
                s.changed.clear()
            waits = [asyncio.ensure_future(s.changed.wait()) for s in sockets]
            try:
                await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for w in waits:
                    w.cancel()

    return await asyncio.wait_for(waiter(), timeout)
