"""Browser-test fixtures: a live server (SQLite, bots without delay), Debian's Chromium driven
by Playwright, pages that record console errors, and screenshots under artifacts/screenshots/.

Without /usr/bin/chromium (or Playwright) the browser tests are skipped, except in CI
(``CI=true``), where they must run."""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from asgi_lifespan import LifespanManager
from fastapi import FastAPI

from twentynine.server.app import create_app

from ..server.conftest import LiveServer, last_code, live_settings, start_live
from .chromium import CHROMIUM, CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
IN_CI = os.environ.get("CI", "").lower() == "true"


def need_browser() -> None:
    reason = ""
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        reason = "Playwright for Python is not installed"
    if not reason and not CHROMIUM.exists():
        reason = f"no Chromium at {CHROMIUM} (apt install chromium)"
    if reason:
        if IN_CI:
            pytest.fail(f"CI must run the browser tests: {reason}")
        pytest.skip(reason)


@pytest_asyncio.fixture
async def web_live(tmp_path: Path) -> AsyncIterator[LiveServer]:
    """A real server for the browser, its own SQLite database, bots that act at once."""
    settings = live_settings(tmp_path, f"sqlite+aiosqlite:///{tmp_path / 'web.db'}")
    settings = dataclasses.replace(settings, next_deal_seconds=0.3)
    server, stop = await start_live(settings)
    yield server
    await stop()


@pytest_asyncio.fixture
async def event_live(tmp_path: Path) -> AsyncIterator[LiveServer]:
    """A real server whose tournament owner looks for results often (tournament tests)."""
    settings = live_settings(
        tmp_path,
        f"sqlite+aiosqlite:///{tmp_path / 'web.db'}",
        extra={"tournament_poll_seconds": 0.2},
    )
    server, stop = await start_live(settings)
    yield server
    await stop()


@pytest_asyncio.fixture
async def web_app(tmp_path: Path) -> AsyncIterator[FastAPI]:
    """The app in process (no browser), for the client's HTTP endpoints."""
    settings = live_settings(tmp_path, f"sqlite+aiosqlite:///{tmp_path / 'app.db'}")
    application = create_app(settings)
    async with LifespanManager(application):
        yield application


class Browser:
    """One Chromium; each ``page()`` is a fresh context (its own cookies) whose console errors
    and page errors are collected for ``assert_clean``."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.errors: list[str] = []
        self.contexts: list[Any] = []

    async def page(self, base_url: str, **context_args: Any) -> Any:
        context = await self.browser.new_context(base_url=base_url, **context_args)
        context.set_default_timeout(15_000)
        self.contexts.append(context)
        page = await context.new_page()
        label = f"page {len(self.contexts)}"
        page.on(
            "console",
            lambda m: (
                self.errors.append(f"{label} console: {m.text}") if m.type == "error" else None
            ),
        )
        page.on("pageerror", lambda e: self.errors.append(f"{label} page error: {e}"))
        return page

    def assert_clean(self) -> None:
        assert self.errors == [], "errors in the browser:\n" + "\n".join(self.errors)


@pytest_asyncio.fixture
async def chromium() -> AsyncIterator[Browser]:
    need_browser()
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        wrapped = Browser(browser)
        try:
            yield wrapped
        finally:
            for context in wrapped.contexts:
                await context.close()
            await browser.close()


async def shot(page: Any, name: str, full_page: bool = False) -> Path:
    """Save a screenshot of a key moment under artifacts/screenshots/."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{re.sub(r'[^a-z0-9_-]+', '-', name.lower())}.png"
    await page.screenshot(path=str(path), full_page=full_page)
    return path


async def boxes_at_once(page: Any, *selectors: str) -> list[dict[str, float]]:
    """The boxes of the first element each of ``selectors`` names, read in one script once all
    are drawn: a table redraws as moves arrive, and an element read a moment after another may
    be a new one, or gone (Playwright's box of a replaced element is None)."""
    found = await page.wait_for_function(
        """selectors => {
          const els = selectors.map(s => document.querySelector(s));
          if (els.some(el => !el || !el.checkVisibility())) return null;
          return els.map(el => { const r = el.getBoundingClientRect();
            return {x: r.x, y: r.y, width: r.width, height: r.height}; });
        }""",
        arg=list(selectors),
    )
    boxes: list[dict[str, float]] = await found.json_value()
    return boxes


async def toasts_keep_clear_of(page: Any, *selectors: str) -> None:
    """Three messages at once (those of them shown) keep clear of the elements ``selectors`` name
    (each must be there); the latest is shown."""
    await page.evaluate(
        "import('/static/js/dom.js').then(m => ['one', 'two', 'three'].forEach("
        " (w) => m.toast(`message ${w}: long enough to take two lines at the table`)))"
    )
    await page.locator(".toast", has_text="message three").last.wait_for(state="visible")
    # every box is read in one go in the page: the table redraws as moves arrive, and an element
    # read a moment after the rest may be a new one, or gone
    found = await page.wait_for_function(
        """selectors => {
          const rect = (el) => { const r = el.getBoundingClientRect();
            return {x: r.x, y: r.y, width: r.width, height: r.height}; };
          const toasts = [...document.querySelectorAll('.toast')].filter(t => t.checkVisibility());
          const boxes = selectors.map(s => document.querySelector(s));
          if (!toasts.length || boxes.some(b => !b || !b.checkVisibility())) return null;
          return {toasts: toasts.map(rect), boxes: boxes.map(rect)};
        }""",
        arg=list(selectors),
    )
    seen = await found.json_value()
    for selector, box in zip(selectors, seen["boxes"], strict=True):
        for t in seen["toasts"]:
            apart = (
                t["x"] >= box["x"] + box["width"]
                or t["x"] + t["width"] <= box["x"]
                or t["y"] >= box["y"] + box["height"]
                or t["y"] + t["height"] <= box["y"]
            )
            assert apart, f"a message at {t} covers {selector} at {box}"


async def fill_sign_in(page: Any, live: LiveServer, email: str, first_name: str) -> None:
    """The sign-in form on the page, filled to the end: the code mailed, read from the server's
    outbox, and given (where the page goes next is the caller's to wait for)."""
    await page.get_by_label("Email", exact=True).fill(email)
    await page.get_by_label("First name").fill(first_name)
    await page.get_by_role("button", name="Email me a code").click()
    code_box = page.get_by_label("Code", exact=True)
    await code_box.wait_for()
    code, _ = last_code(live.app, email)
    await code_box.fill(code)
    await page.locator("form").get_by_role("button", name="Sign in").click()


async def sign_in_ui(page: Any, live: LiveServer, email: str, first_name: str) -> None:
    """The real sign-in: the form mails a code; the code is read from the server's outbox."""
    await page.goto("/#/signin")
    await fill_sign_in(page, live, email, first_name)
    await page.wait_for_url(re.compile(r"#/dashboard"))
    await page.locator("nav a.who").get_by_text(first_name, exact=True).wait_for()


Step = Callable[[Any], Awaitable[bool]]


async def play_step(page: Any, stop: str | None = None) -> bool:
    """Make one move on this page if it is this player's turn, by clicking like a person:
    the first bid when nobody has bid yet, else pass where passing is allowed; in play the
    first card marked legal. Returns whether it clicked. With ``stop``, nothing is clicked once
    the page matches that selector: the state may have moved on since the caller last looked
    (it stops where it was asked to, not one move later)."""
    table = page.locator("section.table-page")
    try:
        if await table.get_attribute("data-my-turn", timeout=1000) != "true":
            return False
        phase = await table.get_attribute("data-phase", timeout=1000)
        if stop is not None and await page.locator(stop).count():
            return False
        if phase == "play":
            reveal = page.locator(".actions button[data-act=reveal]:not([disabled])")
            if await reveal.count():  # show trump when allowed, so rounds are rarely void
                await reveal.first.click(timeout=2000)
                return True
            card = page.locator(".hand button.card[data-legal=true]").first
            if await card.count():
                await card.click(timeout=2000)
                return True
        buttons = page.locator(".actions button[data-act]:not([disabled])")
        if not await buttons.count():
            return False
        passing = page.locator(".actions button[data-act=pass]:not([disabled])")
        if phase == "auction":
            bid = int(await table.get_attribute("data-bid", timeout=1000) or 0)
            target = passing if bid else page.locator(".actions button[data-act=bid]")
        else:
            target = passing if await passing.count() else buttons
        await target.first.click(timeout=2000)
        return True
    except Exception as e:  # the table moved on under the click: look again
        if "Timeout" in type(e).__name__ or "detached" in str(e) or "Target" in str(e):
            return False
        raise
