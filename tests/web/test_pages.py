"""The other pages in a real browser: sign-in by the mailed link, the lobby (open a table, fill
it with bots), the rules for every preset, the profile (language, theme, statistics), a guest's
language kept in the browser, and the table on a phone."""

from __future__ import annotations

import re

from ..server.conftest import LiveServer, last_code
from .conftest import Browser, boxes_at_once, shot, sign_in_ui

BENGALI_PROFILE = "প্রোফাইল"


def luminance(css: str) -> float:
    """The relative luminance (WCAG) of a computed colour, ``rgb(r, g, b)``."""
    r, g, b = (int(x) for x in re.findall(r"\d+", css)[:3])

    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


async def test_member_pages(web_live: LiveServer, chromium: Browser) -> None:
    page = await chromium.page(web_live.url)
    # sign in by the link in the mail: the server redirects to the dashboard
    await page.goto("/#/signin")
    await page.get_by_label("Email", exact=True).fill("mina@example.com")
    await page.get_by_label("First name").fill("Mina")
    await page.get_by_role("button", name="Email me a code").click()
    await page.get_by_label("Code", exact=True).wait_for()
    await shot(page, "sign-in-code")
    _, token = last_code(web_live.app, "mina@example.com")
    await page.goto(f"/auth/link/{token}")
    await page.wait_for_url(re.compile(r"/#/dashboard$"))
    await page.get_by_role("link", name="Mina").wait_for()

    # the lobby: open a public table with an open seat and bots, then fill it with bots
    await page.get_by_role("link", name="Lobby").click()
    form = page.get_by_role("form", name="Open a table")
    await form.get_by_label("Table name").fill("Evening 29")
    await form.get_by_label("Opponent after you").select_option("bot:random")
    await form.get_by_label("Opponent before you").select_option("bot:random")
    await shot(page, "lobby")
    await form.get_by_role("button", name="Open a table").click()
    await page.locator("section.table-page[data-status=waiting]").wait_for()
    await page.get_by_role("button", name="Fill the empty seats with bots").click()
    await page.locator("section.table-page[data-status=playing]").wait_for()
    # cards are named for screen readers
    labels = await page.locator(".hand .card").evaluate_all(
        "cards => cards.map(c => c.getAttribute('aria-label'))"
    )
    assert labels and all(re.search(r"of (clubs|diamonds|hearts|spades)", x) for x in labels)
    await page.goto("/#/lobby")
    await page.locator(".table-item", has_text="Evening 29").wait_for()

    # the rules: every preset's options from the engine, differences marked
    await page.get_by_role("link", name="Rules").click()
    await page.get_by_role("button", name="Pagat").click()
    row = page.locator(".options-table tr", has=page.locator("code", has_text="trump_indicator"))
    assert "a card from the hand" in await row.inner_text()
    assert await row.get_attribute("class") == "diff"
    assert await page.locator(".options-table tbody tr").count() >= 30
    await page.locator(".rules-text h2, .rules-text h3").first.wait_for()
    link = page.locator(".rules-text a[data-anchor]").first
    await link.click()
    assert "#/rules" in page.url
    await shot(page, "rules")

    # the profile: theme, deck and language are saved on the server
    await page.get_by_role("link", name="Mina").click()
    await page.locator(".stat[data-stat=games]").wait_for()
    await page.get_by_label("night").check()
    await page.get_by_label("four colours").check()
    await page.locator("form select[name=language]").select_option("bn")
    await page.get_by_role("button", name="Save").click()
    await page.get_by_role("heading", name=BENGALI_PROFILE).wait_for()
    assert await page.locator("body").get_attribute("data-theme") == "night"
    # the night theme darkens the page, not only its panels, and its text stays readable (the
    # profile is drawn again in Bengali: its figures may come a moment after its heading)
    await page.locator(".stat[data-stat=games] strong").wait_for()
    await page.locator(".stat[data-stat=games] span").wait_for()
    colours = await page.evaluate(
        """() => {
          const style = (sel) => getComputedStyle(document.querySelector(sel));
          return { page: style('body').backgroundColor, text: style('body').color,
                   panel: style('.stat').backgroundColor, number: style('.stat strong').color,
                   label: style('.stat span').color };
        }"""
    )
    assert colours["page"].startswith("rgb("), colours  # opaque, not transparent
    assert luminance(colours["page"]) < 0.05, colours
    assert contrast(colours["page"], colours["text"]) >= 7, colours
    assert contrast(colours["panel"], colours["number"]) >= 7, colours
    assert contrast(colours["panel"], colours["label"]) >= 4.5, colours
    await shot(page, "profile-bengali")
    await page.reload()
    await page.get_by_role("heading", name=BENGALI_PROFILE).wait_for()
    me = await page.evaluate("fetch('/api/me').then(r => r.json())")
    assert (me["language"], me["table_theme"], me["card_deck"]) == ("bn", "night", "four-colour")
    chromium.assert_clean()


async def test_guest_language_and_phone_table(web_live: LiveServer, chromium: Browser) -> None:
    page = await chromium.page(
        web_live.url, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    await page.goto("/")
    await page.locator("#lang").select_option("hi")
    await page.get_by_role("heading", name="ट्वेंटी-नाइन, ऑनलाइन").wait_for()
    await page.reload()
    await page.get_by_role("heading", name="ट्वेंटी-नाइन, ऑनलाइन").wait_for()
    assert await page.evaluate("localStorage.getItem('tn_lang')") == "hi"
    await page.locator("form.play-now button").tap()
    await page.locator("section.table-page[data-status=playing]").wait_for()
    await page.locator(".hand .card").first.wait_for()
    await shot(page, "phone-table-hindi", full_page=True)
    # on a phone the hand is right under the table and on the first screen, the choices below
    hand = await page.locator(".hand-wrap").bounding_box()
    choices = await page.locator(".action-bar").bounding_box()
    assert hand and choices
    assert hand["y"] < choices["y"] and hand["y"] + hand["height"] <= 844, (hand, choices)
    width = await page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways on a phone: {width}"
    await page.locator("#lang").select_option("ne")
    # the table relabels itself in Nepali without reconnecting
    await page.get_by_role("heading", name="च्याट").wait_for()
    assert await page.evaluate("document.documentElement.lang") == "ne"
    chromium.assert_clean()


async def test_no_page_scrolls_sideways_on_a_phone(web_live: LiveServer, chromium: Browser) -> None:
    """Every page fits a 360-pixel-wide phone: nothing makes the page scroll sideways."""
    page = await chromium.page(
        web_live.url, viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True
    )

    async def fits(route: str, ready: str) -> None:
        await page.goto(f"/#/{route}")
        await page.locator(ready).first.wait_for()
        await page.wait_for_load_state("networkidle")  # the page's data drawn too
        width = await page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], f"#/{route} scrolls sideways on a phone: {width}"

    await fits("", "form.play-now")
    await fits("rules", "h1")
    await fits("tutorial", "h1")
    await fits("signin", "form")
    await sign_in_ui(page, web_live, "lena@example.com", "Lena")
    for tab in ("host", "join", "view", "friends", "history"):
        await fits(f"dashboard/{tab}", "h1")
    await fits("lobby", "h1")
    await fits("profile", ".stat")
    await fits("privacy", "h1")
    await fits("admin", "[data-section=accounts] table")  # Lena signed up first: an admin
    chromium.assert_clean()


async def test_phone_on_its_side_shows_table_and_hand_together(
    web_live: LiveServer, chromium: Browser
) -> None:
    """A phone held sideways (844 x 390): the table and your cards fit one screen, side by side."""
    page = await chromium.page(
        web_live.url, viewport={"width": 844, "height": 390}, has_touch=True, is_mobile=True
    )
    await page.goto("/")
    await page.locator("form.play-now button").tap()
    await page.locator("section.table-page[data-status=playing]").wait_for()
    await page.locator(".hand .card").first.wait_for()
    await page.evaluate("document.querySelector('.felt').scrollIntoView({block: 'start'})")
    felt, hand = await boxes_at_once(page, ".felt", ".hand")
    assert hand["x"] >= felt["x"] + felt["width"], (felt, hand)  # beside the table
    assert hand["y"] + hand["height"] <= 390 and felt["y"] >= -1, (felt, hand)  # one screen
    await shot(page, "phone-sideways")
    width = await page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways: {width}"
    chromium.assert_clean()


async def test_last_trick_on_a_phone_is_shown_in_view(
    web_live: LiveServer, chromium: Browser
) -> None:
    """On a phone the Last trick button is a scroll below the table: pressing it brings the
    table, with the last trick on it, into view."""
    page = await chromium.page(
        web_live.url, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    await page.goto("/")
    await page.get_by_label("Your name (optional)").fill("Ravi")
    await page.locator("form.play-now button").tap()
    await page.locator("section.table-page[data-status=playing]").wait_for()
    table_id = await page.evaluate(
        """fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json',
             'X-CSRF-Token': document.cookie.match(/tn_csrf=([^;]+)/)[1]},
             body: JSON.stringify({kind: 'solo', seats: ['me', 'bot:random', 'bot:random',
             'bot:random']})}).then(r => r.json()).then(t => t.id)"""
    )
    await page.goto(f"/#/table/{table_id}")
    table = page.locator("section.table-page[data-status=playing]")
    await table.wait_for()
    last = page.locator("button[data-key=last-trick]")
    for _ in range(600):  # play (by script: the cards overlap) until a trick is over
        mine = await table.get_attribute("data-my-turn") == "true"
        if mine and await last.is_enabled():
            break  # (on my turn the table stands still: the bots' moves redraw it)
        if mine:
            for sel in (
                ".hand button.card[data-legal=true]",
                ".actions button[data-act=pass]",
                ".actions button[data-act]",
            ):
                if await page.locator(sel).count():
                    await page.locator(sel).first.evaluate("b => b.click()")
                    break
        await page.wait_for_timeout(50)
    assert await last.is_enabled(), "no trick was finished"
    await page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    (felt,) = await boxes_at_once(page, ".felt")  # (a redraw keeps the page where it is)
    assert felt["y"] < 0, felt
    await last.evaluate("b => b.click()")  # as a thumb would, with the table out of view
    (shown,) = await boxes_at_once(page, ".last-trick")
    assert shown["y"] >= 0 and shown["y"] + shown["height"] <= 844, shown
    chromium.assert_clean()
