"""Rated play in the browser (issue 17): four players with real ratings (twelve games rated by
openskill); three queue over HTTP and the fourth presses "Play rated" in the lobby, is taken to
the new rated table, and sees every player's rating beside their name; a chat line's menu mutes
its writer; the leaderboard shows the four with your own row marked; the profile draws the
rating history. Screenshots: /tmp/shots/rated-table.png and /tmp/shots/leaderboard.png (and
under artifacts/screenshots/)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from twentynine.server.db import make_engine, make_sessionmaker
from twentynine.server.ratings.service import rate_game

from ..server.conftest import Client, LiveServer
from ..server.ratings.test_ratings import ONE_ROUND, game_over, rated_table
from ..server.tables.wsclient import TableSocket, play_until
from .conftest import Browser, shot, sign_in_ui

NAMES = ["Ana", "Bo", "Cy", "Dee"]
OUT = Path("/tmp/shots")


async def rate_twelve_games(live: LiveServer, ids: list[int]) -> None:
    """Twelve rated games among the four (the same code a rated table calls), so each has a
    rating out of provisional and a history."""
    engine = make_engine(live.app.state.settings.resolved_database_url)
    maker = make_sessionmaker(engine)
    pairings = [(0, 1, 2, 3), (0, 2, 1, 3), (0, 1, 3, 2)]  # who sits where: partners change
    winners = [1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1]  # four ratings within one band
    for game, winner in enumerate(winners):
        seats = [ids[i] for i in pairings[game % 3]]
        async with maker() as db:
            assert await rate_game(db, f"seed{game}", 1, seats, winner)
    await engine.dispose()


async def clear_toasts(page: object) -> None:
    """The screenshot shows the page, not the messages of a moment ago."""
    await page.evaluate("document.getElementById('toasts').replaceChildren()")  # type: ignore[attr-defined]


async def keep(page: object, name: str) -> None:
    path = await shot(page, name)
    OUT.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, OUT / f"{name}.png")


async def test_play_rated_ratings_at_the_table_mute_and_the_leaderboard(
    web_live: LiveServer, chromium: Browser
) -> None:
    page = await chromium.page(web_live.url, viewport={"width": 1280, "height": 860})
    await sign_in_ui(page, web_live, "ana@example.com", "Ana")
    others: list[Client] = [
        await web_live.sign_in(f"{n.lower()}@example.com", n) for n in NAMES[1:]
    ]
    ids = [int((await c.get("/api/me")).json()["id"]) for c in others]
    me = await page.evaluate("fetch('/api/me').then((r) => r.json())")
    ids.insert(0, int(me["id"]))
    await rate_twelve_games(web_live, ids)
    ratings = {uid: (await others[0].get(f"/api/ratings/{uid}")).json()["rating"] for uid in ids}

    # three join the rated queue while Ana's lobby is open: her count follows them live (the
    # panel's own poll is every 15 s), then she presses "Play rated"
    await page.goto("/#/lobby")
    panel = page.locator(".play-rated")
    await panel.locator(".queue-status", has_text="0 waiting").wait_for()
    await page.wait_for_timeout(500)  # (the live socket opens)
    for n, c in enumerate(others):
        assert (await c.post("/api/matchmaking/queue")).status_code == 200
        status = panel.locator(".queue-status", has_text=f"{n + 1} waiting")
        await status.wait_for(timeout=3000)
    await panel.get_by_role("button", name="Play rated").click()
    await page.wait_for_url(re.compile(r"#/table/"))
    table_id = page.url.rsplit("/", 1)[1]
    badges = page.locator(".seat-name .rating")
    await badges.nth(3).wait_for()
    shown = sorted([int(await badges.nth(i).get_attribute("data-rating") or 0) for i in range(4)])
    assert shown == sorted(ratings.values())
    assert await page.locator(".table-title").count() == 1

    # Bo chats; Ana mutes him from the line's menu: his lines go, and later ones never come
    bo, cy, dee = [await TableSocket(web_live, c, table_id).connect() for c in others]
    await page.reload()  # (a seat's first connection changes nothing stored: a fresh look)
    await badges.nth(3).wait_for()
    await bo.send({"type": "chat", "text": "Good luck all"})
    line = page.locator(".chat-lines li", has_text="Good luck all")
    await line.wait_for()
    await clear_toasts(page)
    await keep(page, "rated-table")
    await line.locator("summary").click()
    await line.get_by_role("button", name="Mute Bo").click()
    await line.wait_for(state="detached")
    await bo.send({"type": "chat", "text": "Still here?"})
    await cy.send({"type": "chat", "text": "Cy here"})
    await page.locator(".chat-lines li", has_text="Cy here").wait_for()
    assert await page.locator(".chat-lines li", has_text="Still here?").count() == 0
    # Ana reports Cy's line; the admin page (Ana is the admin) lists it with its context
    page.once("dialog", lambda dialog: dialog.accept("rude"))
    cy_line = page.locator(".chat-lines li", has_text="Cy here")
    await cy_line.locator("summary").click()
    await cy_line.get_by_role("button", name="Report this line").click()
    await page.locator(".toast", has_text="Reported").wait_for()
    for sock in (bo, cy, dee):
        await sock.close()

    await page.goto("/#/admin")
    report = page.locator("[data-section=reports] .report")
    await report.wait_for()
    assert await report.locator("li.reported").inner_text() == "Cy: Cy here"
    await report.locator("p.muted", has_text="rude").wait_for()

    # the leaderboard: all four ranked, Ana's row marked
    await page.goto("/#/leaderboard")
    rows = page.locator("table.leaderboard tbody tr")
    await rows.nth(3).wait_for()
    assert await rows.count() == 4
    mine = page.locator("table.leaderboard tr.me")
    assert await mine.get_attribute("data-user") == str(ids[0])
    await page.locator(".your-rank", has_text="You are number").wait_for()
    await clear_toasts(page)
    await keep(page, "leaderboard")

    # the profile: the rating and its history, drawn as our own SVG, one point a game
    await page.goto("/#/profile")
    chart = page.locator(".rating-chart svg")
    await chart.wait_for()
    assert await chart.locator("circle").count() == 12
    assert await page.locator(".rating-now strong").get_attribute("data-rating") == str(
        ratings[ids[0]]
    )
    await page.locator(".safety-lists li", has_text="Bo").wait_for()  # Ana's muted list
    await clear_toasts(page)
    await page.locator(".rating-section").scroll_into_view_if_needed()
    await keep(page, "profile-rating")
    chromium.assert_clean()


async def test_an_open_leaderboard_follows_a_rated_game_as_it_is_rated(
    web_live: LiveServer, chromium: Browser
) -> None:
    """Ana's leaderboard and her profile are open while she plays a rated game on another
    device: her place there, and her rating on the profile, show the game once it is rated,
    with no reload (they showed 0 games until one)."""
    page = await chromium.page(web_live.url)
    await sign_in_ui(page, web_live, "ana@example.com", "Ana")
    profile = await page.context.new_page()
    await profile.goto(f"{web_live.url}/#/profile")
    rated_games = profile.locator(".rating-box .rating-now .muted")
    await rated_games.wait_for()
    before = await rated_games.inner_text()
    assert "0" in before, before
    ana_elsewhere = await web_live.sign_in("ana@example.com", "Ana")
    others = [await web_live.sign_in(f"{n.lower()}@example.com", n) for n in NAMES[1:]]
    await page.goto("/#/leaderboard")
    place = page.locator(".your-rank")
    await place.filter(has_text="after 0 rated games").wait_for()
    await page.wait_for_timeout(300)  # (the live channel's watch is in)
    players = [ana_elsewhere, *others]
    table_id, _ = await rated_table(players, ONE_ROUND)
    socks = [await TableSocket(web_live, c, table_id).connect() for c in players]
    await play_until(socks, lambda: game_over(socks), timeout=60)
    await place.filter(has_text="after 1 rated games").wait_for(timeout=1000)
    await profile.locator(".rating-box .rating-now .muted", has_text="1").wait_for(timeout=1000)
    for s in socks:
        await s.close()
    chromium.assert_clean()
