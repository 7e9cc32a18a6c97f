"""The live channel ``/ws/me``: who may open it, bad input on it, the friends' messages, the
catch-up after a reconnect, presence and the counts (one server; several: test_processes.py)."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from twentynine.server.db import make_engine, make_sessionmaker
from twentynine.server.live.presence import GRACE_S
from twentynine.server.live.store import MessageStore

from ..conftest import Client, LiveServer
from .meclient import MeSocket, refused


async def person(live: LiveServer, email: str, name: str) -> tuple[Client, int]:
    c = await live.sign_in(email, name)
    return c, int((await c.get("/api/me")).json()["id"])


async def ask(c: Client, email: str) -> Any:
    r = await c.post("/api/friends/requests", json={"email": email})
    assert r.status_code in (200, 201), r.text
    return r.json()


async def befriend(a: Client, b: Client, b_email: str, a_id: int) -> None:
    await ask(a, b_email)
    r = await b.post(f"/api/friends/requests/{a_id}/accept")
    assert r.status_code == 200, r.text


# -- who may open it, and bad input -----------------------------------------------------------
async def test_the_socket_needs_a_session_and_this_sites_origin(live: LiveServer) -> None:
    a, _ = await person(live, "asha@example.com", "Asha")
    assert await refused(live, None) == 4401
    bogus = live.client()
    bogus.cookies.set("tn_session", "not-a-session")
    assert await refused(live, bogus) == 4401
    assert await refused(live, a, origin="http://evil.example") == 4403
    assert await refused(live, None, origin="http://evil.example") == 4403
    own = live.url  # a browser on this site: accepted
    me = await MeSocket(live, a).connect(origin=own)
    assert me.hello["type"] == "hello" and me.hello["complete"] is True
    await me.close()
    r = await a.post("/api/auth/logout")
    assert r.status_code == 200
    assert await refused(live, a) == 4401  # the ended session no longer opens it


async def test_closing_a_persons_pages_ends_them_on_the_spot(live: LiveServer) -> None:
    a, a_id = await person(live, "asha@example.com", "Asha")
    b, _ = await person(live, "bo@example.com", "Bo")
    pages = [await MeSocket(live, a).connect() for _ in range(2)]
    other = await MeSocket(live, b).connect()
    hub = live.app.state.live
    done = asyncio.run_coroutine_threadsafe(hub.close_pages(a_id), hub.loop)
    await asyncio.wrap_future(done)
    for page in pages:
        assert await page.closed_with() == 4401
    await other.send({"type": "ping"})
    await other.next("pong")  # another person's page stays open
    await other.close()


async def test_signing_out_closes_that_sessions_pages_only(live: LiveServer) -> None:
    """The browser's other tabs stop hearing of the account (on a shared computer the next
    person would see its notices); the person's other devices keep theirs."""
    a, _ = await person(live, "asha@example.com", "Asha")
    phone = await live.sign_in("asha@example.com", "Asha")  # another session of hers
    b, _ = await person(live, "bo@example.com", "Bo")
    tabs = [await MeSocket(live, a).connect() for _ in range(2)]
    on_phone = await MeSocket(live, phone).connect()
    assert (await a.post("/api/auth/logout")).status_code == 200
    for tab in tabs:
        assert await tab.closed_with(timeout=2) == 4401
    await ask(b, "asha@example.com")
    await on_phone.next("friend_request", timeout=2)
    await on_phone.close()


async def test_bad_messages_are_answered_with_an_error_and_change_nothing(
    live: LiveServer,
) -> None:
    a, _ = await person(live, "asha@example.com", "Asha")
    me = await MeSocket(live, a).connect()
    cases: list[tuple[Any, str]] = [
        ("not json", "malformed"),
        ("[1, 2]", "malformed"),
        ({"type": "nonsense"}, "malformed"),
        ({"type": "hello", "last_id": -1}, "malformed"),
        ({"type": "hello", "last_id": "7"}, "malformed"),
        ({"type": "hello", "last_id": 2**40}, "malformed"),
        ({"type": "ping", "extra": 1}, "malformed"),
        ({"type": "watch"}, "malformed"),
        ({"type": "watch", "lobby": "yes"}, "malformed"),
        ({"type": "watch", "lobby": True, "everything": True}, "malformed"),
        ({"type": "watch", "tables": 1}, "malformed"),
        ({"type": "watch", "leaderboard": "on"}, "malformed"),
        ("[" * 5000, "too_large"),
        (b"\x00\x01", "malformed"),
    ]
    for sent, reason in cases:
        await me.send(sent)
        error = await me.next("error")
        assert error["reason"] == reason, (sent, error)
    await me.send({"type": "ping"})
    await me.next("pong")  # still open and answering
    await me.close()


async def test_messages_are_rate_limited_per_socket(live: LiveServer) -> None:
    a, _ = await person(live, "asha@example.com", "Asha")
    me = await MeSocket(live, a).connect()
    limit = live.app.state.settings.socket_messages_per_10s
    for _ in range(limit + 3):
        await me.send({"type": "ping"})
    await me.next("error", lambda m: m["reason"] == "rate_limited")
    assert len(me.of("pong")) <= limit
    await me.close()


# -- the friends' messages ------------------------------------------------------------------
async def test_friend_request_answer_and_end_reach_the_other_persons_open_page(
    live: LiveServer,
) -> None:
    a, a_id = await person(live, "asha@example.com", "Asha")
    b, b_id = await person(live, "bo@example.com", "Bo")
    b_page = await MeSocket(live, b).connect()
    a_page = await MeSocket(live, a).connect()

    t0 = time.monotonic()
    await ask(a, "bo@example.com")
    got = await b_page.next("friend_request", timeout=1)
    assert time.monotonic() - t0 < 1
    assert got["user_id"] == a_id and got["name"] == "Asha" and got["seq"] >= 1
    mine = await a_page.next("friend_requested", timeout=1)
    assert mine["user_id"] == b_id and mine["name"] == "Bo"

    assert (await b.post(f"/api/friends/requests/{a_id}/accept")).status_code == 200
    accepted = await a_page.next("friend_accepted", timeout=1)
    assert accepted["user_id"] == b_id and accepted["name"] == "Bo"
    assert (await b_page.next("friend_accepted", timeout=1))["user_id"] == a_id

    assert (await a.delete(f"/api/friends/{b_id}")).status_code == 200
    removed = await b_page.next("friend_removed", timeout=1)
    assert removed["user_id"] == a_id and removed["name"] == "Asha"

    await ask(b, "asha@example.com")
    await a_page.next("friend_request", timeout=1)
    assert (await a.post(f"/api/friends/requests/{b_id}/decline")).status_code == 200
    assert (await b_page.next("friend_declined", timeout=1))["user_id"] == a_id

    await ask(b, "asha@example.com")
    assert (await b.delete(f"/api/friends/requests/{a_id}")).status_code == 200
    assert (await a_page.next("friend_cancelled", timeout=1))["user_id"] == b_id

    # each person's ids count up one by one
    ids = [m["seq"] for m in b_page.messages if "seq" in m]
    assert ids == list(range(ids[0], ids[0] + len(ids)))

    # a refused request tells no one
    def told() -> int:  # messages of the friends domain (not presence or counts)
        return sum(1 for m in b_page.messages if m["type"].startswith("friend_"))

    before = told()
    r = await a.post("/api/friends/requests", json={"email": "nobody@example.com"})
    assert r.status_code == 404
    await asyncio.sleep(0.3)
    assert told() == before
    await a_page.close()
    await b_page.close()


async def test_every_open_page_of_a_person_gets_it(live: LiveServer) -> None:
    a, a_id = await person(live, "asha@example.com", "Asha")
    b, _ = await person(live, "bo@example.com", "Bo")
    pages = [await MeSocket(live, b).connect() for _ in range(3)]
    await ask(a, "bo@example.com")
    for page in pages:
        assert (await page.next("friend_request", timeout=1))["user_id"] == a_id
        await page.close()


# -- catch-up -------------------------------------------------------------------------------
async def test_a_reconnecting_page_gets_what_it_missed_once(live: LiveServer) -> None:
    a, a_id = await person(live, "asha@example.com", "Asha")
    b, b_id = await person(live, "bo@example.com", "Bo")
    c, c_id = await person(live, "cai@example.com", "Cai")
    page = await MeSocket(live, b).connect()
    await ask(a, "bo@example.com")
    first = await page.next("friend_request")
    seen = page.last_id
    assert seen == first["seq"]
    await page.close()

    # while the page is away: a request from Cai, Asha withdraws hers
    await ask(c, "bo@example.com")
    assert (await a.delete(f"/api/friends/requests/{b_id}")).status_code == 200

    back = await MeSocket(live, b).connect(last_id=seen)
    assert back.hello["complete"] is True and back.hello["missed"] == 2
    missed = [await back.next("friend_request"), await back.next("friend_cancelled")]
    assert [m["user_id"] for m in missed] == [c_id, a_id]
    assert [m["seq"] for m in missed] == [seen + 1, seen + 2]
    assert back.hello["last_id"] == seen + 2
    # nothing twice: the live messages after the catch-up go on from there
    await ask(a, "bo@example.com")
    live_one = await back.next("friend_request", lambda m: m["user_id"] == a_id)
    assert live_one["seq"] == seen + 3
    await asyncio.sleep(0.2)
    ids = [m["seq"] for m in back.messages if "seq" in m]
    assert len(ids) == len(set(ids)) == 3

    # asking again on the open socket (hello) sends them again, for a page that lost them
    await back.send({"type": "hello", "last_id": seen})
    again = await back.next("hello")
    assert again["missed"] == 3 and again["complete"] is True
    await back.close()

    # up to date: nothing missed; an id this site never gave: not complete (reload the page)
    fresh = await MeSocket(live, b).connect(last_id=seen + 3)
    assert fresh.hello["missed"] == 0 and fresh.hello["complete"] is True
    await fresh.close()
    odd = await MeSocket(live, b).connect(last_id=seen + 50)
    assert odd.hello["complete"] is False and odd.hello["last_id"] == seen + 3
    await odd.close()
    # a first connection (no last_id) replays nothing but says where the stream is
    plain = await MeSocket(live, b).connect()
    assert plain.hello["missed"] == 0 and plain.hello["last_id"] == seen + 3
    await plain.close()


async def test_catch_up_of_messages_no_longer_kept_is_not_complete(live: LiveServer) -> None:
    import datetime as dt

    a, _ = await person(live, "asha@example.com", "Asha")
    b, _ = await person(live, "bo@example.com", "Bo")
    await ask(a, "bo@example.com")
    # the server's own store works on the server's event loop: a store of the test's own
    engine = make_engine(live.app.state.settings.resolved_database_url)
    try:
        assert await MessageStore(make_sessionmaker(engine)).prune(dt.timedelta(0)) >= 1
    finally:
        await engine.dispose()
    back = await MeSocket(live, b).connect(last_id=0)
    assert back.hello["complete"] is False and back.hello["missed"] == 0
    assert back.hello["last_id"] >= 1
    await back.close()


async def test_messages_are_sent_as_json_objects_with_type_first(live: LiveServer) -> None:
    a, _ = await person(live, "asha@example.com", "Asha")
    b, _ = await person(live, "bo@example.com", "Bo")
    import websockets

    cookies = MeSocket(live, b).cookies()
    async with websockets.connect(
        f"{live.ws_url}/ws/me", additional_headers={"Cookie": cookies}
    ) as ws:
        hello = await ws.recv()
        assert isinstance(hello, str) and hello.startswith('{"type":"hello"')
        await ask(a, "bo@example.com")
        while True:
            raw = await asyncio.wait_for(ws.recv(), 2)
            if '"friend_request"' in raw:
                break
        assert json.loads(raw)["type"] == "friend_request"
        assert raw.startswith('{"type":')


# -- presence and counts ---------------------------------------------------------------------
async def test_friends_see_each_other_come_and_go(live: LiveServer) -> None:
    a, a_id = await person(live, "asha@example.com", "Asha")
    b, b_id = await person(live, "bo@example.com", "Bo")
    s, _ = await person(live, "sam@example.com", "Sam")  # no one's friend
    await befriend(a, b, "bo@example.com", a_id)
    b_page = await MeSocket(live, b).connect()
    s_page = await MeSocket(live, s).connect()
    assert b_page.hello["friends"] == {}
    a_page = await MeSocket(live, a).connect()
    assert a_page.hello["friends"] == {str(b_id): "online"}
    online = await b_page.next("presence", lambda m: m["user_id"] == a_id, timeout=1)
    assert online["state"] == "online" and online["name"] == "Asha"
    await a_page.close()
    offline = await b_page.next("presence", lambda m: m["user_id"] == a_id, timeout=2)
    assert offline["state"] == "offline"
    await asyncio.sleep(0.3)
    assert not [m for m in s_page.of("presence") if m["user_id"] == a_id]  # not Sam's friend
    await b_page.close()
    await s_page.close()


async def test_a_reload_is_not_told_as_leaving(live: LiveServer) -> None:
    """A page closed and opened again at once (a reload, a link to another page) keeps its
    person online for friends: no "offline" and "online" again. Closed for good, it is told
    once the grace (``presence.GRACE_S``) is over."""
    a, a_id = await person(live, "asha@example.com", "Asha")
    b, b_id = await person(live, "bo@example.com", "Bo")
    await befriend(a, b, "bo@example.com", a_id)
    b_page = await MeSocket(live, b).connect()
    a_page = await MeSocket(live, a).connect()
    await b_page.next("presence", lambda m: m["user_id"] == a_id, timeout=1)
    for _ in range(3):  # three reloads, each page open a moment
        await a_page.close()
        await asyncio.sleep(0.15)
        a_page = await MeSocket(live, a).connect()
        assert a_page.hello["friends"] == {str(b_id): "online"}
        await asyncio.sleep(0.3)
    await asyncio.sleep(GRACE_S + 0.3)
    assert [m["state"] for m in b_page.of("presence")] == ["online"]
    closed_at = asyncio.get_running_loop().time()
    await a_page.close()
    offline = await b_page.next("presence", lambda m: m["user_id"] == a_id, timeout=2)
    assert offline["state"] == "offline"
    assert asyncio.get_running_loop().time() - closed_at >= GRACE_S - 0.1
    await b_page.close()


async def test_counts_of_people_online_come_with_hello_and_follow(live: LiveServer) -> None:
    """The counts come with hello, and then only to pages that show them (``watch``)."""
    a, _ = await person(live, "asha@example.com", "Asha")
    b, _ = await person(live, "bo@example.com", "Bo")
    c, _ = await person(live, "cy@example.com", "Cy")
    a_page = await MeSocket(live, a).connect()
    await a_page.send({"type": "watch", "counts": True})
    await a_page.next("counts", timeout=0.5)  # at once, as last counted: they may have changed
    now = await a_page.next("counts", lambda m: m["online"] == 1, timeout=2)
    assert now["playing"] == 0
    c_page = await MeSocket(live, c).connect()  # a page that does not show the counts
    await asyncio.sleep(0.2)
    b_page = await MeSocket(live, b).connect()
    assert b_page.hello["online"] >= 1 and b_page.hello["playing"] == 0  # as last counted
    counts = await a_page.next("counts", lambda m: m["online"] == 3, timeout=2)
    assert counts["playing"] == 0
    await b_page.close()
    await a_page.next("counts", lambda m: m["online"] == 2, timeout=2)
    assert c_page.of("counts") == []
    # a page that stops showing them is told no more
    await a_page.send({"type": "watch", "counts": False})
    await asyncio.sleep(0.2)
    told = len(a_page.of("counts"))
    b_page = await MeSocket(live, b).connect()
    await asyncio.sleep(1.5)
    assert len(a_page.of("counts")) == told and c_page.of("counts") == []
    for page in (a_page, b_page, c_page):
        await page.close()


async def test_a_watch_must_name_a_topic(live: LiveServer) -> None:
    a, _ = await person(live, "asha@example.com", "Asha")
    page = await MeSocket(live, a).connect()
    await page.send({"type": "watch"})
    error = await page.next("error", timeout=2)
    assert error["reason"] == "malformed" and "lobby, counts" in error["message"]
    await page.send({"type": "watch", "counts": "yes"})
    assert (await page.next("error", lambda m: "counts" in m["message"], timeout=2))[
        "reason"
    ] == "malformed"
    await page.send({"type": "watch", "accounts": "yes"})
    assert (await page.next("error", lambda m: "accounts" in m["message"], timeout=2))[
        "reason"
    ] == "malformed"
    await page.close()


# -- a visitor's page, and the admin page's tables ----------------------------------------------
async def test_a_visitor_hears_what_everyone_hears_and_nothing_of_anyones_own(
    live: LiveServer,
) -> None:
    """A page with no session opens ``/ws/me?visitor=1``: hello with the counts, what is told
    to everyone (the rated queue's count) and the topics it follows; no friends, nothing
    stored, nobody's own news, and not every table's changes."""
    a, _ = await person(live, "asha@example.com", "Asha")
    b, _ = await person(live, "bo@example.com", "Bo")
    visitor = await MeSocket(live, None).connect(visitor=True)
    assert visitor.hello["user_id"] is None and "online" in visitor.hello
    assert "friends" not in visitor.hello and visitor.hello["missed"] == 0
    r = await a.post("/api/matchmaking/queue")
    assert r.status_code == 200, r.text
    await visitor.next("rated_queue", lambda m: m["waiting"] == 1, timeout=2)
    await ask(b, "asha@example.com")  # Asha's own news
    await visitor.send({"type": "watch", "counts": True})
    await visitor.next("counts", timeout=2)
    await visitor.send({"type": "watch", "tables": True})
    assert (await visitor.next("error", timeout=2))["reason"] == "forbidden"
    await visitor.send({"type": "ping"})
    await visitor.next("pong", timeout=2)
    assert visitor.of("friend_request") == [] and not any("seq" in m for m in visitor.messages)
    assert await refused(live, None) == 4401  # without asking to visit: sign in first
    await visitor.close()


async def test_only_an_admins_page_follows_every_tables_changes(live: LiveServer) -> None:
    """The admin page's list of open tables follows ``tables``: a solo table someone else
    opens and closes reaches it at once; the page of someone who is not an admin may not."""
    ada, _ = await person(live, "ada@example.com", "Ada")  # a new server's first account: admin
    bo, _ = await person(live, "bo@example.com", "Bo")
    admin_page = await MeSocket(live, ada).connect()
    bo_page = await MeSocket(live, bo).connect()
    await bo_page.send({"type": "watch", "tables": True})
    assert (await bo_page.next("error", timeout=2))["reason"] == "forbidden"
    await admin_page.send({"type": "watch", "tables": True})
    await admin_page.send({"type": "ping"})
    await admin_page.next("pong", timeout=2)  # the watch came first
    seats = ["me", "bot:random", "bot:random", "bot:random"]
    r = await bo.post("/api/tables", json={"kind": "solo", "seats": seats})
    assert r.status_code == 201, r.text
    table_id = r.json()["id"]
    opened = await admin_page.next("table_changed", lambda m: m["table_id"] == table_id, 2)
    assert opened["change"] == "opened" and opened["kind"] == "solo"
    assert (await bo.post(f"/api/tables/{table_id}/close")).status_code == 200
    closed = await admin_page.next("table_changed", lambda m: m["change"] == "closed", 2)
    assert closed["table_id"] == table_id
    # a page that stops following is told no more
    await admin_page.send({"type": "watch", "tables": False})
    await admin_page.send({"type": "ping"})
    await admin_page.next("pong", timeout=2)
    r = await bo.post("/api/tables", json={"kind": "solo", "seats": seats})
    other = r.json()["id"]
    await bo_page.send({"type": "ping"})
    await bo_page.next("pong", timeout=2)
    await asyncio.sleep(0.3)
    assert [m for m in admin_page.of("table_changed") if m["table_id"] == other] == []
    for page in (admin_page, bo_page):
        await page.close()


async def test_an_admins_page_follows_every_change_to_the_list_of_accounts(
    live: LiveServer,
) -> None:
    """The admin page's list of accounts follows ``accounts``: a sign-up, a rename, a new
    friendship, a tier and disabling reach it at once; someone who is not an admin may not
    follow it."""
    ada, ada_id = await person(live, "ada@example.com", "Ada")  # the first account: an admin
    bo, bo_id = await person(live, "bo@example.com", "Bo")
    bo_page = await MeSocket(live, bo).connect()
    await bo_page.send({"type": "watch", "accounts": True})
    assert (await bo_page.next("error", timeout=2))["reason"] == "forbidden"
    admin_page = await MeSocket(live, ada).connect()
    await admin_page.send({"type": "watch", "accounts": True})
    await admin_page.send({"type": "ping"})
    await admin_page.next("pong", timeout=2)  # the watch came first

    def listed(user_id: int, change: str) -> Any:
        return admin_page.next(
            "account_listed", lambda m: m["user_id"] == user_id and m["change"] == change, 2
        )

    cy, cy_id = await person(live, "cy@example.com", "Cy")
    assert "seq" not in await listed(cy_id, "created")
    assert (await cy.patch("/api/me", json={"first_name": "Cyrus"})).status_code == 200
    await listed(cy_id, "renamed")
    await befriend(bo, cy, "cy@example.com", bo_id)
    await listed(bo_id, "friends")
    await listed(cy_id, "friends")
    r = await ada.post(f"/api/admin/users/{cy_id}/tier", json={"tier": "standard"})
    assert r.status_code == 200, r.text
    await listed(cy_id, "tier")
    assert (await ada.post(f"/api/admin/users/{cy_id}/disable")).status_code == 200
    await listed(cy_id, "disabled")
    assert (await ada.post(f"/api/admin/users/{cy_id}/enable")).status_code == 200
    await listed(cy_id, "enabled")
    # signing in again makes nothing new to list
    await live.sign_in("bo@example.com", "Bo")
    await admin_page.send({"type": "ping"})
    await admin_page.next("pong", timeout=2)
    made = [m["user_id"] for m in admin_page.of("account_listed") if m["change"] == "created"]
    assert made == [cy_id]
    assert bo_page.of("account_listed") == [] and ada_id != cy_id
    for page in (admin_page, bo_page):
        await page.close()


async def test_a_new_name_reaches_the_friends_lists_that_show_it(live: LiveServer) -> None:
    a, a_id = await person(live, "asha@example.com", "Asha")
    b, b_id = await person(live, "bo@example.com", "Bo")
    c, _ = await person(live, "cai@example.com", "Cai")
    d, _ = await person(live, "dev@example.com", "Dev")
    await befriend(a, b, "bo@example.com", a_id)
    await ask(a, "cai@example.com")  # not answered yet: Cai's list shows Asha's request
    pages = {who: await MeSocket(live, c).connect() for who, c in (("b", b), ("c", c), ("d", d))}
    a_page = await MeSocket(live, a).connect()  # her own page, open since before
    online = await pages["b"].next("presence", lambda m: m["user_id"] == a_id, timeout=1)
    assert online["name"] == "Asha"
    assert (await a.patch("/api/me", json={"first_name": "Ashalata"})).status_code == 200
    for who in ("b", "c"):
        got = await pages[who].next("friend_renamed", timeout=1)
        assert got["user_id"] == a_id and got["name"] == "Ashalata"
    mine = await a_page.next("account_changed", timeout=1)
    assert mine["user_id"] == a_id and mine["name"] == "Ashalata"
    # her state, told later, carries the new name too (not the one her page opened with)
    await a_page.close()
    offline = await pages["b"].next(
        "presence", lambda m: m["user_id"] == a_id and m["state"] == "offline", timeout=2
    )
    assert offline["name"] == "Ashalata"
    # a change of something else (the deck) says nothing of a name
    assert (await a.patch("/api/me", json={"card_deck": "large"})).status_code == 200
    await asyncio.sleep(0.3)
    assert len(pages["b"].of("friend_renamed")) == 1
    assert pages["d"].of("friend_renamed") == []  # a stranger is told nothing
    assert (await b.get("/api/friends")).json()["friends"][0]["first_name"] == "Ashalata"
    assert b_id != a_id
    for page in pages.values():
        await page.close()


async def test_notice_preferences_reach_the_persons_other_pages(live: LiveServer) -> None:
    a, a_id = await person(live, "asha@example.com", "Asha")
    b, _ = await person(live, "bo@example.com", "Bo")
    phone = await live.sign_in("asha@example.com", "Asha")  # another device
    pages = [await MeSocket(live, c).connect() for c in (a, phone, b)]
    r = await a.put("/api/live/prefs", json={"sound": True})
    assert r.status_code == 200 and r.json() == {"sound": True, "notify": False}
    for page in pages[:2]:
        got = await page.next("prefs_changed", timeout=1)
        assert got["user_id"] == a_id and got["sound"] is True and got["notify"] is False
    assert (await phone.put("/api/live/prefs", json={"sound": "loud"})).status_code == 422
    await asyncio.sleep(0.3)
    assert len(pages[0].of("prefs_changed")) == 1  # a refused change tells nothing
    assert pages[2].of("prefs_changed") == []
    for page in pages:
        await page.close()


async def test_ones_own_other_pages_follow_invitations_mutes_and_blocks(live: LiveServer) -> None:
    """Asha invites an address by mail, withdraws it, mutes and blocks Bo through one page:
    her other open page is told each change (and never the address), Bo nothing."""
    a, a_id = await person(live, "asha@example.com", "Asha")
    b, b_id = await person(live, "bo@example.com", "Bo")
    mine = await MeSocket(live, a).connect()
    bos = await MeSocket(live, b).connect()
    r = await a.post("/api/friends/invitations", json={"email": "newcomer@example.com"})
    assert r.status_code == 201, r.text
    invitation = r.json()["id"]
    got = await mine.next("friend_invitation", timeout=1)
    assert got == {**got, "change": "sent", "invitation_id": invitation}
    assert "newcomer" not in json.dumps(got)
    assert (await a.delete(f"/api/friends/invitations/{invitation}")).status_code == 200
    got = await mine.next("friend_invitation", timeout=1)
    assert got["change"] == "withdrawn" and got["invitation_id"] == invitation
    # a refused withdrawal (it is gone) changes nothing and says nothing
    assert (await a.delete(f"/api/friends/invitations/{invitation}")).status_code == 404

    for path, what in (("mutes", "mute"), ("blocks", "block")):
        assert (await a.put(f"/api/safety/{path}/{b_id}")).status_code == 200
        got = await mine.next("safety_changed", timeout=1)
        assert (got["what"], got["user_id"], got["on"]) == (what, b_id, True)
        assert (await a.delete(f"/api/safety/{path}/{b_id}")).status_code == 200
        got = await mine.next("safety_changed", timeout=1)
        assert (got["what"], got["user_id"], got["on"]) == (what, b_id, False)
    # refused (oneself): nothing told
    assert (await a.put(f"/api/safety/mutes/{a_id}")).status_code >= 400
    await mine.send({"type": "ping"})
    await mine.next("pong", timeout=2)
    assert len(mine.of("safety_changed")) == 4 and len(mine.of("friend_invitation")) == 2
    assert bos.of("safety_changed") == [] and bos.of("friend_invitation") == []
    for page in (mine, bos):
        await page.close()
