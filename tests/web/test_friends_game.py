"""Four friends in four browsers: they sign in by email code, befriend each other on the
Friends page, the first (the admin, with a standard account) hosts, the others join from the
dashboard, and they play a whole round by clicking cards and buttons to the result panel;
a fifth friend watches, toggles a hand and chats."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from ..server.conftest import LiveServer
from .conftest import Browser, play_step, shot, sign_in_ui, toasts_keep_clear_of

NAMES = ["Hana", "Ana", "Bo", "Cy", "Dee"]


def email(name: str) -> str:
    return f"{name.lower()}@example.com"


async def befriend(host: Any, friends: list[Any]) -> None:
    await host.goto("/#/dashboard/friends")
    for name in NAMES[1:]:
        await host.get_by_label("Friend's email").fill(email(name))
        await host.get_by_role("button", name="Add friend").click()
        await host.locator(".people li", has_text=name).wait_for()
    await shot(host, "dashboard-friends-requests")
    for page in friends:
        await page.goto("/#/dashboard/friends")
        await page.get_by_role("button", name=f"Accept {NAMES[0]}").click()
        await page.get_by_role("button", name=f"Remove {NAMES[0]}").wait_for()


async def host_game(host: Any) -> None:
    await host.goto("/#/dashboard/host")
    form = host.locator("form.host-form")
    await form.wait_for()
    await form.get_by_label("I choose the seats").check()
    await form.get_by_label("Opponent after you").select_option(label=NAMES[1])
    await form.get_by_label("Your partner").select_option(label=NAMES[2])
    await form.get_by_label("Opponent before you").select_option(label=NAMES[3])
    await form.locator("details.house-rules summary").click()
    await form.get_by_label("After a set").select_option("reset_both")
    await form.get_by_label("Video-call link").fill("https://meet.example.com/twentynine")
    await form.get_by_label("Seconds before a bot plays").fill("45")
    await shot(host, "dashboard-host-form", full_page=True)
    await form.get_by_role("button", name="Host the game").click()
    await host.get_by_role("button", name="Close game").wait_for()


async def close_results(pages: list[Any]) -> None:
    """Close any result panel left from an earlier deal. A deal can end the moment it is dealt
    (the first hand's four cards hold no points: about one deal in twenty), and its panel stays
    up for a while: the round played next is the one to wait for."""
    for page in pages:
        close = page.locator("[data-testid=result] button[data-key=result-close]")
        if await close.count():
            await close.first.dispatch_event("click")
            await page.locator("[data-testid=result]").wait_for(state="detached")


async def play_to_result(pages: list[Any], timeout: float = 120) -> None:
    await close_results(pages)
    deadline = time.monotonic() + timeout
    shot_taken = False
    while time.monotonic() < deadline:
        if await pages[0].locator("[data-testid=result]").count():
            return
        moved = False
        for page in pages:
            moved = await play_step(page) or moved
        if not shot_taken and await pages[0].locator(".trick .played").count() >= 2:
            await shot(pages[0], "table-mid-trick")
            shot_taken = True
        if not moved:
            await asyncio.sleep(0.05)
    raise AssertionError("no result panel within the time")


async def test_four_friends_play_a_round_and_a_fifth_watches(
    web_live: LiveServer, chromium: Browser
) -> None:
    pages = [await chromium.page(web_live.url) for _ in NAMES]
    for page, name in zip(pages, NAMES, strict=True):  # the host first: the admin
        await sign_in_ui(page, web_live, email(name), name)
    host, players, watcher = pages[0], pages[1:4], pages[4]
    await befriend(host, pages[1:])
    await host_game(host)

    # the host opens the table from Host, the players join from Join
    await host.get_by_role("button", name="Open table").click()
    await host.locator("section.table-page").wait_for()
    await host.locator(".waiting").wait_for()
    await shot(host, "table-waiting")
    await toasts_keep_clear_of(host, ".seat-top", ".seat-left", ".seat-right")
    for page in players:
        await page.goto("/#/dashboard/join")
        await page.locator(".table-item").get_by_role("button", name="Join").click()
        await page.locator("section.table-page").wait_for()
    for page in [host, *players]:
        await page.locator("section.table-page[data-status=playing]").wait_for()
    # the friend who does not play finds the game under View
    await watcher.goto("/#/dashboard/view")
    await watcher.get_by_role("link", name="Watch").click()
    await watcher.locator("section.table-page[data-spectator=true]").wait_for()

    # a hosted game's link is one click to copy (issue 16)
    assert await host.locator("button[data-action=copy-invite]").count() == 1
    # the conference link, and seats drawn with yours at the bottom
    link = host.get_by_role("link", name="Join the video call")
    assert await link.get_attribute("href") == "https://meet.example.com/twentynine"
    for i, page in enumerate([host, *players]):
        assert await page.locator(".seat-bottom").get_attribute("data-seat") == str(i)
        assert await page.locator(".hand button.card, .hand span.card.face").count() >= 4
    # everybody sees the resets; only the host can use them
    assert await host.locator("button[data-reset=score]").is_enabled()
    assert await players[0].locator("button[data-reset=score]").is_disabled()
    await shot(host, "table-auction")
    # messages keep clear of the seats and the hand
    await toasts_keep_clear_of(host, ".seat-top", ".seat-left", ".seat-right", ".hand")

    # the watcher sees the host's hand, not the others', and may turn one face up
    assert await watcher.locator(".seat[data-seat='0'] .seat-hand.open, .hand .card.face").count()
    assert await watcher.locator(".actions button[data-act]").count() == 0
    toggle = watcher.get_by_role("button", name=f"Show {NAMES[2]}'s hand")
    await toggle.click()
    await watcher.locator(".seat[data-seat='2'] .seat-hand.open").wait_for()
    await watcher.get_by_role("button", name=f"Hide {NAMES[2]}'s hand").wait_for()
    await shot(watcher, "spectator-hand-toggled")

    # chat from a player and from the watcher reaches everyone; a new line is also a message
    # (toast) for whoever has the chat out of sight, not for its writer or one who sees it
    await host.locator(".chat-form").scroll_into_view_if_needed()
    await players[1].set_viewport_size({"width": 1280, "height": 400})  # a short window
    await players[1].evaluate("window.scrollTo(0, 0)")
    form = await players[1].locator(".chat-form").bounding_box()
    assert form and form["y"] > 400, form  # Ana's chat is out of sight
    await players[0].get_by_label("Chat message").fill("good luck all")
    await players[0].get_by_role("button", name="Send").click()
    await watcher.get_by_label("Chat message").fill("enjoy")
    await watcher.get_by_role("button", name="Send").click()
    await host.locator(".chat-lines li", has_text="enjoy").wait_for()
    assert await host.locator(".chat-lines li.spectator", has_text="enjoy").count() == 1
    await players[1].locator(".chat-lines li", has_text="enjoy").wait_for()
    await players[1].locator(".toast", has_text=f"{NAMES[4]}: enjoy").wait_for(state="attached")
    await players[1].set_viewport_size({"width": 1280, "height": 720})
    assert await host.locator(".toast", has_text="enjoy").count() == 0
    assert await watcher.locator(".toast", has_text="enjoy").count() == 0

    await play_to_result([host, *players])
    result = host.locator("[data-testid=result]")
    assert await result.get_attribute("data-outcome") in ("won", "lost", "invalid")
    await shot(host, "table-result")
    # the result shows all four hands
    assert await result.locator(".result-hand").count() == 4
    # the watcher saw the round end too (its result, or at least the line in the log)
    ended = watcher.locator(
        "[data-testid=result], .log li:text-matches('made it|went down|Invalid round')"
    )
    await ended.first.wait_for(state="attached")

    # the deal is in everybody's history, with its record and a replay
    await host.route(
        "**/api/web/replay/*/analysis", lambda route: route.fulfill(json={"analysis": None})
    )
    await host.goto("/#/dashboard/history")
    deal = host.locator("tr[data-deal]").first
    await deal.wait_for()
    assert await deal.get_by_role("link", name="Download record").get_attribute("download")
    # the contract column says the bid (or Single Hand) of the deal the server stored
    deal_id = await deal.get_attribute("data-deal")
    summary = next(
        d
        for d in await host.evaluate("fetch('/api/history/deals').then(r => r.json())")
        if str(d["id"]) == deal_id
    )
    contract = await deal.locator("td").nth(1).inner_text()
    if summary["contract"] == "single_hand":
        assert contract == "Single Hand"
    else:
        assert contract == (f"Bid {summary['bid']}" if summary["bid"] else "—")
    await shot(host, "dashboard-history")
    await deal.get_by_role("link", name="Replay").click()
    await host.locator(".steps button[data-step]").first.wait_for()
    await host.locator(".replay[data-analysed=false]").wait_for()

    # closing the game from the dashboard asks first: Cancel keeps it (issue 16)
    await host.goto("/#/dashboard/host")
    await host.get_by_role("button", name="Close game").click()
    dialog = host.locator("dialog.confirm")
    await dialog.get_by_role("button", name="Cancel").click()
    await dialog.wait_for(state="detached")
    assert await host.get_by_role("button", name="Open table").count() == 1
    await host.get_by_role("button", name="Close game").click()
    await dialog.get_by_role("button", name="Close game").click()
    await host.locator("form.host-form").wait_for()
    chromium.assert_clean()
