"""A tournament in three browsers: the organiser creates it, Ana registers with Bo as her
partner, Bo confirms, the organiser approves the entry, adds a bot team and starts; Ana gets the
live notice and clicks through to her match table; when the match ends (bots play the seats
nobody took) the bracket on the open pages shows the winner by itself. Screenshots of a bracket
and of standings are saved under /tmp/shots/ (and artifacts/screenshots/)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

from ..server.conftest import LiveServer
from .conftest import Browser, shot, sign_in_ui

SHOTS = Path("/tmp/shots")


async def keep(page: Any, name: str, locator: Any | None = None) -> None:
    """A screenshot of the page (or of one part of it) under /tmp/shots/ too."""
    if locator is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        await locator.screenshot(path=str(SHOTS / f"{name}.png"))
        return
    path = await shot(page, name, full_page=True)
    SHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, SHOTS / f"{name}.png")


async def test_register_approve_start_notice_and_bracket(
    event_live: LiveServer, chromium: Browser
) -> None:
    org, ana, bo = [await chromium.page(event_live.url) for _ in range(3)]
    for page, name in ((org, "Org"), (ana, "Ana"), (bo, "Bo")):
        await sign_in_ui(page, event_live, f"{name.lower()}@example.com", name)
    # the organiser (the first account: standard) creates a knockout of one-deal matches
    await org.goto("/#/tournaments")
    form = org.locator("form[aria-label='Organise a tournament']")
    await form.get_by_label("Name", exact=True).fill("Chematoodlon 29")
    await form.get_by_label("Deals a match (0: one set, first to ±6)").fill("1")
    await form.get_by_label("Grace period (seconds)").fill("4")
    await form.get_by_label("I approve each entry (mark it paid)").check()
    await form.get_by_role("button", name="Organise a tournament").click()
    await org.wait_for_url(re.compile(r"#/tournament/\d+"))
    tid = org.url.rsplit("/", 1)[-1]
    # Ana finds it in the lobby and registers with Bo
    await ana.goto("/#/lobby")
    await ana.locator(".tournaments-section a", has_text="Chematoodlon 29").click()
    await ana.wait_for_url(re.compile(rf"#/tournament/{tid}$"))
    await ana.get_by_label("Your partner's email").fill("bo@example.com")
    await ana.get_by_role("button", name="Register").click()
    await ana.get_by_text("waiting for the partner to confirm").first.wait_for()
    # Bo is told live and confirms from the tournament page
    notice = bo.locator(".tournament-notice[data-type=tournament_partner]")
    await notice.wait_for()
    await notice.get_by_role("link", name="Open").click()
    await bo.get_by_role("button", name="Confirm: I play in this team").click()
    await bo.get_by_text("waiting for the organiser's approval").first.wait_for()
    # the organiser's open page shows the entry by itself; approve, add bots, start
    await org.locator("[data-entry-status=pending] [data-action=approve]").click()
    await org.locator("[data-entry-status=entered]").first.wait_for()
    await org.get_by_label("Bot teams").fill("1")
    await org.get_by_label("Level").select_option("random")
    await org.get_by_role("button", name="Add bot teams").click()
    await org.locator("[data-entry-status=entered]").nth(1).wait_for()
    await org.get_by_role("button", name="Start round 1").click()
    # Ana, on the tournament page, gets the notice and goes to her match table
    go = ana.locator(".tournament-notice[data-type=tournament_match] [data-action=go-table]")
    await go.wait_for()
    await ana.locator(".bracket-match[data-status=waiting]").wait_for()  # the page updated too
    await go.click()
    await ana.wait_for_url(re.compile(r"#/table/[\w-]+$"))
    await ana.locator("section.table-page").wait_for()
    await ana.get_by_role("button", name="Join").first.wait_for()  # her seat waits for her
    # she goes back without sitting down: after the grace period bots play both their seats
    await ana.go_back()
    await ana.wait_for_url(re.compile(rf"#/tournament/{tid}$"))
    for page in (ana, org):
        await page.locator(".bracket-match[data-winner]").wait_for(timeout=30_000)
        await page.locator(".ranking li[data-place='1']").wait_for()
    assert await org.locator(".tournament-status").get_attribute("data-status") == "finished"
    await keep(ana, "tournament-page-finished")
    # in Bengali the bot team is named in Bengali with its number (the server's name is English)
    await org.locator("#lang").select_option("bn")
    await org.locator("html[lang=bn]").wait_for()
    strings = await org.evaluate("import('/static/js/strings/bn.js').then(m => m.default)")
    bot_team = strings["tour_bot_team"].format(level=strings["bot_level_random"], n=1)
    await org.locator(".entrants strong", has_text=bot_team).wait_for()
    assert "Random bots" not in await org.locator("main").inner_text()
    chromium.assert_clean()


async def test_bracket_and_standings_pictures(event_live: LiveServer, chromium: Browser) -> None:
    """Bot fields, so that the pictures show a full 12-team bracket (byes included) and a
    Swiss's standings."""
    org = await chromium.page(event_live.url, viewport={"width": 1300, "height": 900})
    await sign_in_ui(org, event_live, "org@example.com", "Org")

    async def bot_event(**fields: Any) -> str:
        made = await org.evaluate(
            """async (body) => {
              const api = await import('/static/js/api.js');
              const t = await api.post('/api/tournaments', body);
              const bots = {teams: body.max_teams, level: 'random'};
              await api.post(`/api/tournaments/${t.id}/bots`, bots);
              await api.post(`/api/tournaments/${t.id}/start`);
              return t.id; }""",
            {"match_deals": 1, **fields},
        )
        return str(made)

    knockout = await bot_event(name="Spring knockout", format="knockout", max_teams=12)
    swiss = await bot_event(name="Friday Swiss", format="swiss", rounds=3, max_teams=8)
    await org.goto(f"/#/tournament/{knockout}")
    await org.get_by_role("heading", name="Spring knockout").wait_for()
    await org.locator(".ranking li[data-place='1']").wait_for(timeout=60_000)
    assert await org.locator(".bracket-match[data-bye]").count() == 4
    assert await org.locator(".bracket-match[data-winner]").count() == 11
    await keep(org, "tournament-bracket", org.locator(".bracket-wrap"))
    await org.goto(f"/#/tournament/{swiss}")
    await org.get_by_role("heading", name="Friday Swiss").wait_for()
    await org.locator(".ranking li[data-place='1']").wait_for(timeout=60_000)
    rows = org.locator("table.standings tbody tr")
    assert await rows.count() == 8
    await keep(org, "tournament-standings", org.locator("table.standings"))
    await keep(org, "tournament-swiss-page")
    # on a 360-pixel phone the pages fit: the bracket and the standings scroll in their boxes
    phone = await chromium.page(
        event_live.url, viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True
    )
    await sign_in_ui(phone, event_live, "org@example.com", "Org")
    for route, ready in (
        ("tournaments", "form[aria-label='Organise a tournament']"),
        (f"tournament/{knockout}", ".bracket"),
        (f"tournament/{swiss}", "table.standings"),
    ):
        await phone.goto(f"/#/{route}")
        await phone.locator(ready).wait_for()
        width = await phone.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], f"#/{route} scrolls sideways on a phone: {width}"
    chromium.assert_clean()


async def test_the_organiser_pairs_a_round_again(event_live: LiveServer, chromium: Browser) -> None:
    """Three pairs of people in a one-round Swiss: seeds 1 and 2 meet, 3 sits out. Before
    anyone sits down the organiser pairs the round again on the page: 1 against 3, 2 sits out."""
    org = await chromium.page(event_live.url)
    await sign_in_ui(org, event_live, "org@example.com", "Org")
    players = [await event_live.sign_in(f"{n}@example.com", n.capitalize()) for n in "abcdef"]
    r = await players[0].post(
        "/api/tournaments",
        json={"name": "x", "format": "swiss", "rounds": 1},
    )
    assert r.status_code == 403  # a basic account organises nothing
    made = await org.evaluate(
        """async () => (await (await import('/static/js/api.js')).post('/api/tournaments',
             {name: 'Evening Swiss', format: 'swiss', rounds: 1, grace_seconds: 600})).id"""
    )
    entries = []
    for first, second, partner in ((0, 1, "b"), (2, 3, "d"), (4, 5, "f")):
        r = await players[first].post(
            f"/api/tournaments/{made}/entries", json={"partner_email": f"{partner}@example.com"}
        )
        entry = r.json()["you"]["entry_id"]
        await players[second].post(f"/api/tournaments/{made}/entries/{entry}/confirm")
        entries.append(entry)
    await org.goto(f"/#/tournament/{made}")
    await org.get_by_role("button", name="Start round 1").click()
    repair = org.locator("details.repair")
    await repair.locator("summary").click()
    selects = repair.locator("select")
    assert await selects.count() == 4
    await selects.nth(1).select_option(str(entries[2]))
    await selects.nth(2).select_option(str(entries[1]))
    await selects.nth(3).select_option("")
    await repair.get_by_role("button", name="Pair this round again").click()
    match = org.locator(".match-item")
    await match.filter(has_text="E & F").wait_for()
    assert await match.count() == 1
    assert "A & B" in await match.inner_text()
    await org.get_by_text("Sits out (a win): C & D").wait_for()
    chromium.assert_clean()
