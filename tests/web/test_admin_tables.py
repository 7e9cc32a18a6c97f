"""The admin page's open tables as they come and go: a table someone else opens, and its
closing, show on an admin's open page by themselves (the page follows every table's changes on
its live channel, ``watch`` tables: otherwise the channel tells an admin only of the tables they
are at)."""

from __future__ import annotations

from ..server.conftest import LiveServer
from .conftest import Browser, sign_in_ui


async def test_the_open_tables_follow_other_peoples_tables(
    web_live: LiveServer, chromium: Browser
) -> None:
    ada = await chromium.page(web_live.url)
    await sign_in_ui(ada, web_live, "ada@example.com", "Ada")  # the first account: an admin
    bea = await web_live.sign_in("bea@example.com", "Bea")
    await ada.goto("/#/admin")
    tables = ada.locator("[data-section=tables]")
    await tables.get_by_text("No table is open.").wait_for()
    r = await bea.post("/api/tables", json={"kind": "private", "name": "Bea's corner"})
    assert r.status_code == 201, r.text
    table = r.json()["id"]
    await tables.locator(f"[data-table='{table}']", has_text="Bea's corner").wait_for()
    r = await bea.post(f"/api/tables/{table}/close")
    assert r.status_code == 200, r.text
    await tables.get_by_text("No table is open.").wait_for()
    chromium.assert_clean()


async def test_a_tournament_match_is_named_and_not_closed_from_the_admin_page(
    web_live: LiveServer, chromium: Browser
) -> None:
    """A match's table is listed as one (it showed the string's key, admin_kind_tournament),
    with no Close button (closed, the match would wait for ever: its table closes when it is
    decided)."""
    ada = await chromium.page(web_live.url)
    await sign_in_ui(ada, web_live, "ada@example.com", "Ada")
    ana = await web_live.sign_in("ana@example.com", "Ana")
    made = await ada.evaluate(
        """async () => { const api = await import('/static/js/api.js');
             const t = await api.post('/api/tournaments', {name: 'Cup', format: 'knockout',
               team_mode: 'individuals', grace_seconds: 600});
             return t.id; }"""
    )
    await ana.post(f"/api/tournaments/{made}/entries", json={})
    await ada.evaluate(
        f"""async () => {{ const api = await import('/static/js/api.js');
             await api.post('/api/tournaments/{made}/bots', {{teams: 1, level: 'random'}});
             await api.post('/api/tournaments/{made}/start'); }}"""
    )
    await ada.goto("/#/admin")
    match = ada.locator("[data-section=tables] [data-table]", has_text="Cup")
    await match.get_by_text("tournament match").wait_for()
    assert "admin_kind" not in await match.inner_text()
    assert await match.get_by_role("button").count() == 0
    chromium.assert_clean()
