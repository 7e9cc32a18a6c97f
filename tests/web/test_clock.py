"""The turn clock in the browser: the lobby's choice of clock, the countdown on the seat whose
move it is and in your own "Your turn" box, the bot's move at zero, and "I'm back" after the
bot keeps the seat."""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest_asyncio

from ..server.conftest import LiveServer, live_settings, start_live
from .conftest import Browser, shot, sign_in_ui

TABLE = "section.table-page"


@pytest_asyncio.fixture
async def paced_live(tmp_path: Path) -> AsyncIterator[LiveServer]:
    """A real server whose bots take a moment, as in play (at a table the bots play alone, bots
    without any delay would send the page hundreds of states a second)."""
    settings = live_settings(tmp_path, f"sqlite+aiosqlite:///{tmp_path / 'web.db'}")
    settings = dataclasses.replace(settings, next_deal_seconds=0.5, bot_delay_ms=150)
    server, stop = await start_live(settings)
    yield server
    await stop()


def seconds(text: str) -> int:
    found = re.search(r"(\d+):(\d\d)", text)
    assert found, text
    return int(found.group(1)) * 60 + int(found.group(2))


async def open_table(page: Any, body: str) -> str:
    """A table opened the way the client does (with the CSRF header); its id."""
    table_id: str = await page.evaluate(
        f"""fetch('/api/tables', {{method: 'POST', headers: {{'Content-Type': 'application/json',
             'X-CSRF-Token': document.cookie.match(/tn_csrf=([^;]+)/)[1]}},
             body: JSON.stringify({body})}}).then(r => r.json()).then(t => t.id)"""
    )
    return table_id


async def test_the_countdown_runs_and_the_bot_moves_at_zero(
    paced_live: LiveServer, chromium: Browser
) -> None:
    web_live = paced_live
    page = await chromium.page(web_live.url)
    await sign_in_ui(page, web_live, "tara@example.com", "Tara")

    # the lobby: a public table gets a clock unless you choose none; a private one none
    await page.goto("/#/lobby")
    clock = page.locator("select[name=turn_seconds]")
    await clock.wait_for()
    assert await clock.input_value() == "20"
    await page.locator("select[name=kind]").select_option("private")
    assert await clock.input_value() == "0"
    await page.locator("select[name=kind]").select_option("public")
    assert await clock.input_value() == "20"

    table_id = await open_table(
        page,
        "{kind: 'public', name: 'Clocked', turn_seconds: 5,"
        " seats: ['me', 'bot:random', 'bot:random', 'bot:random']}",
    )
    await page.reload()  # the lobby again, with the new table in its list
    badge = page.locator(f"[data-table='{table_id}'] [data-turn-seconds]")
    assert await badge.inner_text() == "5 s a move"

    await page.goto(f"/#/table/{table_id}")
    await page.locator(f"{TABLE}[data-my-turn=true]").wait_for(timeout=30_000)
    heading = page.locator(".table-title [data-turn-seconds]")
    assert "5 s a move" in await heading.inner_text()
    on_seat = page.locator(".seat-bottom .turn-clock")
    in_box = page.locator(".actions.mine .turn-clock.own")
    await on_seat.wait_for()
    await in_box.wait_for()
    first = seconds(await in_box.inner_text())
    assert 1 <= first <= 5
    assert seconds(await on_seat.inner_text()) <= 5
    await shot(page, "turn-clock-countdown")
    seen_at = time.monotonic()
    version = await page.locator(TABLE).get_attribute("data-version")
    # it counts down by itself
    await page.wait_for_function(
        "(n) => { const el = document.querySelector('.actions.mine .turn-clock.own');"
        " return el && Number(el.textContent.split(':')[1]) < n; }",
        arg=first,
        timeout=4000,
    )
    await page.locator(".turn-clock.urgent").first.wait_for()  # the last seconds stand out

    # at zero the stand-in makes the move, and the log says so
    await page.locator(f"{TABLE}:not([data-version='{version}'])").wait_for(timeout=8000)
    assert time.monotonic() - seen_at < 7.0
    log = page.locator("ol.log")
    await log.get_by_text("a bot made the move", exact=False).first.wait_for(state="attached")

    # a second timeout in a row: the bot keeps the seat until "I'm back"
    kept = page.locator("[data-testid=kept]")
    await kept.wait_for(timeout=30_000)
    assert "a bot is playing for you" in await kept.inner_text()
    await shot(page, "turn-clock-kept")
    await kept.get_by_role("button", name="I'm back").click()
    await kept.wait_for(state="detached")
    await log.get_by_text("is back", exact=False).first.wait_for(state="attached")
    chromium.assert_clean()
