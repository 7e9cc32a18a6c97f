"""The live channel's notices as a person sees them: a friend request's notice (and its Open
link) must be legible, dark on light or light on dark, wherever the page shows it."""

from __future__ import annotations

from typing import Any

import pytest

from ..server.conftest import LiveServer
from .conftest import Browser, sign_in_ui
from .test_live import api, email, solo_table

# the WCAG contrast ratio between an element's text and the first opaque background behind it
CONTRAST = """(el) => {
  const rgba = (c) => { const m = c.match(/[\\d.]+/g).map(Number);
    return c.startsWith('color(srgb') ? [m[0] * 255, m[1] * 255, m[2] * 255, m[3] ?? 1]
      : [m[0], m[1], m[2], m[3] ?? 1]; };
  const lum = ([r, g, b]) => { const f = (v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  let back = null;
  for (let e = el; e && !back; e = e.parentElement) {
    const c = rgba(getComputedStyle(e).backgroundColor);
    if (c[3] >= 0.99) back = c;
  }
  back = back || [255, 255, 255, 1];
  const [a, b] = [lum(rgba(getComputedStyle(el).color)), lum(back)];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


async def contrast(locator: Any) -> float:
    return float(await locator.evaluate(CONTRAST))


async def test_a_notice_and_its_open_link_are_legible(
    chromium: Browser, web_live: LiveServer
) -> None:
    a = await chromium.page(web_live.url)
    b = await chromium.page(web_live.url)
    await sign_in_ui(a, web_live, email("Hana"), "Hana")
    await sign_in_ui(b, web_live, email("Ana"), "Ana")
    await b.goto("/#/dashboard/friends")
    await b.get_by_role("heading", name="Requests to you").wait_for()
    await b.wait_for_timeout(300)  # (the live socket opens)
    await api(a, "POST", "/api/friends/requests", {"email": email("Ana")})
    notice = b.locator(".toast.notice", has_text="Hana asked to be your friend").last
    await notice.wait_for()
    assert await contrast(notice.locator("span")) >= 4.5
    assert await contrast(notice.get_by_role("link", name="Open")) >= 4.5
    chromium.assert_clean()


async def test_your_turn_names_the_table_in_the_pages_language(
    chromium: Browser, web_live: LiveServer
) -> None:
    """The server stores an unnamed table as "<host>'s table", in English: a notice names it as
    the lists do, in the page's language ("Table against bots" for a solo table)."""
    a = await chromium.page(web_live.url)
    await sign_in_ui(a, web_live, email("Hana"), "Hana")
    await a.evaluate("import('/static/js/i18n.js').then((m) => m.setLanguage('bn'))")
    solo = await solo_table(a)
    await a.goto("/#/dashboard/history")
    notice = a.locator(".toast.notice", has_text="বটদের সঙ্গে টেবিল-এ আপনার পালা").last
    await notice.wait_for(timeout=5000)
    assert await notice.get_by_role("link").get_attribute("href") == f"#/table/{solo['id']}"
    assert await a.locator(".toast.notice", has_text="Hana's table").count() == 0
    chromium.assert_clean()


async def test_a_rated_match_reaches_a_player_who_left_the_lobby(
    chromium: Browser, web_live: LiveServer
) -> None:
    """Ana presses "Play rated" and goes to read the leaderboard while she waits: when three
    more queue, her table is ready and starts at once, so her page says so, with a link."""
    a = await chromium.page(web_live.url)
    await sign_in_ui(a, web_live, email("Ana"), "Ana")
    others = [await web_live.sign_in(email(n), n) for n in ("Bo", "Cy", "Dee")]
    await a.goto("/#/lobby")
    await a.locator("[data-action=play-rated]").click()
    await a.locator(".play-rated[data-queued=true]").wait_for()
    await a.goto("/#/leaderboard")
    await a.locator("table.leaderboard, .leaderboard, p.empty").first.wait_for()
    for c in others:
        assert (await c.post("/api/matchmaking/queue")).status_code == 200
    table_id = (await others[0].get("/api/matchmaking")).json()["table_id"]
    assert table_id
    notice = a.locator(".toast.notice", has_text="Your rated table is ready.").last
    await notice.wait_for(timeout=5000)
    assert await notice.get_by_role("link").get_attribute("href") == f"#/table/{table_id}"
    chromium.assert_clean()


class LiveChannelHand:
    """Our own hand on a page's live channel (``/ws/me``), between the page and the server: while
    ``deaf``, what the server sends is lost, as on a failing network; a socket of ``sockets``
    closed makes the page reconnect by itself."""

    def __init__(self) -> None:
        self.sockets: list[Any] = []
        self.deaf = False

    @classmethod
    async def on(cls, page: Any) -> LiveChannelHand:
        hand = cls()
        await page.route_web_socket("**/ws/me**", hand.relay)
        return hand

    async def relay(self, ws: Any) -> None:
        server = ws.connect_to_server()
        server.on_message(lambda m: None if self.deaf else ws.send(m))
        self.sockets.append(ws)


async def test_the_rated_queue_count_mends_itself_after_a_dropped_live_channel(
    chromium: Browser, web_live: LiveServer
) -> None:
    """The queue's count comes as a broadcast (not kept for catch-up): a page that lost its
    live channel while someone queued asks again once it is back, not at its next poll (15 s)."""
    a = await chromium.page(web_live.url)
    channel = await LiveChannelHand.on(a)
    await sign_in_ui(a, web_live, email("Ana"), "Ana")
    bo = await web_live.sign_in(email("Bo"), "Bo")
    await a.goto("/#/lobby")
    panel = a.locator(".play-rated")
    await panel.locator(".queue-status", has_text="0 waiting").wait_for()
    await a.wait_for_timeout(300)  # (the live socket opens)
    channel.deaf = True  # the network fails: what the server sends now is lost
    assert (await bo.post("/api/matchmaking/queue")).status_code == 200
    await a.wait_for_timeout(300)
    channel.deaf = False
    opened = len(channel.sockets)
    await channel.sockets[-1].close(code=1011, reason="test drop")  # the page reconnects by itself
    await panel.locator(".queue-status", has_text="1 waiting").wait_for(timeout=5000)
    assert len(channel.sockets) > opened
    chromium.assert_clean()


async def test_the_lobbys_tournaments_mend_themselves_after_a_dropped_live_channel(
    chromium: Browser, web_live: LiveServer
) -> None:
    """A tournament's changes are told to the pages open at the time (not kept for catch-up):
    a lobby that lost its live channel while one opened for entries lists it once the channel
    is back, with no reload."""
    org = await web_live.sign_in(email("Ora"), "Ora")  # the first account: it may organise
    a = await chromium.page(web_live.url)
    channel = await LiveChannelHand.on(a)
    await sign_in_ui(a, web_live, email("Ana"), "Ana")
    await a.goto("/#/lobby")
    section = a.locator(".tournaments-section .tournament-list")
    await section.locator(".empty").wait_for()
    await a.evaluate("window.__stillHere = true")
    await a.wait_for_timeout(300)  # (the live socket opens)
    channel.deaf = True  # the network fails: what the server sends now is lost
    r = await org.post("/api/tournaments", json={"name": "Evening", "format": "knockout"})
    assert r.status_code == 201, r.text
    await a.wait_for_timeout(500)
    assert await section.locator(".tournament-item").count() == 0
    channel.deaf = False
    opened = len(channel.sockets)
    await channel.sockets[-1].close(code=1011, reason="test drop")  # the page reconnects by itself
    await section.locator(".tournament-item", has_text="Evening").wait_for(timeout=5000)
    assert len(channel.sockets) > opened
    assert await a.evaluate("window.__stillHere === true")  # no reload
    chromium.assert_clean()


async def test_the_page_shell_follows_the_language(chromium: Browser, web_live: LiveServer) -> None:
    """The skip link (shown on the first Tab), the brand's and the menu's labels: in Nepali too."""
    a = await chromium.page(web_live.url)
    await sign_in_ui(a, web_live, email("Hana"), "Hana")
    await a.evaluate("import('/static/js/i18n.js').then((m) => m.setLanguage('ne'))")
    await a.goto("/#/lobby")
    await a.locator("html[lang=ne]").wait_for()
    skip = a.locator("a.skip")
    assert await skip.inner_text() == "मुख्य सामग्रीमा जानुहोस्"
    assert await a.locator("a.brand").get_attribute("aria-label") == "TwentyNine गृहपृष्ठ"
    assert await a.locator("#nav").get_attribute("aria-label") == "मुख्य मेनु"
    chromium.assert_clean()


@pytest.mark.parametrize("width", [1280, 390])
async def test_a_notices_open_link_takes_you_to_the_table(
    chromium: Browser, web_live: LiveServer, width: int
) -> None:
    """ "Your turn" away from the table: its Open link is clicked (the messages' box lets clicks
    through to the page, not the notice's own link); on a phone it keeps clear of the menu."""
    a = await chromium.page(web_live.url, viewport={"width": width, "height": 800})
    await sign_in_ui(a, web_live, email("Hana"), "Hana")
    solo = await solo_table(a)
    await a.goto("/#/dashboard/history")
    notice = a.locator(".toast.notice", has_text="Your turn at").last
    await notice.wait_for(timeout=5000)
    box, nav = await notice.bounding_box(), await a.locator("header.topbar").bounding_box()
    assert box and nav and box["y"] >= nav["y"] + nav["height"], "the notice covers the menu"
    await notice.get_by_role("link", name="Open").click(timeout=3000)
    await a.wait_for_url(f"**/#/table/{solo['id']}")
    await a.locator("section.table-page").wait_for()
    chromium.assert_clean()


async def test_signing_out_in_one_tab_signs_the_others_out(
    chromium: Browser, web_live: LiveServer
) -> None:
    """The browser's other tab (one cookie) stops showing the account and hearing of it: on a
    shared computer the next person would read its notices."""
    first = await chromium.page(web_live.url)
    await sign_in_ui(first, web_live, email("Hana"), "Hana")
    other = await first.context.new_page()
    await other.goto("/#/dashboard/friends")
    await other.get_by_role("heading", name="Requests to you").wait_for()
    await other.wait_for_timeout(300)  # (the live socket opens)
    await first.get_by_role("button", name="Sign out").click()
    await other.locator("#nav").get_by_role("link", name="Sign in").wait_for(timeout=5000)
    await other.get_by_role("heading", name="Requests to you").wait_for(state="detached")
    chromium.assert_clean()


async def test_one_notice_a_table_however_many_turns_come(
    chromium: Browser, web_live: LiveServer
) -> None:
    """A page that comes back after a while is given every "your turn" it missed (kept for a
    day): one notice a table shows, the latest, not a stack of turns long past."""
    a = await chromium.page(web_live.url)
    pages: list[Any] = []

    async def relay(ws: Any) -> None:  # the server's socket, and a way to speak for it
        ws.connect_to_server()
        pages.append(ws)

    await a.route_web_socket("**/ws/me**", relay)
    await sign_in_ui(a, web_live, email("Hana"), "Hana")
    await a.goto("/#/dashboard/history")
    await a.get_by_role("heading", name="Dashboard").wait_for()
    await a.wait_for_timeout(300)  # (the live socket opens)
    for seq in range(1, 6):  # five turns at one table, as a catch-up brings them
        pages[-1].send(
            '{"type": "your_turn", "table_id": "abc", "name": "Evening game", "kind": "public",'
            f' "rated": false, "host_name": "Hana", "seat": 0, "seq": {seq}}}'
        )
    pages[-1].send(
        '{"type": "your_turn", "table_id": "xyz", "name": "Other game", "kind": "public",'
        ' "rated": false, "host_name": "Hana", "seat": 0, "seq": 6}'
    )
    await a.locator(".toast.notice", has_text="Other game").wait_for()
    assert await a.locator(".toast.notice", has_text="Evening game").count() == 1
    chromium.assert_clean()


async def test_at_a_table_on_a_phone_a_notice_keeps_clear_of_the_menu(
    chromium: Browser, web_live: LiveServer
) -> None:
    """On a 390 px phone the menu wraps under the brand; "your turn" at another table, shown
    at the top of a table's page (the hand is at the bottom), came over its links."""
    a = await chromium.page(
        web_live.url, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    await sign_in_ui(a, web_live, email("Hana"), "Hana")
    here = await solo_table(a)
    await a.goto(f"/#/table/{here['id']}")
    await a.locator("section.table-page").wait_for()
    await solo_table(a)  # another table: its turn comes while this one is shown
    notice = a.locator(".toast.notice", has_text="Your turn at").last
    await notice.wait_for(timeout=5000)
    box, nav = await notice.bounding_box(), await a.locator("header.topbar").bounding_box()
    assert nav and nav["height"] > 60, "the menu is one row: nothing to check here"
    assert box and box["y"] >= nav["y"] + nav["height"], "the notice covers the menu"
    chromium.assert_clean()
