"""A guest plays against bots from the front page: by mouse and by keyboard, through a reload
in the middle of a trick (which resumes at the same point), through a dropped connection
(the banner goes away by itself), to the result; then replays the deal card by card."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from ..server.conftest import LiveServer
from .conftest import Browser, play_step, shot, toasts_keep_clear_of

TABLE = "section.table-page"


async def until(page: Any, condition: str, timeout: float = 60) -> None:
    """Play (as this page's player) until the table matches ``condition`` (a CSS selector)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if await page.locator(condition).count():
            return
        if not await play_step(page):
            await asyncio.sleep(0.05)
    raise AssertionError(f"never reached {condition}")


async def my_turn_mid_trick(page: Any) -> bool:
    table = page.locator(TABLE)
    if await table.get_attribute("data-phase") != "play":
        return False
    if await table.get_attribute("data-my-turn") != "true":
        return False
    return bool(await page.locator(".trick").get_attribute("data-trick"))


async def test_guest_plays_a_round_against_bots(web_live: LiveServer, chromium: Browser) -> None:
    page = await chromium.page(web_live.url)
    sockets: list[Any] = []

    async def relay(ws: Any) -> None:  # our own hand on the socket, to drop it at will
        sockets.append(ws)
        ws.connect_to_server()

    await page.route_web_socket("**/ws/tables/**", relay)
    await page.goto("/")
    await shot(page, "landing")
    await page.get_by_label("Your name (optional)").fill("Gita")
    await page.get_by_role("button", name="Play now against bots").click()
    await page.locator(f"{TABLE}[data-status=playing]").wait_for()
    assert "Gita" in await page.locator(".seat-bottom").inner_text()
    # the bots are the best level the server has
    bots = await page.evaluate("fetch('/api/web/bots').then(r => r.json())")
    table_id = page.url.rsplit("/", 1)[1]
    info = await page.evaluate(f"fetch('/api/tables/{table_id}').then(r => r.json())")
    assert {s["bot"] for s in info["seats"] if s["bot"]} == {bots["best"]}
    await shot(page, "guest-play-now")

    # the strongest bots may think for a while; the rest of the round is played against quick
    # ones, at a solo table opened the same way the client does (with the CSRF header)
    table_id = await page.evaluate(
        """fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json',
             'X-CSRF-Token': document.cookie.match(/tn_csrf=([^;]+)/)[1]},
             body: JSON.stringify({kind: 'solo', seats: ['me', 'bot:random', 'bot:random',
             'bot:random']})}).then(r => r.json()).then(t => t.id)"""
    )
    await page.goto(f"/#/table/{table_id}")
    await page.locator(f"{TABLE}[data-status=playing]").wait_for()

    # the keyboard: P passes, digits play the cards of the hand
    await until(page, f"{TABLE}[data-my-turn=true]")
    if await page.locator(".actions button[data-act=pass]").count() and int(
        await page.locator(TABLE).get_attribute("data-bid") or 0
    ):
        version = await page.locator(TABLE).get_attribute("data-version")
        await page.keyboard.press("p")
        await page.locator(f"{TABLE}:not([data-version='{version}'])").wait_for()

    deadline = time.monotonic() + 60
    while not await my_turn_mid_trick(page):
        if time.monotonic() > deadline:
            await shot(page, "guest-stuck")
            raise AssertionError("never my turn in the middle of a trick")
        if not await play_step(page):
            await asyncio.sleep(0.05)
        if await page.locator("[data-testid=result]").count():
            await page.get_by_role("button", name="Continue").click()
    await shot(page, "guest-mid-trick")

    # reload in the middle of the trick: the same trick and hand come back, still my turn
    # (coming back is itself a change of the table: seat_back)
    table = page.locator(TABLE)
    version = int(await table.get_attribute("data-version") or 0)
    trick = await page.locator(".trick").get_attribute("data-trick")
    hand = await page.locator(".hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)")
    await page.reload()
    await page.locator(f"{TABLE}[data-my-turn=true]").wait_for()
    assert int(await table.get_attribute("data-version") or 0) >= version
    assert await page.locator(".trick").get_attribute("data-trick") == trick
    assert (
        await page.locator(".hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)")
        == hand
    )
    assert await table.get_attribute("data-my-turn") == "true"

    # play the first legal card with its number key
    cards = await page.locator(".hand .card").evaluate_all(
        "cards => cards.map(c => c.dataset.legal === 'true')"
    )
    version = int(await table.get_attribute("data-version") or 0)
    await page.keyboard.press(str(cards.index(True) + 1))
    await page.locator(f"{TABLE}:not([data-version='{version}'])").wait_for()
    assert await page.locator(".trick").get_attribute("data-trick") != trick

    # a dropped connection: the banner shows, then goes by itself once reconnected
    await sockets[-1].close(code=1011, reason="test drop")
    banner = page.locator("#banner")
    await banner.wait_for(state="visible")
    assert "Reconnecting" in await banner.inner_text()
    await banner.wait_for(state="hidden", timeout=15000)
    assert len(sockets) >= 3  # first load, after the reload, after the drop

    await until(page, "[data-testid=result]", timeout=90)
    # messages keep clear of the result's heading and its button (checked first: once the bots
    # have begun the next deal, the result closes by itself after ten seconds)
    result = page.locator("[data-testid=result]")
    assert await result.locator(".result-hand").count() == 4
    await toasts_keep_clear_of(page, "[data-testid=result] h2", "[data-testid=result] button")
    await shot(page, "guest-result")

    # the deal is in the guest's history; the replay viewer walks it card by card
    deals = await page.evaluate("fetch('/api/history/deals').then(r => r.json())")
    assert deals
    # a deal with cards played (a deal can end invalid before any card)
    for deal in deals:
        deal_id = deal["id"]
        record = await page.evaluate(f"fetch('/api/history/deals/{deal_id}').then(r => r.json())")
        if any(a["act"] == "play" for a in record["actions"]):
            break
    else:
        raise AssertionError("no deal with cards played")
    # the solver's verdicts (the endpoint is tested on its own; here, how they are shown)
    plays = [i for i, a in enumerate(record["actions"]) if a["act"] == "play"]
    verdicts = [
        {"index": i, "action": "play", "value": 5, "best": ["play JS"], "cost": 2 if n == 0 else 0}
        for n, i in enumerate(plays)
    ]

    async def analysed(route: Any) -> None:
        await route.fulfill(json={"analysis": verdicts})

    await page.route("**/api/web/replay/*/analysis", analysed)
    await page.goto(f"/#/replay/{deal_id}")
    steps = page.locator(".steps button[data-step]")
    await steps.first.wait_for()
    count = await steps.count()
    assert count == len(record["actions"]) + 1
    await page.locator(".replay[data-analysed=true]").wait_for()
    assert await page.locator(".verdict.bad").count() == 1
    assert await page.locator(".steps .verdict", has_text="Solver").count() == len(plays)
    # moves and the solver's best card in words: "Jack of spades", not "play JS"
    assert "best: Jack of spades" in await page.locator(".verdict.bad").inner_text()
    first_play = record["actions"][plays[0]]["card"]
    names = dict(
        zip(
            "J9ATKQ87",
            ["Jack", "Nine", "Ace", "Ten", "King", "Queen", "Eight", "Seven"],
            strict=True,
        )
    )
    suits = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
    named = f"{names[first_play[0]]} of {suits[first_play[1]]}"
    assert named in await steps.nth(plays[0] + 1).inner_text()
    assert await page.locator(".steps button", has_text="play ").count() == 0
    assert (
        await page.locator(".hand .card.face").count() == 8
        or await page.locator(".seat-hand.open").count()
    )
    await page.get_by_role("button", name="One move on").click()
    assert await page.locator(".steps button[aria-current=step]").get_attribute("data-step") == "1"
    # the bots' seats are named as bots
    assert await page.locator(".steps", has_text="Bot 2").count()
    await page.get_by_role("button", name="To the end").click()
    await page.locator(".result").wait_for()
    # all four hands are face up in a replay
    assert await page.locator(".seat-hand.closed").count() == 0
    await shot(page, "replay-end")
    # the controls draw their own icons; play from the end starts again, and pauses
    assert await page.locator(".replay-controls button svg.icon path").count() == 5
    play = page.get_by_role("button", name="Play or pause")
    await play.click()
    assert await play.get_attribute("aria-pressed") == "true"
    current = page.locator(".steps button[aria-current=step]")
    await page.locator(".steps button[aria-current=step][data-step='1']").wait_for(timeout=5000)
    await play.click()
    assert await play.get_attribute("aria-pressed") == "false"
    paused_at = await current.get_attribute("data-step")
    await asyncio.sleep(1.2)  # longer than a step of the autoplay
    assert await current.get_attribute("data-step") == paused_at
    chromium.assert_clean()
