"""The lobby's "Play rated" as a player meets it: one rated game at a time. Back in the lobby
during her rated game, Ana finds the way back to its table where the button was, not a queue
for a second one (where a bot would keep one seat, and she would lose)."""

from __future__ import annotations

import re

from ..server.conftest import LiveServer
from .conftest import Browser, sign_in_ui
from .test_live import email


async def test_play_rated_during_a_rated_game_goes_back_to_it(
    chromium: Browser, web_live: LiveServer
) -> None:
    a = await chromium.page(web_live.url)
    await sign_in_ui(a, web_live, email("Ana"), "Ana")
    others = [await web_live.sign_in(email(n), n) for n in ("Bo", "Cy", "Dee")]
    for c in others:
        assert (await c.post("/api/matchmaking/queue")).status_code == 200
    await a.goto("/#/lobby")
    await a.locator("[data-action=play-rated]").click()
    await a.wait_for_url(re.compile(r"#/table/"))
    table_id = a.url.rsplit("/", 1)[1]
    await a.locator("section.table-page").wait_for()

    await a.goto("/#/lobby")
    await a.locator(".play-rated .queue-status").wait_for()
    assert await a.locator("[data-action=play-rated]").count() == 0
    await a.get_by_role("link", name="Back to your rated game").click()
    await a.wait_for_url(f"**/#/table/{table_id}")
    mine = (await others[0].get("/api/matchmaking")).json()
    assert mine["waiting"] == 0
    chromium.assert_clean()
