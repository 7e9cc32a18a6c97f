"""The live channel across server processes on PostgreSQL + Redis: a friend request made
through one process reaches a page open on another, presence and counts add up over both, a
page catches up on another process than the one it left; two sites sharing one Redis never see
each other's messages."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
import websockets

from twentynine.server.accounts.data import FORMER_PLAYER
from twentynine.server.live.presence import GRACE_S

from ..conftest import (
    PG_URL,
    REDIS_URL,
    _database_url,
    _drop_database,
    _fresh_database,
    live_settings,
    need_services,
    start_live,
    two_server_processes,
)
from ..ratings.test_ratings import ONE_ROUND, game_over, rated_table
from ..tables.test_hosted import befriend
from ..tables.wsclient import TableSocket, play_until
from ..test_crash import Remote
from .meclient import MeSocket


@pytest_asyncio.fixture
async def two_processes(tmp_path: Path) -> AsyncIterator[tuple[Remote, Remote]]:
    """Two real ``twentynine serve`` processes on one fresh PostgreSQL database and Redis."""
    async with two_server_processes(tmp_path) as (one, two):
        yield Remote(one.url), Remote(two.url)


async def test_friends_presence_and_catch_up_across_two_processes(
    two_processes: tuple[Remote, Remote],
) -> None:
    one, two = two_processes
    asha = await one.sign_in("asha@example.com", "Asha")
    bo = await two.sign_in("bo@example.com", "Bo")
    asha_id = int((await asha.get("/api/me")).json()["id"])
    bo_id = int((await bo.get("/api/me")).json()["id"])
    bo_page = await MeSocket(two, bo).connect()
    await bo_page.send({"type": "watch", "counts": True})

    # a request made through process one reaches Bo's page on process two within a second
    t0 = time.monotonic()
    r = await asha.post("/api/friends/requests", json={"email": "bo@example.com"})
    assert r.status_code == 201, r.text
    got = await bo_page.next("friend_request", timeout=1)
    assert time.monotonic() - t0 < 1
    assert got["user_id"] == asha_id and got["name"] == "Asha"

    # Bo accepts on process two; Asha's page on process one hears it
    asha_page = await MeSocket(one, asha).connect()
    r = await bo.post(f"/api/friends/requests/{asha_id}/accept")
    assert r.status_code == 200
    assert (await asha_page.next("friend_accepted", timeout=1))["user_id"] == bo_id
    # now friends, each hears that the other is here
    here = await bo_page.next("presence", timeout=1.5)
    assert here["user_id"] == asha_id and here["state"] == "online"

    # presence: Asha's second page, on process two, keeps her online when the first closes
    asha_two = await MeSocket(two, asha).connect()
    await asha_two.send({"type": "watch", "counts": True})
    assert asha_two.hello["friends"] == {str(bo_id): "online"}
    if asha_two.hello["online"] != 2:  # the other process's people are looked up each second
        await asha_two.next("counts", lambda m: m["online"] == 2, timeout=1.5)
    await asha_page.close()
    await asyncio.sleep(1.0)
    assert not [m for m in bo_page.of("presence") if m["state"] == "offline"]
    await asha_two.close()
    gone = await bo_page.next("presence", lambda m: m["state"] == "offline", timeout=2.5)
    assert gone["user_id"] == asha_id
    await bo_page.next("counts", lambda m: m["online"] == 1, timeout=1.5)
    # her coming back through process one is seen on process two (and not taken for it: an
    # "online" told twice when they became friends, by the befriending on process two and by
    # process one's count of her page, which that may have found a friend's already)
    bo_page.pass_over("presence")
    asha_back = await MeSocket(one, asha).connect()
    back = await bo_page.next("presence", lambda m: m["state"] == "online", timeout=1.5)
    assert back["user_id"] == asha_id
    # her page moving to process two (closed on one, opened on two at once: a reload that the
    # balancer sends elsewhere) is not told as leaving
    heard = len(bo_page.of("presence"))
    await asha_back.close()
    await asyncio.sleep(0.1)
    asha_back = await MeSocket(two, asha).connect()
    await asyncio.sleep(GRACE_S + 1.0)
    assert bo_page.of("presence")[heard:] == []
    await asha_back.close()

    # a public table opened through process one reaches a lobby open on process two
    await bo_page.send({"type": "watch", "lobby": True})
    await bo_page.send({"type": "ping"})
    await bo_page.next("pong")
    r = await asha.post(
        "/api/tables", json={"kind": "public", "seats": ["me", "open", "open", "open"]}
    )
    assert r.status_code == 201, r.text
    opened = await bo_page.next("table_changed", timeout=1)
    assert opened["table_id"] == r.json()["id"] and opened["change"] == "opened"

    # catch-up: Bo leaves process two; what Asha does meanwhile he gets on process one
    seen = bo_page.last_id
    await bo_page.close()
    assert (await asha.delete(f"/api/friends/{bo_id}")).status_code == 200
    r = await asha.post("/api/friends/requests", json={"email": "bo@example.com"})
    assert r.status_code == 201
    bo_back = await MeSocket(one, bo).connect(last_id=seen)
    assert bo_back.hello["complete"] is True and bo_back.hello["missed"] == 2
    assert (await bo_back.next("friend_removed"))["seq"] == seen + 1
    assert (await bo_back.next("friend_request"))["seq"] == seen + 2
    await bo_back.close()


async def test_the_people_of_a_process_that_stops_are_told_gone(tmp_path: Path) -> None:
    """A process that stops tells no one its people left (nor does one that crashes); another
    process tells their friends, once the grace is over, unless a page of theirs came back:
    a page opened just before the process stopped too."""
    async with two_server_processes(tmp_path) as (first, second):
        one, two = Remote(first.url), Remote(second.url)
        asha = await one.sign_in("asha@example.com", "Asha")
        bo = await two.sign_in("bo@example.com", "Bo")
        cy = await one.sign_in("cy@example.com", "Cy")
        ids = {}
        for name, c in (("asha", asha), ("bo", bo), ("cy", cy)):
            ids[name] = int((await c.get("/api/me")).json()["id"])
        for friend in (asha, cy):
            r = await friend.post("/api/friends/requests", json={"email": "bo@example.com"})
            assert r.status_code == 201, r.text
            who = ids["asha"] if friend is asha else ids["cy"]
            assert (await bo.post(f"/api/friends/requests/{who}/accept")).status_code == 200
        bo_page = await MeSocket(two, bo).connect()
        cy_page = await MeSocket(one, cy).connect()
        await bo_page.next("presence", lambda m: m["user_id"] == ids["cy"], timeout=3)
        await asyncio.sleep(1.5)  # (process two has counted Cy's page there: once a second)
        # Asha's page opens just before process one stops: process two has not counted it
        asha_page = await MeSocket(one, asha).connect()
        await bo_page.next("presence", lambda m: m["user_id"] == ids["asha"], timeout=3)
        heard = len(bo_page.of("presence"))
        await asyncio.to_thread(first.stop)  # Asha's and Cy's pages close with it
        cy_back = await MeSocket(two, two.same_person(cy)).connect()  # Cy's comes back at once
        gone = await bo_page.next("presence", lambda m: m["state"] == "offline", timeout=4)
        assert gone["user_id"] == ids["asha"] and gone["name"] == "Asha"
        await asyncio.sleep(GRACE_S + 1.5)
        # Cy is never told gone (her page on process two may be told as here again)
        told = [(m["user_id"], m["state"]) for m in bo_page.of("presence")[heard:]]
        assert (ids["asha"], "offline") in told and (ids["cy"], "offline") not in told
        for page in (bo_page, asha_page, cy_page, cy_back):
            await page.close()


async def test_a_disabled_account_loses_its_sockets_on_every_process_at_once(
    two_processes: tuple[Remote, Remote],
) -> None:
    """The admin disables an account through process one; its live page and its table socket,
    both open on process two, close within a second, and the table socket may not come back."""
    one, two = two_processes
    admin = await one.sign_in("ada@example.com", "Ada")  # the first account is an admin
    bo = await two.sign_in("bo@example.com", "Bo")
    bo_id = int((await bo.get("/api/me")).json()["id"])
    r = await bo.post(
        "/api/tables",
        json={"kind": "solo", "seats": ["me", "bot:random", "bot:random", "bot:random"]},
    )
    assert r.status_code == 201, r.text
    table_id = r.json()["id"]
    page = await MeSocket(two, bo).connect()
    table = await TableSocket(two, bo, table_id).connect()
    t0 = time.monotonic()
    r = await admin.post(f"/api/admin/users/{bo_id}/disable")
    assert r.status_code == 200, r.text
    assert await page.closed_with(timeout=1.5) == 4401
    await asyncio.wait_for(table.reader, 1.5)  # type: ignore[arg-type]
    assert time.monotonic() - t0 < 1.5
    assert table.ws.close_code is not None
    # coming back is refused: the socket is accepted, then closed with 4401 ("sign in first")
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await TableSocket(two, bo, table_id).connect()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401


async def test_two_sites_sharing_one_redis_never_see_each_others_messages(
    tmp_path: Path,
) -> None:
    need_services("postgresql", "redis")
    names = [await _fresh_database(PG_URL), await _fresh_database(PG_URL)]
    servers = []
    try:
        for i, name in enumerate(names):
            settings = live_settings(
                tmp_path / str(i), _database_url(PG_URL, name), redis_url=REDIS_URL
            )
            servers.append(await start_live(settings))
        (x, _), (y, _) = servers
        # the same people (the same user ids) on both sites
        pages = []
        for site in (x, y):
            a = await site.sign_in("asha@example.com", "Asha")
            b = await site.sign_in("bo@example.com", "Bo")
            page = await MeSocket(site, b).connect()
            await page.send({"type": "watch", "counts": True})
            pages.append((a, page))
        (x_asha, x_bo), (_, y_bo) = pages
        r = await x_asha.post("/api/friends/requests", json={"email": "bo@example.com"})
        assert r.status_code == 201
        await x_bo.next("friend_request", timeout=1)
        await asyncio.sleep(0.5)
        assert y_bo.of("friend_request") == []  # same user id, other site: nothing
        await asyncio.sleep(1.0)
        # nor are the other site's people counted: Bo alone is online there
        assert y_bo.of("counts")[-1]["online"] == 1
        assert x_bo.of("counts")[-1]["online"] == 1
        for _, page in pages:
            await page.close()
    finally:
        for _, stop in servers:
            await stop()
        for name in names:
            await _drop_database(PG_URL, name)


async def test_a_visitors_page_and_an_admins_tables_across_two_processes(
    two_processes: tuple[Remote, Remote],
) -> None:
    """What every page hears reaches a visitor's page on the other process (the rated queue's
    count), and every table's changes an admin's page there that follows them."""
    one, two = two_processes
    ada = await one.sign_in("ada@example.com", "Ada")  # a new site's first account: an admin
    bo = await one.sign_in("bo@example.com", "Bo")
    visitor = await MeSocket(two, None).connect(visitor=True)
    admin_page = await MeSocket(two, ada).connect()
    await admin_page.send({"type": "watch", "tables": True})
    await admin_page.send({"type": "ping"})
    await admin_page.next("pong", timeout=2)
    assert (await bo.post("/api/matchmaking/queue")).status_code == 200
    await visitor.next("rated_queue", lambda m: m["waiting"] == 1, timeout=2)
    seats = ["me", "bot:random", "bot:random", "bot:random"]
    r = await bo.post("/api/tables", json={"kind": "solo", "seats": seats})
    assert r.status_code == 201, r.text
    table_id = r.json()["id"]
    opened = await admin_page.next("table_changed", lambda m: m["table_id"] == table_id, 2)
    assert opened["change"] == "opened"
    assert visitor.of("table_changed") == []  # not a visitor's to hear
    for page in (visitor, admin_page):
        await page.close()


async def test_names_notice_choices_and_the_list_of_accounts_across_two_processes(
    two_processes: tuple[Remote, Remote],
) -> None:
    """Done through process one, heard on process two: a sign-up and a rename on an admin's
    list of accounts, the rename on a friend's page and in his presence told later, notice
    choices on the person's own."""
    one, two = two_processes
    ada = await one.sign_in("ada@example.com", "Ada")  # a new site's first account: an admin
    admin_page = await MeSocket(two, ada).connect()
    await admin_page.send({"type": "watch", "accounts": True})
    await admin_page.send({"type": "ping"})
    await admin_page.next("pong", timeout=2)
    bo = await one.sign_in("bo@example.com", "Bo")
    bo_id = int((await bo.get("/api/me")).json()["id"])
    made = await admin_page.next("account_listed", lambda m: m["user_id"] == bo_id, 2)
    assert made["change"] == "created"
    ada_id = int((await ada.get("/api/me")).json()["id"])
    assert (await ada.post("/api/friends/requests", json={"email": "bo@example.com"})).is_success
    assert (await bo.post(f"/api/friends/requests/{ada_id}/accept")).is_success
    bo_two = await one.sign_in("bo@example.com", "Bo")  # his other device, on process two
    bo_page = await MeSocket(two, bo_two).connect()

    assert (await bo.patch("/api/me", json={"first_name": "Bodhi"})).status_code == 200
    renamed = await admin_page.next("friend_renamed", timeout=2)
    assert renamed["user_id"] == bo_id and renamed["name"] == "Bodhi"
    await admin_page.next("account_listed", lambda m: m["change"] == "renamed", 2)
    # his own page on process two is told the new name, and so is process two's presence:
    # when that page (his only one) closes, his friend hears him gone under the new name
    mine = await bo_page.next("account_changed", timeout=2)
    assert mine["user_id"] == bo_id and mine["name"] == "Bodhi"
    assert (await bo.put("/api/live/prefs", json={"notify": True})).status_code == 200
    prefs = await bo_page.next("prefs_changed", timeout=2)
    assert prefs["notify"] is True and prefs["sound"] is False
    await bo_page.close()
    gone = await admin_page.next(
        "presence", lambda m: m["user_id"] == bo_id and m["state"] == "offline", timeout=3
    )
    assert gone["name"] == "Bodhi"
    await admin_page.close()


async def test_blocks_deletions_and_ratings_reach_pages_on_the_other_process(
    two_processes: tuple[Remote, Remote],
) -> None:
    """A rated game played through process one reaches a leaderboard open on process two, and
    each of its deals a player's History tab there; a block and an account's deletion made
    there reach the other people's pages on process two (their friends lists drop them), the
    blocker's own page there, and (with a rated player's new name) the leaderboard there."""
    one, two = two_processes
    await one.sign_in("ada@example.com", "Ada")  # the first account, the admin (may not go)
    ana = await one.sign_in("ana@example.com", "Ana")
    bo, cy, dee = [await one.sign_in(f"{n}@example.com", n.title()) for n in ("bo", "cy", "dee")]
    ids = [int((await c.get("/api/me")).json()["id"]) for c in (ana, bo, cy, dee)]
    await befriend(ana, bo, "bo@example.com")
    await befriend(ana, cy, "cy@example.com")
    bo_page = await MeSocket(two, two.same_person(bo)).connect()
    cy_page = await MeSocket(two, two.same_person(cy)).connect()
    ana_page = await MeSocket(two, two.same_person(ana)).connect()
    board = await MeSocket(two, two.same_person(dee)).connect()
    await board.send({"type": "watch", "leaderboard": True})
    dee_history = await MeSocket(two, two.same_person(dee)).connect()
    await dee_history.send({"type": "watch", "history": True})
    for page in (board, dee_history):
        await page.send({"type": "ping"})
        await page.next("pong", timeout=2)

    players = [ana, bo, cy, dee]
    table_id, seat_users = await rated_table(players, ONE_ROUND)
    socks = [await TableSocket(one, c, table_id).connect() for c in players]
    await play_until(socks, lambda: game_over(socks), timeout=60)
    rated = await board.next("ratings_changed", timeout=2)
    assert (rated["table_id"], rated["user_ids"]) == (table_id, seat_users)
    for deal in (await dee.get("/api/history/deals")).json():
        got = await dee_history.next("deal_recorded", lambda m, d=deal: m["deal_id"] == d["id"], 2)
        assert got["table_id"] == table_id
    # Dee's page showing the leaderboard, and Bo's showing his friends, are not told
    assert board.of("deal_recorded") == [] and bo_page.of("deal_recorded") == []
    for sock in socks:
        await sock.close()
    assert (await cy.patch("/api/me", json={"first_name": "Cyrus"})).status_code == 200
    renamed = await board.next("leaderboard_changed", timeout=2)
    assert (renamed["user_id"], renamed["change"]) == (ids[2], "renamed")

    assert (await ana.put(f"/api/safety/blocks/{ids[1]}")).status_code == 200
    told = await bo_page.next("friend_removed", timeout=2)
    assert (told["user_id"], told["name"]) == (ids[0], "Ana")
    mine = await ana_page.next("safety_changed", timeout=2)
    assert (mine["what"], mine["user_id"], mine["on"]) == ("block", ids[1], True)

    assert (await ana.post("/api/me/delete", json={"confirm": True})).status_code == 200
    gone = await cy_page.next("friend_removed", timeout=2)
    assert (gone["user_id"], gone["name"]) == (ids[0], FORMER_PLAYER)
    left = await board.next("leaderboard_changed", lambda m: m["change"] == "deleted", 2)
    assert left["user_id"] == ids[0]
    for page in (bo_page, cy_page, ana_page, board, dee_history):
        await page.close()
