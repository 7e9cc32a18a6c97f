"""Tournaments in the browser, as organisers and entrants found them: live notices that can be
read, the organiser's controls in the page's language, and a match table without the host's
resets and close (the tournament owns it)."""

from __future__ import annotations

import re
from typing import Any

from ..server.conftest import LiveServer
from ..server.tournaments.conftest import start_against_a_bot
from .conftest import Browser, sign_in_ui


async def evening(org: Any, **extra: Any) -> int:
    """A knockout of individuals made by ``org`` (a player who does not come has ten minutes'
    grace): its id."""
    body = {"name": "Evening", "format": "knockout", "team_mode": "individuals",
            "grace_seconds": 600, **extra}  # fmt: skip
    r = await org.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    return int(r.json()["id"])


#: the contrast of a text's colour against what is behind it (WCAG's relative luminance); the
#: background is what shows through every layer from the element up to the page
CONTRAST = """(el) => {
  const parse = (s) => {
    let m = /rgba?\\(([^)]*)\\)/.exec(s);
    if (m) {
      const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
      return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
    }
    m = /color\\(srgb ([^)]*)\\)/.exec(s);
    if (m) {
      const p = m[1].split(/[\\s\\/]+/).filter(Boolean).map(Number);
      return [p[0] * 255, p[1] * 255, p[2] * 255, p.length > 3 ? p[3] : 1];
    }
    throw new Error(`a colour not understood: ${s}`);
  };
  const layers = [];
  for (let e = el; e; e = e.parentElement) layers.push(parse(getComputedStyle(e).backgroundColor));
  let bg = [255, 255, 255];
  for (const [r, g, b, a] of layers.reverse()) {
    bg = [r * a + bg[0] * (1 - a), g * a + bg[1] * (1 - a), b * a + bg[2] * (1 - a)];
  }
  const [r, g, b, a] = parse(getComputedStyle(el).color);
  const fg = [r * a + bg[0] * (1 - a), g * a + bg[1] * (1 - a), b * a + bg[2] * (1 - a)];
  const lum = (c) => {
    const [x, y, z] = c.map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * x + 0.7152 * y + 0.0722 * z;
  };
  const [hi, lo] = [lum(fg), lum(bg)].sort((p, q) => q - p);
  return (hi + 0.05) / (lo + 0.05);
}"""


async def organise(page: Any, **fields: Any) -> int:
    made = await page.evaluate(
        """async (body) => (await (await import('/static/js/api.js')).post('/api/tournaments',
             body)).id""",
        {"name": "Chematoodlon 29", "format": "knockout", "match_deals": 1, **fields},
    )
    return int(made)


async def test_a_live_notice_can_be_read(event_live: LiveServer, chromium: Browser) -> None:
    """The organiser is told of a new entry by a notice (a toast with an Open link): its words,
    its link and its close button stand out from its background."""
    org = await chromium.page(event_live.url)
    await sign_in_ui(org, event_live, "org@example.com", "Org")
    tid = await organise(org)
    await org.goto(f"/#/tournament/{tid}")
    await org.get_by_role("heading", name="Chematoodlon 29").wait_for()
    ana = await event_live.sign_in("ana@example.com", "Ana")
    r = await ana.post(f"/api/tournaments/{tid}/entries", json={})
    assert r.status_code == 201, r.text
    notice = org.locator(".tournament-notice[data-type=tournament_entry]")
    await notice.wait_for()
    for part in ("span", "a", "button"):
        ratio = await notice.locator(part).first.evaluate(CONTRAST)
        assert ratio >= 4.5, f"the notice's {part} has a contrast of {ratio:.2f}"
    chromium.assert_clean()


async def test_the_bot_levels_are_named_in_the_page_language(
    event_live: LiveServer, chromium: Browser
) -> None:
    org = await chromium.page(event_live.url)
    await sign_in_ui(org, event_live, "org@example.com", "Org")
    tid = await organise(org)
    await org.locator("#lang").select_option("bn")
    await org.locator("html[lang=bn]").wait_for()
    await org.goto(f"/#/tournament/{tid}")
    options = org.locator("select[name=bot_level] option")
    await options.first.wait_for(state="attached")
    labels = await options.all_inner_texts()
    strings = await org.evaluate("import('/static/js/strings/bn.js').then(m => m.default)")
    levels = ["random", "beginner", "intermediate", "expert"]
    assert labels == [
        strings["bot_named"].format(level=strings[f"bot_level_{lv}"]) for lv in levels
    ]
    assert not any(re.search("[A-Za-z]", label) for label in labels), labels
    chromium.assert_clean()


async def test_the_organiser_at_a_match_table_has_no_resets_or_close(
    event_live: LiveServer, chromium: Browser
) -> None:
    """The organiser hosts every match table, but a match is neither reset nor closed there:
    its result is read from its deals, and it closes when it is decided."""
    org = await chromium.page(event_live.url)
    await sign_in_ui(org, event_live, "org@example.com", "Org")
    tid = await organise(org, grace_seconds=600)
    ana = await event_live.sign_in("ana@example.com", "Ana")
    bo = await event_live.sign_in("bo@example.com", "Bo")
    r = await ana.post(f"/api/tournaments/{tid}/entries", json={"partner_email": "bo@example.com"})
    entry = r.json()["you"]["entry_id"]
    await bo.post(f"/api/tournaments/{tid}/entries/{entry}/confirm")
    await org.goto(f"/#/tournament/{tid}")
    await org.get_by_label("Bot teams").fill("1")
    await org.get_by_role("button", name="Add bot teams").click()
    await org.locator("[data-entry-status=entered]").nth(1).wait_for()
    await org.get_by_role("button", name="Start round 1").click()
    await org.locator(".match-item [data-action=watch]").click()
    await org.wait_for_url(re.compile(r"#/table/[\w-]+$"))
    await org.locator("section.table-page").wait_for()
    await org.get_by_role("button", name="Last trick").wait_for()  # the controls are drawn
    assert await org.locator("[data-reset]").count() == 0
    assert await org.get_by_role("button", name="Close the table").count() == 0
    chromium.assert_clean()


async def test_a_visitor_not_signed_in_sees_the_event_move_on(
    event_live: LiveServer, chromium: Browser
) -> None:
    """The tournament's page is open to all: a visitor's page (live channel ``?visitor=1``)
    follows the event by itself, from the sign-up to the final ranking, without a reload."""
    org = await event_live.sign_in("org@example.com", "Org")
    r = await org.post(
        "/api/tournaments", json={"name": "Open day", "format": "knockout", "match_deals": 1}
    )
    tid = r.json()["id"]
    visitor = await chromium.page(event_live.url)
    await visitor.goto(f"/#/tournament/{tid}")
    status = visitor.locator(".tournament-status")
    await status.and_(visitor.locator("[data-status=registration]")).wait_for()
    await visitor.evaluate("window.__stillHere = true")
    await org.post(f"/api/tournaments/{tid}/bots", json={"teams": 2, "level": "random"})
    await visitor.locator(".entrants [data-entry-status=entered]").nth(1).wait_for()
    await org.post(f"/api/tournaments/{tid}/start")
    await visitor.locator(".ranking li[data-place='1']").wait_for(timeout=30_000)
    assert await status.get_attribute("data-status") == "finished"
    assert await visitor.evaluate("window.__stillHere === true")  # no reload
    chromium.assert_clean()


async def test_a_match_decided_by_the_organiser_mid_deal_takes_no_more_moves(
    event_live: LiveServer, chromium: Browser
) -> None:
    """Ana plays her match (with a bot partner: she entered alone); the organiser sets its
    result while it is her turn. Her open page says the table is closed and offers no bid, no
    pass and no card (it went on offering them, for a table that takes no move)."""
    org = await event_live.sign_in("org@example.com", "Org")
    tid = await evening(org)
    ana = await chromium.page(event_live.url)
    await sign_in_ui(ana, event_live, "ana@example.com", "Ana")
    entry = await ana.evaluate(
        f"import('/static/js/api.js').then(m => m.post('/api/tournaments/{tid}/entries', {{}}))"
    )
    match = await start_against_a_bot(org, tid)
    bots = match["b"] if match["a"] == entry["you"]["entry_id"] else match["a"]
    await ana.goto(f"/#/table/{match['table_id']}")
    await ana.get_by_role("button", name="Join").first.click()
    table = ana.locator("section.table-page")
    await ana.locator("section.table-page[data-my-turn=true]").wait_for()
    for _ in range(5):  # the tournament's owner may store a step of the match meanwhile (its
        # deal under way): the answer then is 409 "try again", as a page would
        r = await org.post(
            f"/api/tournaments/{tid}/matches/{match['id']}/result", json={"winner": bots}
        )
        if r.status_code != 409:
            break
    assert r.status_code == 200, r.text
    await ana.locator("section.table-page[data-status=closed]").wait_for()
    assert await ana.locator(".actions button[data-act]").count() == 0
    assert await ana.locator(".hand button.card[data-legal=true]").count() == 0
    assert await table.get_attribute("data-my-turn") == "false"
    await ana.locator(".actions [data-closed]").wait_for()
    chromium.assert_clean()


async def test_the_page_says_when_registration_opens_and_closes(
    event_live: LiveServer, chromium: Browser
) -> None:
    """Before registration opens the page had no form and no word of when it would: now it
    gives the organiser's dates, and the form gives the closing one."""
    org = await event_live.sign_in("org@example.com", "Org")
    soon = {
        "name": "Next month",
        "format": "knockout",
        "registration_opens_at": "2099-03-01T09:00:00Z",
        "registration_closes_at": "2099-03-05T18:00:00Z",
    }
    later = (await org.post("/api/tournaments", json=soon)).json()["id"]
    now = {
        "name": "Open now",
        "format": "knockout",
        "registration_closes_at": soon["registration_closes_at"],
    }
    open_now = (await org.post("/api/tournaments", json=now)).json()["id"]
    ana = await chromium.page(event_live.url)
    await sign_in_ui(ana, event_live, "ana@example.com", "Ana")
    await ana.goto(f"/#/tournament/{later}")
    dates = ana.locator(".registration-window")
    await dates.wait_for()
    text = await dates.inner_text()
    assert "Registration opens:" in text and "Registration closes:" in text, text
    assert "2099" in text, text
    assert await ana.get_by_role("button", name="Register").count() == 0
    await ana.goto(f"/#/tournament/{open_now}")
    form = ana.locator("form.register-form")
    await form.locator(".registration-window", has_text="Registration closes:").wait_for()
    chromium.assert_clean()


async def test_the_standings_say_which_points_are_byes(
    event_live: LiveServer, chromium: Browser
) -> None:
    """Three teams, a one-round Swiss: one sits out (a win). Its row had played 0, 0-0-0 and
    1 point, a point from nowhere; the bye is now named beside the wins, draws and losses."""
    org = await chromium.page(event_live.url)
    await sign_in_ui(org, event_live, "org@example.com", "Org")
    made = await org.evaluate(
        """async () => { const api = await import('/static/js/api.js');
             const t = await api.post('/api/tournaments', {name: 'Odd field', format: 'swiss',
               rounds: 1, match_deals: 1});
             await api.post(`/api/tournaments/${t.id}/bots`, {teams: 3, level: 'random'});
             await api.post(`/api/tournaments/${t.id}/start`);
             return t.id; }"""
    )
    await org.goto(f"/#/tournament/{made}")
    # (the bye's team and the match's winner may share first place: a list of two)
    await org.locator(".ranking li[data-place='1']").first.wait_for(timeout=30_000)
    doc = await (await org.request.get(f"/api/tournaments/{made}")).json()
    (sitter,) = doc["rounds"][0]["byes"]
    row = org.locator(f"table.standings tr[data-entry='{sitter}'] td").nth(2)
    assert await row.inner_text() == "0-0-0 + 1 bye"
    chromium.assert_clean()


async def test_a_match_tables_video_call_is_for_its_players(
    event_live: LiveServer, chromium: Browser
) -> None:
    """At a match's table Ana (a player) has the event's video-call link; Dee, watching, has
    none (the tournament's page gives it to the entrants only)."""
    org = await event_live.sign_in("org@example.com", "Org")
    link = "https://meet.example.com/room-of-the-event"
    tid = await evening(org, conference_url=link)
    ana_api = await event_live.sign_in("ana@example.com", "Ana")
    await ana_api.post(f"/api/tournaments/{tid}/entries", json={})
    table = (await start_against_a_bot(org, tid))["table_id"]
    ana, dee = await chromium.page(event_live.url), await chromium.page(event_live.url)
    await sign_in_ui(ana, event_live, "ana@example.com", "Ana")
    await sign_in_ui(dee, event_live, "dee@example.com", "Dee")
    for page in (ana, dee):
        await page.goto(f"/#/table/{table}")
        await page.get_by_role("button", name="Last trick").wait_for()
    call = ana.get_by_role("link", name="Join the video call")
    assert await call.get_attribute("href") == link
    assert await dee.get_by_role("link", name="Join the video call").count() == 0
    chromium.assert_clean()


async def test_a_result_set_before_any_deal_shows_no_score(
    event_live: LiveServer, chromium: Browser
) -> None:
    """The organiser decides a match nobody has played yet: its line said "score 0–0" (a
    match played and even) beside "set by the organiser"; it now says only who won and how."""
    org_page = await chromium.page(event_live.url)
    await sign_in_ui(org_page, event_live, "org@example.com", "Org")
    org = await event_live.sign_in("org@example.com", "Org")
    tid = await evening(org)
    ana = await event_live.sign_in("ana@example.com", "Ana")
    assert (await ana.post(f"/api/tournaments/{tid}/entries", json={})).status_code == 201
    match = await start_against_a_bot(org, tid)
    r = await org.post(
        f"/api/tournaments/{tid}/matches/{match['id']}/result", json={"winner": match["a"]}
    )
    assert r.status_code == 200, r.text
    assert r.json()["rounds"][0]["matches"][0]["result"]["deals"] == 0
    await org_page.goto(f"/#/tournament/{tid}")
    line = org_page.locator(f"li[data-match='{match['id']}']")
    await line.get_by_text("set by the organiser").wait_for()
    assert "score" not in await line.inner_text()
    chromium.assert_clean()


async def test_the_organiser_calls_the_players_before_the_start(
    event_live: LiveServer, chromium: Browser
) -> None:
    """ "Starts in 10 minutes": the organiser calls the entrants from the tournament's page, and
    an entrant's open page elsewhere (the dashboard) shows the call by itself, with a link to
    the tournament; before, nothing told an entrant that the start was near."""
    org = await chromium.page(event_live.url)
    ana = await chromium.page(event_live.url)
    await sign_in_ui(org, event_live, "org@example.com", "Org")
    await sign_in_ui(ana, event_live, "ana@example.com", "Ana")
    tid = await organise(org, team_mode="individuals")
    r = await ana.evaluate(
        """(id) => import('/static/js/api.js').then((api) =>
             api.post(`/api/tournaments/${id}/entries`, {}))""",
        tid,
    )
    assert r["you"]["entry_id"]
    await ana.goto("/#/dashboard")
    await org.goto(f"/#/tournament/{tid}")
    minutes = org.get_by_label("Starts in (minutes)")
    await minutes.fill("15")
    await org.get_by_role("button", name="Call the players").click()
    await org.locator(".toast", has_text="1 player was told.").wait_for()
    call = ana.locator(".tournament-notice[data-type=tournament_call]")
    await call.get_by_text("Org: Chematoodlon 29 starts in 15 minutes. Be ready.").wait_for(
        timeout=3000
    )
    assert await call.get_by_role("link").get_attribute("href") == f"#/tournament/{tid}"
    chromium.assert_clean()
