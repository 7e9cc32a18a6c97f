"""Live pages in real browsers (issue 16): with B's Friends tab open, A's friend request appears
there within a second and B's tab badge counts it, without a reload; A hosts a game seating B and
C, and it appears in their open Join tabs within a second (with an invitation notice). Once on
one server, once with the pages on two server processes (PostgreSQL + Redis)."""

from __future__ import annotations

import re
import time
from typing import Any

from ..server.conftest import LiveServer
from ..server.conftest import live_pair as two_servers  # noqa: F401  (a fixture)
from .conftest import Browser, shot, sign_in_ui

NAMES = ["Hana", "Ana", "Bo", "Dee"]


def email(name: str) -> str:
    return f"{name.lower()}@example.com"


async def api(page: Any, method: str, path: str, body: Any = None) -> Any:
    """A request from the page, as its own code makes it (session cookie, CSRF header)."""
    return await page.evaluate(
        "([m, p, b]) => import('/static/js/api.js').then((api) => api.api(m, p, b ?? undefined))",
        [method, path, body],
    )


async def solo_table(page: Any) -> Any:
    """A table against quick (random) bots, opened from the page as its own code would."""
    seats = ["me", "bot:random", "bot:random", "bot:random"]
    return await api(page, "POST", "/api/tables", {"kind": "solo", "seats": seats})


async def mark_no_reload(page: Any) -> None:
    await page.evaluate("window.__stillHere = true")


async def not_reloaded(page: Any) -> bool:
    return bool(await page.evaluate("window.__stillHere === true"))


async def seen_within(locator: Any, since: float, limit: float = 1.0) -> float:
    """Wait for ``locator``; how long after ``since`` it showed (asserted within ``limit``)."""
    await locator.wait_for(timeout=5000)
    took = time.monotonic() - since
    assert took < limit, f"took {took:.2f} s"
    return took


async def scenario(chromium: Browser, a_server: LiveServer, b_server: LiveServer) -> None:
    a = await chromium.page(a_server.url)
    b = await chromium.page(b_server.url)
    c = await chromium.page(b_server.url)
    d = await chromium.page(a_server.url)
    await sign_in_ui(a, a_server, email("Hana"), "Hana")  # the first account: may host
    await sign_in_ui(b, b_server, email("Ana"), "Ana")
    await sign_in_ui(c, b_server, email("Bo"), "Bo")
    await sign_in_ui(d, a_server, email("Dee"), "Dee")

    # B's Friends tab is open; A asks B through the form
    await b.goto("/#/dashboard/friends")
    await b.get_by_role("heading", name="Requests to you").wait_for()
    await mark_no_reload(b)
    await a.goto("/#/dashboard/friends")
    await a.get_by_label("Friend's email").fill(email("Ana"))
    t0 = time.monotonic()
    await a.get_by_role("button", name="Add friend").click()
    await seen_within(b.get_by_role("button", name="Accept Hana"), t0)
    badge = b.locator('.tabs a[href="#/dashboard/friends"] .count-badge')
    await badge.wait_for(timeout=1000)
    assert await badge.inner_text() == "1"
    assert re.match(r"^\(1\) ", await b.title())
    await b.locator(".toast.notice", has_text="Hana asked to be your friend").wait_for()
    await shot(b, "live-friend-request")
    await b.get_by_role("button", name="Accept Hana").click()
    await b.get_by_role("button", name="Remove Hana").wait_for()
    await badge.wait_for(state="detached", timeout=2000)
    assert not re.match(r"^\(\d+\) ", await b.title())
    # A's Friends tab follows too: Ana is a friend now, and online
    await a.get_by_role("button", name="Remove Ana").wait_for(timeout=2000)
    await a.locator('.people li:has-text("Ana") .presence[data-presence="online"]').wait_for(
        timeout=2000
    )
    assert await not_reloaded(b)

    # C and D become A's friends too (through the API their pages use)
    a_id = (await api(a, "GET", "/api/me"))["id"]
    for page, name in ((c, "Bo"), (d, "Dee")):
        await api(a, "POST", "/api/friends/requests", {"email": email(name)})
        await api(page, "POST", f"/api/friends/requests/{a_id}/accept")
    ids = [(await api(p, "GET", "/api/me"))["id"] for p in (a, b, c, d)]

    # B's and C's Join tabs are open, empty; A hosts a game seating them
    for page in (b, c):
        await page.goto("/#/dashboard/join")
        await page.get_by_text("No game is waiting for you").wait_for()
        await mark_no_reload(page)
    t0 = time.monotonic()
    hosted = await api(a, "POST", "/api/tables/hosted", {"seats": ids, "name": "Live game"})
    for page in (b, c):
        await seen_within(page.locator(f'[data-table="{hosted["id"]}"]'), t0)
    for page in (b, c):
        join_badge = page.locator('.tabs a[href="#/dashboard/join"] .count-badge')
        await join_badge.wait_for(timeout=2000)
        assert await join_badge.inner_text() == "1"
        notice = page.locator(".toast.notice", has_text="Hana invited you to Live game")
        await notice.wait_for()
        assert await notice.get_by_role("link", name="Open").get_attribute("href") == (
            f"#/table/{hosted['id']}"
        )
        assert await not_reloaded(page)
    await shot(c, "live-join-tab-invited")
    # the host closes it: it leaves the Join tabs by itself
    await api(a, "POST", f"/api/tables/{hosted['id']}/close")
    for page in (b, c):
        await page.get_by_text("No game is waiting for you").wait_for(timeout=2000)
    chromium.assert_clean()


async def test_friend_request_and_hosted_game_reach_open_pages(
    chromium: Browser, web_live: LiveServer
) -> None:
    await scenario(chromium, web_live, web_live)


async def test_the_same_with_pages_on_two_server_processes(
    chromium: Browser,
    two_servers: tuple[LiveServer, LiveServer],  # noqa: F811  (the fixture imported above)
) -> None:
    one, two = two_servers
    await scenario(chromium, one, two)


async def test_lobby_play_page_counts_and_your_turn_notice(
    chromium: Browser, web_live: LiveServer
) -> None:
    a = await chromium.page(web_live.url)
    b = await chromium.page(web_live.url)
    await sign_in_ui(a, web_live, email("Hana"), "Hana")
    await sign_in_ui(b, web_live, email("Ana"), "Ana")

    # a public table opened appears in another person's open lobby within a second
    await b.goto("/#/lobby")
    await b.get_by_role("heading", name="Public tables").wait_for()
    await mark_no_reload(b)
    t0 = time.monotonic()
    table = await api(
        a, "POST", "/api/tables", {"kind": "public", "seats": ["me", "open", "open", "open"]}
    )
    await seen_within(b.locator(f'.lobby-list [data-table="{table["id"]}"]'), t0)
    await api(a, "POST", f"/api/tables/{table['id']}/leave")  # the last person: it closes
    await b.locator(f'.lobby-list [data-table="{table["id"]}"]').wait_for(
        state="detached", timeout=2000
    )
    assert await not_reloaded(b)

    # the Play page counts who is online and playing, live
    await b.goto("/#/")
    counts = b.locator(".live-counts")
    await counts.get_by_text("2 online · 0 playing now").wait_for(timeout=3000)
    solo = await solo_table(a)
    await a.goto(f"/#/table/{solo['id']}")
    await counts.get_by_text("2 online · 1 playing now").wait_for(timeout=3000)
    await shot(b, "live-play-page-counts")

    # Hana leaves her game for the dashboard: "your turn" comes as a notice with a link back
    await a.locator("section.table-page").wait_for()
    # (a notice of this table shown before she opened it went when she did)
    assert await a.locator(f".toast.notice[data-notice-table='{solo['id']}']").count() == 0
    await a.goto("/#/dashboard/history")
    notice = a.locator(".toast.notice", has_text="Your turn at").last
    await notice.wait_for(timeout=5000)
    assert await notice.get_by_role("link", name="Open").get_attribute("href") == (
        f"#/table/{solo['id']}"
    )
    await counts.get_by_text("2 online · 0 playing now").wait_for(timeout=3000)
    chromium.assert_clean()


async def test_a_table_you_made_yourself_is_not_counted_as_waiting(
    chromium: Browser, web_live: LiveServer
) -> None:
    """The Join tab's badge counts the games others made that you play in: your own solo game
    is listed there too, but it does not wait for you (it counted as one before)."""
    a = await chromium.page(web_live.url)
    b = await chromium.page(web_live.url)
    await sign_in_ui(a, web_live, email("Hana"), "Hana")
    await sign_in_ui(b, web_live, email("Ana"), "Ana")
    solo = await solo_table(b)
    public = await api(
        a, "POST", "/api/tables", {"kind": "public", "seats": ["me", "open", "open", "open"]}
    )
    await api(b, "POST", f"/api/tables/{public['id']}/join", {})
    await b.reload()
    await b.goto("/#/dashboard/join")
    for table in (solo, public):
        await b.locator(f'[data-table="{table["id"]}"]').wait_for(timeout=3000)
    join_badge = b.locator('.tabs a[href="#/dashboard/join"] .count-badge')
    await join_badge.wait_for(timeout=2000)
    await b.wait_for_timeout(1000)  # a count still on its way has come
    assert await join_badge.inner_text() == "1"
    assert re.match(r"^\(1\) ", await b.title())
    chromium.assert_clean()
