"""A page that (re)connects while messages are being sent to its person: every numbered message
reaches it once, in order, whether it came in the catch-up or live, and whichever process the
page is open on.

The window: a message is stored (numbered) first and handed to the pages after; a page that
opens in between finds it in the store when it catches up, and must not take it a second time
when it is handed over. Across processes the window is wide: the other process hands it over
only when the relay brings it."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import orjson

from twentynine.server.live.hub import encode
from twentynine.server.live.socket import Page

from ..conftest import LiveServer
from .meclient import MeSocket
from .test_socket import person


async def send_on_server(live: LiveServer, user_id: int, n: int) -> None:
    """``hub.send`` to ``user_id`` on the server's own event loop (it runs in another thread)."""
    hub = live.app.state.live
    assert hub.loop is not None
    message = {"type": "test_note", "n": n}
    await asyncio.wrap_future(
        asyncio.run_coroutine_threadsafe(hub.send([user_id], message), hub.loop)
    )


def numbered(page: MeSocket) -> list[int]:
    return [int(m["seq"]) for m in page.messages if m.get("type") == "test_note"]


async def reconnecting_pages(
    servers: list[LiveServer], http: list[Any], sender: asyncio.Task[None], rng: random.Random
) -> tuple[int, list[tuple[int, list[int]]]]:
    """Open a page, read a moment, close it, open the next from the last number seen (on a
    server drawn at random), until ``sender`` is done, and once more after: where the first
    page's stream began, and each page's (the number it went on from, numbers it took)."""
    pages: list[tuple[int, list[int]]] = []
    began: int | None = None
    last: int | None = None
    while True:
        done = sender.done()
        i = rng.randrange(len(servers))
        page = await MeSocket(servers[i], http[i]).connect(last_id=last)
        await asyncio.sleep(0.3 if done else rng.uniform(0, 0.03))
        await page.close()
        took = numbered(page)
        assert took == sorted(set(took)), f"a page took {took}"
        if last is None:  # a first page: no catch-up, the stream from where its hello stands
            # (what was stored before it and reaches the page after is news to it: it was sent
            # nothing before)
            began = int(page.hello["last_id"])
            took = [n for n in took if n > began]
        pages.append((began if last is None else last, took))
        last = page.last_id
        if done:
            assert began is not None
            return began, pages


async def check_pages(
    servers: list[LiveServer], http: list[Any], user_id: int, count: int, seed: int
) -> None:
    rng = random.Random(seed)

    async def sender() -> None:
        for n in range(count):
            if rng.random() < 0.3:  # a few at once: they are stored in one batch
                await asyncio.gather(*(send_on_server(servers[0], user_id, n) for _ in range(3)))
            else:
                await send_on_server(servers[0], user_id, n)
            await asyncio.sleep(rng.uniform(0, 0.004))

    # a page open throughout, on the sending process, sees the stream as it is numbered
    watcher = await MeSocket(servers[0], http[0]).connect()
    task = asyncio.create_task(sender())
    began, pages = await reconnecting_pages(servers, http, task, rng)
    await task
    await watcher.close()
    stream = numbered(watcher)
    assert len(stream) >= count
    assert stream == list(range(stream[0], stream[0] + len(stream))), "the stream has gaps"
    assert len(pages) >= 5, "too few pages opened to test anything"
    for last_id, seen in pages:
        assert seen == sorted(set(seen)), f"a page asked from {last_id} took {seen}"
        assert not seen or seen[0] > last_id, f"asked from {last_id}, got {seen[0]}"
    # each page asked from the last number the one before saw: together, every message after
    # the first page's start, once
    together = [n for _, seen in pages for n in seen]
    assert together == list(range(began + 1, stream[-1] + 1))


async def test_a_page_opening_while_messages_are_sent_takes_each_once(live: LiveServer) -> None:
    b, b_id = await person(live, "bo@example.com", "Bo")
    await check_pages([live], [b], b_id, 120, seed=1)


async def test_across_processes_each_message_reaches_a_reopened_page_once(
    live_pair: tuple[LiveServer, LiveServer],
) -> None:
    one, two = live_pair
    b, b_id = await person(one, "bo@example.com", "Bo")
    await check_pages([one, two], [b, two.same_person(b)], b_id, 120, seed=2)


class _Written:
    """A page's socket that takes every frame at once."""

    def __init__(self) -> None:
        self.frames: list[bytes] = []

    def write_now(self, data: bytes) -> bool:
        self.frames.append(data)
        return True


def _hand_over(page: Page, seq: int) -> None:
    """The hub hands ``page`` a numbered message."""
    message = {"type": "test_note", "seq": seq}
    page.deliver(message, encode(message))


def test_a_page_drops_only_what_its_catch_up_sent() -> None:
    def seqs(ws: _Written) -> list[int]:
        return [int(orjson.loads(f)["seq"]) for f in ws.frames]

    # caught up from 4 to 7: 5-7 were sent in the catch-up, 8 is new
    ws = _Written()
    page = Page(ws, 1)  # type: ignore[arg-type]
    page.caught_up(7)
    for n in (5, 7, 8):
        _hand_over(page, n)
    assert seqs(ws) == [8]
    # a first page asked for nothing and was sent nothing: a message stored before its hello
    # that reaches it after is news to it
    ws = _Written()
    page = Page(ws, 1)  # type: ignore[arg-type]
    _hand_over(page, 6)
    page.caught_up(None)
    _hand_over(page, 7)
    assert seqs(ws) == [6, 7]
