"""Signing in from a page that needs it brings the visitor back to that page: a friend who
follows a private table's invite link before signing in comes back to the table, invite code
and all (the dashboard cannot lead to it), and a visitor of a tournament's page comes back to
register."""

from __future__ import annotations

import re

from ..server.conftest import LiveServer
from .conftest import Browser, fill_sign_in


async def test_an_invite_link_followed_before_signing_in(
    web_live: LiveServer, chromium: Browser
) -> None:
    host = await web_live.sign_in("host@example.com", "Hana")
    r = await host.post("/api/tables", json={"kind": "private", "name": "Hana's table"})
    assert r.status_code == 201, r.text
    table, code = r.json()["id"], r.json()["invite_code"]
    friend = await chromium.page(web_live.url)
    await friend.goto(f"/#/table/{table}?code={code}")
    await friend.locator("main").get_by_role("link", name="Sign in").click()
    await fill_sign_in(friend, web_live, "friend@example.com", "Farid")
    await friend.wait_for_url(re.compile(rf"#/table/{table}\?code={code}$"))
    await friend.get_by_role("button", name="Sit here").first.click()
    await friend.get_by_text("Farid (you) — ready").wait_for()
    chromium.assert_clean()


async def test_a_tournament_visitor_signs_in_to_register(
    web_live: LiveServer, chromium: Browser
) -> None:
    org = await web_live.sign_in("org@example.com", "Org")  # the first account: standard
    r = await org.post("/api/tournaments", json={"name": "Open day", "format": "knockout"})
    tid = r.json()["id"]
    visitor = await chromium.page(web_live.url)
    await visitor.goto(f"/#/tournament/{tid}")
    await visitor.get_by_role("link", name="Sign in to register.").click()
    await fill_sign_in(visitor, web_live, "ana@example.com", "Ana")
    await visitor.wait_for_url(re.compile(rf"#/tournament/{tid}$"))
    await visitor.get_by_role("button", name="Register").click()
    await visitor.locator(".entrants [data-entry-status=entered]", has_text="Ana").wait_for()
    chromium.assert_clean()
