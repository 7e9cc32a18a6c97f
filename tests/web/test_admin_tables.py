"""The admin page's lists as they change: a table someone else opens, and its closing, show on
an admin's open page by themselves (the page follows every table's changes on its live channel,
``watch`` tables: otherwise the channel tells an admin only of the tables they are at); so do a
chat report and another admin closing it."""

from __future__ import annotations

from ..server.conftest import LiveServer
from ..server.safety.test_safety import lines
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


async def test_reported_lines_come_and_go_on_an_admins_open_page(
    web_live: LiveServer, chromium: Browser
) -> None:
    """A report reaches an admin's open page by itself, and leaves it when another admin closes
    it (that page was told nothing of the closing, and listed the report until a reload)."""
    ada = await chromium.page(web_live.url)
    await sign_in_ui(ada, web_live, "ada@example.com", "Ada")  # the first account: an admin
    bea = await web_live.sign_in("bea@example.com", "Bea")
    cy = await web_live.sign_in("cy@example.com", "Cy")
    bea_id = (await bea.get("/api/me")).json()["id"]
    cy_id = (await cy.get("/api/me")).json()["id"]
    made = await ada.evaluate(
        f"""async () => {{ const api = await import('/static/js/api.js');
             return (await api.post('/api/admin/users/{bea_id}/admin')).is_admin; }}"""
    )
    assert made is True
    r = await cy.post(
        "/api/tables", json={"kind": "public", "seats": ["me", "open", "bot:random", "bot:random"]}
    )
    table = r.json()["id"]
    (line,) = await lines(web_live.app, table, [(cy_id, "Cy", "you all play like bots")])
    await ada.goto("/#/admin")
    reports = ada.locator("[data-section=reports]")
    await reports.get_by_text("No open reports.").wait_for()
    r = await bea.post("/api/safety/reports", json={"message_id": line, "reason": "rude"})
    assert r.status_code == 201, r.text
    report = r.json()["id"]
    shown = reports.locator(f"[data-report='{report}']", has_text="you all play like bots")
    await shown.wait_for(timeout=1000)
    r = await bea.post(f"/api/admin/reports/{report}/close")  # Bea, on her own page
    assert r.status_code == 200, r.text
    await shown.wait_for(state="detached", timeout=1000)
    await reports.get_by_text("No open reports.").wait_for(timeout=1000)
    chromium.assert_clean()
