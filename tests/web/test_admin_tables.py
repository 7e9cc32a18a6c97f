"""The admin page's open tables as they come and go: a table someone else opens, and its
closing, show on an admin's open page by themselves (the live channel tells an admin only of
the tables they are at)."""

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
