"""A visitor who is not signed in has live pages too (``/ws/me?visitor=1``): the front page's
count of people online and playing follows without a reload."""

from __future__ import annotations

from ..server.conftest import LiveServer
from .conftest import Browser, sign_in_ui
from .test_live import mark_no_reload, not_reloaded, solo_table


async def test_a_visitors_front_page_counts_people_live(
    chromium: Browser, web_live: LiveServer
) -> None:
    visitor = await chromium.page(web_live.url)
    await visitor.goto("/")
    await visitor.get_by_role("button", name="Play now against bots").wait_for()
    await mark_no_reload(visitor)
    hana = await chromium.page(web_live.url)
    await sign_in_ui(hana, web_live, "hana@example.com", "Hana")
    counts = visitor.locator(".live-counts")
    await counts.get_by_text("1 online · 0 playing now").wait_for(timeout=3000)
    solo = await solo_table(hana)
    await hana.goto(f"/#/table/{solo['id']}")
    await counts.get_by_text("1 online · 1 playing now").wait_for(timeout=3000)
    assert await not_reloaded(visitor)
    session = await visitor.evaluate("fetch('/api/web/session').then((r) => r.json())")
    assert session["user"] is None  # still a visitor
