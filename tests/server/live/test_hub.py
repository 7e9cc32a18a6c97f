"""The hub other domains call (``app.state.live``): ``send`` numbers and stores each person's
copy, ``broadcast`` reaches everyone, a queue from ``subscribe`` gets what a page would; and the
notice preferences over HTTP."""

from __future__ import annotations

import asyncio

from fastapi import FastAPI

from twentynine.server.live.hub import LiveHub

from ..conftest import Client, sign_in


async def test_a_hub_not_started_delivers_to_this_process_only() -> None:
    hub = LiveHub()
    queue = hub.subscribe(7)
    other = hub.subscribe(8)
    await hub.send([7, 7], {"type": "ping_me", "n": 1})
    assert queue.get_nowait() == {"type": "ping_me", "n": 1}  # once, though named twice
    assert other.empty()
    await hub.broadcast({"type": "news"})
    assert queue.get_nowait() == {"type": "news"} and other.get_nowait() == {"type": "news"}
    hub.unsubscribe(7, queue)
    await hub.send([7], {"type": "gone"})
    assert queue.empty() and 7 not in hub.subscribers


async def test_send_numbers_each_persons_copy_and_stores_it(app: FastAPI) -> None:
    a = await sign_in(app, "asha@example.com", "Asha")
    b = await sign_in(app, "bo@example.com", "Bo")
    a_id = (await a.get("/api/me")).json()["id"]
    b_id = (await b.get("/api/me")).json()["id"]
    hub: LiveHub = app.state.live
    qa, qb = hub.subscribe(a_id), hub.subscribe(b_id)
    # sends that come together are written together, each person's ids in order
    await asyncio.gather(
        hub.send([a_id, b_id], {"type": "x", "n": 1}),
        hub.send([b_id], {"type": "x", "n": 2}),
        hub.send([a_id, 999999], {"type": "x", "n": 3}),  # no such account: left out
    )
    got_a = [qa.get_nowait(), qa.get_nowait()]
    got_b = [qb.get_nowait(), qb.get_nowait()]
    assert [(m["n"], m["seq"]) for m in got_a] == [(1, 1), (3, 2)]
    assert [(m["n"], m["seq"]) for m in got_b] == [(1, 1), (2, 2)]
    assert hub.store is not None
    caught = await hub.store.since(b_id, 0)
    assert caught.complete and [m["n"] for m in caught.messages] == [1, 2]
    assert await hub.store.last_id(a_id) == 2
    # a broadcast is nobody's to catch up on: no id, not stored
    await hub.broadcast({"type": "news"})
    assert "seq" not in qa.get_nowait()
    assert await hub.store.last_id(a_id) == 2
    # post: the same without waiting
    hub.post([a_id], {"type": "x", "n": 4})
    assert (await asyncio.wait_for(qa.get(), 5))["seq"] == 3
    for c in (a, b):
        await c.aclose()


async def test_notice_preferences(app: FastAPI, anon: Client) -> None:
    a = await sign_in(app, "asha@example.com", "Asha")
    assert (await a.get("/api/live/prefs")).json() == {"sound": False, "notify": False}
    r = await a.put("/api/live/prefs", json={"sound": True})
    assert r.status_code == 200 and r.json() == {"sound": True, "notify": False}
    r = await a.put("/api/live/prefs", json={"notify": True})
    assert r.json() == {"sound": True, "notify": True}
    for bad in ({"sound": "yes"}, {"sound": 1}, {"loud": True}, [True], "x"):
        r = await a.put("/api/live/prefs", json=bad)
        assert r.status_code == 422, (bad, r.text)
    assert (await a.get("/api/live/prefs")).json() == {"sound": True, "notify": True}
    # another person's are their own; anonymous: 401; without the CSRF header: refused
    b = await sign_in(app, "bo@example.com", "Bo")
    assert (await b.get("/api/live/prefs")).json() == {"sound": False, "notify": False}
    assert (await anon.get("/api/live/prefs")).status_code == 401
    assert (await anon.put("/api/live/prefs", json={"sound": True})).status_code in (401, 403)
    r = await b.put("/api/live/prefs", json={"sound": True}, headers={"x-csrf-token": "wrong"})
    assert r.status_code == 403
    assert (await b.get("/api/live/prefs")).json()["sound"] is False
    # the counts are open to all
    r = await anon.get("/api/live/counts")
    assert r.status_code == 200 and set(r.json()) == {"online", "playing"}
    for c in (a, b):
        await c.aclose()
