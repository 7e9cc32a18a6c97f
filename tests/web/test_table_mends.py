"""What trying every flow at the table as a player found (issue 16, item 5), each in a real
browser: the hand fits the window and a phone's fingers, the auction's calls are on the table,
the result names trump, an invalid deal shows no stake of 0, empty seats say "Open seat", a pair
that leaves the target as it was is not told as a change, a finished replay's result closes,
closing a table asks first, a wrong invite code leads back, a viewer turns a face-down hand up
by clicking it, table and bot names are in the page's language, a reload keeps the deal's log,
a host's reset is told to everyone, the last to join is not "away", leaving mid-game leaves no
countdown behind, an invite link is one click to copy, and a finished game can be played again."""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
from typing import Any

from twentynine.engine import RoundState
from twentynine.engine.state import Phase
from twentynine.engine.views import spectator_view, view

from ..server.conftest import LiveServer
from .conftest import Browser, play_step, shot, sign_in_ui
from .test_render import DRAW, context, play_until

TABLE = "section.table-page"
RANDOM_BOTS = ["me", "bot:random", "bot:random", "bot:random"]

OPEN_TABLE = """async (body) => {
  const r = await fetch('/api/tables', {method: 'POST', headers: {'Content-Type':
    'application/json', 'X-CSRF-Token': document.cookie.match(/tn_csrf=([^;]+)/)[1]},
    body: JSON.stringify(body)});
  if (!r.ok) throw new Error(await r.text());
  return r.json();
}"""


async def guest_at_solo_table(page: Any, rules: dict[str, Any] | None = None) -> str:
    """A guest (Gita) from the front page, at a solo table of random bots; its id."""
    await page.goto("/")
    await page.get_by_label("Your name (optional)").fill("Gita")
    await page.locator("form.play-now button").click()
    await page.locator(f"{TABLE}[data-status=playing]").wait_for()
    body: dict[str, Any] = {"kind": "solo", "seats": RANDOM_BOTS}
    if rules:
        body["rules"] = rules
    table = await page.evaluate(OPEN_TABLE, body)
    await page.goto(f"/#/table/{table['id']}")
    await page.locator(f"{TABLE}[data-status=playing]").wait_for()
    return str(table["id"])


async def play_until_selector(page: Any, selector: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if await page.locator(selector).count():
            return
        if not await play_step(page, stop=selector):
            await asyncio.sleep(0.05)
    raise AssertionError(f"never reached {selector}")


async def draw(page: Any, ctx: dict[str, Any], live: bool = True) -> None:
    await page.evaluate(DRAW, {"ctx": ctx, "live": live})


# -- the hand in the window and under a finger ----------------------------------------------------
async def test_hand_fits_a_1280_by_800_window(web_live: LiveServer, chromium: Browser) -> None:
    """Your turn to bid (the most buttons) and your turn to play (eight cards): the whole hand is
    in the window without scrolling."""
    page = await chromium.page(web_live.url, viewport={"width": 1280, "height": 800})
    await guest_at_solo_table(page)
    for selector in (
        f"{TABLE}[data-phase=auction][data-my-turn=true]",
        f"{TABLE}[data-phase=play][data-my-turn=true]",
    ):
        await play_until_selector(page, selector)
        await page.evaluate("window.scrollTo(0, 0)")
        bottoms = await page.locator(".hand .card").evaluate_all(
            "cs => cs.map(c => c.getBoundingClientRect().bottom)"
        )
        assert bottoms and max(bottoms) <= 800, f"the hand ends {max(bottoms) - 800} px below"
        await shot(page, f"hand-1280x800-{'auction' if 'auction' in selector else 'play'}")
    chromium.assert_clean()


#: for each card, whether a tap on its middle lands on it, and if not what it lands on and where
#: (a point outside the window finds nothing), to say why in the test's failure
HITS = """cs => cs.map(c => {
  const r = c.getBoundingClientRect(), x = r.x + r.width / 2, y = r.y + r.height / 2;
  const at = document.elementFromPoint(x, y);
  if (at && at.closest('.card') === c) return {card: true};
  return {card: false, x, y, window: [innerWidth, innerHeight], scrolled: scrollY,
          at: at ? `${at.tagName}.${at.className}` : null};
})"""


async def test_phone_cards_are_44px_targets(web_live: LiveServer, chromium: Browser) -> None:
    """On a 390 px phone each card of eight shows at least 44 px, a tap on its middle lands on
    it (not its neighbour), and the buttons are at least 44 px tall."""
    page = await chromium.page(
        web_live.url, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    await guest_at_solo_table(page)
    await play_until_selector(page, f"{TABLE}[data-phase=auction][data-my-turn=true]")
    buttons = await page.locator(".actions button").evaluate_all(
        "bs => bs.map(b => b.getBoundingClientRect().height)"
    )
    assert buttons and min(buttons) >= 44, buttons
    await play_until_selector(page, f"{TABLE}[data-phase=play][data-my-turn=true]")
    # the last deal's result stays up to 10 s into the next one (when the first deal was void, it
    # covers this one's first turn): closed as a person would, before the hand is looked at
    close = page.locator("[data-key=result-close]")
    if await close.count():
        await close.click()
        await page.locator("[data-testid=result]").wait_for(state="detached")
    await page.locator(".hand").scroll_into_view_if_needed()
    cards = page.locator(".hand .card")
    assert await cards.count() == 8
    boxes = await cards.evaluate_all(
        "cs => cs.map(c => { const r = c.getBoundingClientRect();"
        " return {x: r.x, y: r.y, w: r.width, h: r.height}; })"
    )
    strips = [b["x"] - a["x"] for a, b in itertools.pairwise(boxes)]
    assert min(strips) >= 44, f"cards show strips of {strips} px"
    hits = await cards.evaluate_all(HITS)
    assert all(h["card"] for h in hits), f"a tap on a card's middle lands elsewhere: {hits}"
    assert boxes[-1]["x"] + boxes[-1]["w"] <= 390 and boxes[0]["x"] >= 0, boxes
    await shot(page, "hand-phone-390")
    chromium.assert_clean()


# -- drawings of engine views ---------------------------------------------------------------------
def auction_with_calls() -> RoundState:
    def choose(st: RoundState) -> str | None:
        return "bid 16" if st.bid == 0 else "pass"

    return play_until("standard", choose, lambda st: len(st.calls) >= 3)


def finished_deal() -> RoundState:
    def choose(st: RoundState) -> str | None:
        if st.phase is Phase.AUCTION:
            return "bid 16" if st.bid == 0 else "pass"
        if st.phase is Phase.TRUMP:
            return "trump H"
        return "reveal" if st.phase is Phase.PLAY else "pass"  # shown, or the deal is void

    return play_until("standard", choose, lambda st: st.is_over and st.outcome in ("won", "lost"))


def invalid_deal() -> RoundState:
    return play_until("standard", lambda st: None, lambda st: st.outcome == "invalid")


async def drawing_page(live: LiveServer, chromium: Browser) -> Any:
    page = await chromium.page(live.url)
    await page.goto("/")
    await page.locator("main h1").first.wait_for()
    return page


async def test_auction_calls_are_on_the_table(web_live: LiveServer, chromium: Browser) -> None:
    page = await drawing_page(web_live, chromium)
    st = auction_with_calls()
    await draw(page, context(view(st, 0).to_json(), 0))
    calls = page.locator("[data-testid=calls] li")
    assert await calls.count() == len(st.calls)
    first_seat, first_bid = st.calls[0]
    names = ["South", "East", "North", "West"]
    assert await calls.first.inner_text() == f"{names[first_seat]} {first_bid}"
    assert "Pass" in await calls.last.inner_text()
    await shot(page, "auction-calls")
    # and in the round's panel, after the auction too
    info = await page.evaluate(INFO, {"ctx": context(view(st, 0).to_json(), 0)})
    assert info["calls"] and info["calls"].startswith(f"{names[first_seat]} {first_bid}")
    chromium.assert_clean()


INFO = """async ({ctx}) => { const r = await import('/static/js/table/render.js');
  const box = r.renderInfo({...ctx, ui: {}, seenTrick: new Set()});
  const calls = box.querySelector('[data-testid=info-calls]');
  return {text: box.textContent, calls: calls && calls.textContent}; }"""


async def test_result_names_trump(web_live: LiveServer, chromium: Browser) -> None:
    page = await drawing_page(web_live, chromium)
    await draw(page, context(view(finished_deal(), 0).to_json(), 0))
    assert "Trump: hearts" in await page.locator("[data-testid=result] .result-trump").inner_text()
    await shot(page, "result-trump")
    chromium.assert_clean()


async def test_invalid_deal_shows_no_stake(web_live: LiveServer, chromium: Browser) -> None:
    """Nobody plays for anything in an invalid deal: no "Stake 0" in the round's panel."""
    page = await drawing_page(web_live, chromium)
    info = await page.evaluate(INFO, {"ctx": context(view(invalid_deal(), 0).to_json(), 0)})
    assert "Stake" not in info["text"], info
    info = await page.evaluate(INFO, {"ctx": context(view(finished_deal(), 0).to_json(), 0)})
    assert "Stake1" in info["text"], info
    chromium.assert_clean()


async def test_viewer_clicks_a_face_down_hand(web_live: LiveServer, chromium: Browser) -> None:
    """A viewer's click on a face-down hand turns it up, as its "Show …'s hand" button does."""
    page = await drawing_page(web_live, chromium)
    await draw(page, context(spectator_view(auction_with_calls(), {0, 2}).to_json(), None))
    await page.locator(".seat[data-seat='1'] .seat-hand.closed").click()
    assert await page.evaluate("window.toggled") == 1
    # and a hand turned up turns down again the same way
    await page.locator(".seat[data-seat='2'] .seat-hand.open").click()
    assert await page.evaluate("window.toggled") == 2
    chromium.assert_clean()


async def test_pair_that_keeps_the_target(web_live: LiveServer, chromium: Browser) -> None:
    """A pair at the bid's limit leaves the target where it was: not "the target is now 16"."""
    page = await drawing_page(web_live, chromium)
    lines = await page.evaluate(
        """async () => { const d = await import('/static/js/table/describe.js');
        const names = ['A', 'B', 'C', 'D'];
        return [d.eventText({type: 'pair', seat: 1, target: 16}, names, {target: 16}),
                d.eventText({type: 'pair', seat: 1, target: 20}, names, {target: 16})]; }"""
    )
    assert "now" not in lines[0] and "16" in lines[0], lines
    assert "now 20" in lines[1], lines
    chromium.assert_clean()


# -- a replay's result ----------------------------------------------------------------------------
async def test_finished_game_plays_again_and_replay_result_closes(
    web_live: LiveServer, chromium: Browser
) -> None:
    """A one-round match: once over, "Play again" starts a new game at the same table (same
    seats, same rules); the deal's replay shows its result, which can be closed."""
    page = await chromium.page(web_live.url)
    rules = {"preset": "standard", "options": {"game_end": "match_rounds", "match_rounds": 1}}
    table_id = await guest_at_solo_table(page, rules)
    await play_until_selector(page, ".score .game-over", timeout=120)
    again = page.locator("[data-testid=result] button[data-action=play-again]")
    await again.wait_for()
    await shot(page, "play-again")
    await again.click()
    await page.locator(".score .game-over").wait_for(state="detached")
    info = await page.evaluate(f"fetch('/api/tables/{table_id}').then(r => r.json())")
    assert info["game"]["game_no"] == 2 and info["game"]["scores"] == [0, 0]
    assert info["rules"] == {**info["rules"], **rules}
    assert [s["bot"] for s in info["seats"]][1:] == ["random"] * 3

    await page.route(
        "**/api/web/replay/*/analysis", lambda route: route.fulfill(json={"analysis": None})
    )
    deals = await page.evaluate("fetch('/api/history/deals').then(r => r.json())")
    await page.goto(f"/#/replay/{deals[0]['id']}")
    await page.locator(".replay button[data-action=last]").click()
    result = page.locator("[data-testid=result]")
    await result.wait_for()
    await result.get_by_role("button", name="Close").click()
    await result.wait_for(state="detached")
    await page.locator(".replay button[data-action=prev]").click()
    await page.locator(".replay button[data-action=next]").click()
    await result.wait_for()  # back at the end, the result is shown again
    await page.keyboard.press("Escape")
    await result.wait_for(state="detached")
    chromium.assert_clean()


# -- names in the page's language -----------------------------------------------------------------
async def test_table_and_bot_names_are_translated(web_live: LiveServer, chromium: Browser) -> None:
    page = await chromium.page(web_live.url)
    await guest_at_solo_table(page)
    await page.locator("#lang").select_option("bn")
    await page.locator("html[lang=bn]").wait_for()
    strings = await page.evaluate("import('/static/js/strings/bn.js').then(m => m.default)")
    title = await page.locator(".table-title strong").inner_text()
    assert title == strings["table_solo"], title
    names = await page.locator(".seat .seat-name .name").all_inner_texts()
    bot = strings["bot_level_random"]
    assert sorted(n for n in names if "Gita" not in n) == [f"{bot} 2", f"{bot} 3", f"{bot} 4"]
    await shot(page, "table-bengali")
    # the names the server gives unnamed tables and games, and a name the host chose
    names = await page.evaluate(
        """async () => { const m = await import('/static/js/tables.js');
        const seats = [{seat: 0, user_id: 7, name: 'Asha'}, {seat: 1, bot: 'expert'}];
        return [m.tableName({name: "Asha's table", kind: 'public', host_id: 7, seats}),
                m.tableName({name: "Asha's game", kind: 'hosted', host_id: 7, seats}),
                m.tableName({name: 'Evening 29', kind: 'public', host_id: 7, seats}),
                m.seatNames({seats}).join(' | ')]; }"""
    )
    assert names[:3] == [
        strings["table_of_host"].replace("{name}", "Asha"),
        strings["game_of_host"].replace("{name}", "Asha"),
        "Evening 29",
    ], names
    bot = strings["bot_named"].replace("{level}", strings["bot_level_expert"])
    assert names[3].split(" | ")[1] == bot, names
    chromium.assert_clean()


async def test_refusals_are_in_the_page_language(web_live: LiveServer, chromium: Browser) -> None:
    """The server's refusals reach a Bengali page in Bengali: a table socket's error (a chat
    line longer than the server takes, sent past the page's own limit) and an HTTP one (play
    again before the game is over), each by its reason; before, both showed the server's
    English words."""
    page = await chromium.page(web_live.url)
    routes: list[Any] = []

    def lengthen(server: Any, message: str | bytes) -> None:
        data = json.loads(message)
        if data.get("type") == "chat":
            data["text"] = "x" * 1000  # more than the server's 300, within a frame's 4096
        server.send(json.dumps(data))

    async def route(ws: Any) -> None:
        server = ws.connect_to_server()
        ws.on_message(lambda message: lengthen(server, message))
        routes.append(ws)

    await page.route_web_socket(re.compile(r"/ws/tables/"), route)
    table_id = await guest_at_solo_table(page)
    assert routes, "the table socket went through the route"
    await page.locator("#lang").select_option("bn")
    await page.locator("html[lang=bn]").wait_for()
    strings = await page.evaluate("import('/static/js/strings/bn.js').then(m => m.default)")

    await page.locator(".chat-form input[name=text]").fill("hello")
    await page.locator(".chat-form input[name=text]").press("Enter")
    await page.locator(".toast.error", has_text=strings["err_too_long"]).wait_for(timeout=5000)

    refused = await page.evaluate(
        """(id) => import('/static/js/api.js').then((api) =>
          api.post(`/api/tables/${id}/play-again`).then(() => null,
            (e) => ({message: e.message, reason: e.reason, status: e.status})))""",
        table_id,
    )
    assert refused == {"message": strings["err_not_over"], "reason": "not_over", "status": 409}
    expected = [e for e in chromium.errors if "status of 409" in e]  # the refusal asked for
    assert len(expected) == 1, chromium.errors
    chromium.errors.remove(expected[0])
    chromium.assert_clean()


# -- two members at a public table ----------------------------------------------------------------
async def asha_and_babu(web_live: LiveServer, chromium: Browser) -> tuple[Any, Any, str]:
    """Asha's page and Babu's, each signed in, and a public table of Asha's (seat 1 open)."""
    asha = await chromium.page(web_live.url)
    babu = await chromium.page(web_live.url)
    await sign_in_ui(asha, web_live, "asha@example.com", "Asha")
    await sign_in_ui(babu, web_live, "babu@example.com", "Babu")
    table = await asha.evaluate(
        OPEN_TABLE, {"kind": "public", "seats": ["me", "open", "bot:random", "bot:random"]}
    )
    return asha, babu, str(table["id"])


async def test_two_players_at_a_public_table(web_live: LiveServer, chromium: Browser) -> None:
    """Asha opens a table with an open seat; Babu sits down last. Nobody is "away"; Asha's
    reset is told to Babu; Babu's reload keeps the deal's log; Babu leaves mid-game and the
    seat is a bot's for good, with no countdown; Asha's "Close the table" asks first."""
    asha, babu, table_id = await asha_and_babu(web_live, chromium)
    await asha.goto(f"/#/table/{table_id}")
    await asha.locator(f"{TABLE}[data-status=waiting]").wait_for()
    seat = asha.locator(".seat[data-seat='1']")
    assert await seat.locator(".seat-name .name").inner_text() == "Open seat"
    assert "Asha" in await asha.locator(".table-title strong").inner_text()

    await babu.goto(f"/#/table/{table_id}")
    await babu.get_by_role("button", name="Sit here").click()
    await babu.locator(f"{TABLE}[data-status=playing][data-spectator=false]").wait_for()
    await asha.locator(f"{TABLE}[data-status=playing]").wait_for()
    # Babu is here, and Asha's screen says so without anybody moving
    await asyncio.sleep(1)
    assert await seat.locator(".badge.away").count() == 0, await seat.inner_text()

    # Asha resets the score: Babu is told, not only in the collapsed log
    await asha.locator("button[data-reset=score]").click()
    await babu.locator(".toast", has_text="The host reset the score").wait_for()

    # some of the deal is played; Babu's reload keeps its lines
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        lines = await babu.locator(".log li").all_text_contents()
        if sum(1 for x in lines if " bids " in x or " passes" in x) >= 3:
            break
        if not (await play_step(asha) or await play_step(babu)):
            await asyncio.sleep(0.05)
    calls = [
        x
        for x in await babu.locator(".log li").all_text_contents()
        if " bids " in x or " passes" in x
    ]
    assert len(calls) >= 3, calls
    await babu.reload()
    await babu.locator(f"{TABLE}[data-status=playing]").wait_for()
    await babu.locator(".log li").first.wait_for(state="attached")
    after = await babu.locator(".log li").all_text_contents()
    assert [x for x in after if " bids " in x or " passes" in x][: len(calls)] == calls, after

    # Babu leaves mid-game: a bot has the seat for good, and no countdown is left behind
    await babu.get_by_role("button", name="Leave the table").click()
    await babu.wait_for_url("**/#/lobby")
    await asha.locator(".log li", has_text="Babu left the table").wait_for(state="attached")
    await asyncio.sleep(1.5)
    assert await seat.locator(".countdown").count() == 0, await seat.inner_text()
    log = await asha.locator(".log li").all_text_contents()
    assert not [x for x in log if x.startswith("Bot") and "left" in x], log
    await shot(asha, "table-after-leaving")

    # closing asks first; Cancel keeps the table
    await asha.get_by_role("button", name="Close the table").click()
    dialog = asha.locator("dialog.confirm")
    await dialog.wait_for()
    await shot(asha, "close-table-confirm")
    await dialog.get_by_role("button", name="Cancel").click()
    await dialog.wait_for(state="detached")
    await asyncio.sleep(0.3)
    assert await asha.locator(f"{TABLE}[data-status=playing]").count() == 1
    await asha.get_by_role("button", name="Close the table").click()
    await dialog.get_by_role("button", name="Close the table").click()
    await asha.wait_for_url("**/#/dashboard**")
    chromium.assert_clean()


async def test_private_table_invite_link_and_a_wrong_code(
    web_live: LiveServer, chromium: Browser
) -> None:
    host = await chromium.page(web_live.url)
    await host.context.grant_permissions(["clipboard-read", "clipboard-write"])
    guest = await chromium.page(web_live.url)
    await sign_in_ui(host, web_live, "hari@example.com", "Hari")
    await sign_in_ui(guest, web_live, "gopal@example.com", "Gopal")
    table = await host.evaluate(
        OPEN_TABLE, {"kind": "private", "seats": ["me", "open", "bot:random", "bot:random"]}
    )
    await host.goto(f"/#/table/{table['id']}")
    await host.get_by_role("button", name="Copy invite link").click()
    await host.locator(".toast", has_text="copied").wait_for()
    link = await host.evaluate("navigator.clipboard.readText()")
    assert link.endswith(f"/#/table/{table['id']}?code={table['invite_code']}"), link

    # a wrong code: a page that says so and leads back, not an empty table with a chat box
    await guest.goto(f"/#/table/{table['id']}?code=WRONG1")
    gone = guest.locator(".table-gone")
    await gone.wait_for()
    assert await guest.locator(".chat-form").count() == 0
    await shot(guest, "table-wrong-code")
    await gone.get_by_role("link", name="Lobby").click()
    await guest.wait_for_url("**/#/lobby")
    # the right one seats Gopal
    await guest.goto(link)
    await guest.get_by_role("button", name="Sit here").click()
    await guest.locator(f"{TABLE}[data-status=playing][data-spectator=false]").wait_for()
    chromium.assert_clean()


RENAME = """async (name) => {
  const r = await fetch('/api/me', {method: 'PATCH', headers: {'Content-Type':
    'application/json', 'X-CSRF-Token': document.cookie.match(/tn_csrf=([^;]+)/)[1]},
    body: JSON.stringify({first_name: name})});
  if (!r.ok) throw new Error(await r.text());
}"""


async def test_a_new_name_reaches_an_open_table_page(
    web_live: LiveServer, chromium: Browser
) -> None:
    """Asha waits at her table; Babu's page shows it. Asha takes a new name in another tab:
    Babu's page names her seat and her table by it, and says so in the log, with no reload."""
    asha, babu, table_id = await asha_and_babu(web_live, chromium)
    await babu.goto(f"/#/table/{table_id}")
    await babu.locator(f"{TABLE}[data-status=waiting]").wait_for()
    seat = babu.locator(".seat[data-seat='0'] .seat-name .name")
    assert await seat.inner_text() == "Asha"
    assert "Asha" in await babu.locator(".table-title strong").inner_text()

    await asha.evaluate(RENAME, "Ashalata")
    await babu.locator(".seat[data-seat='0'] .seat-name .name", has_text="Ashalata").wait_for(
        timeout=1000
    )
    assert "Ashalata" in await babu.locator(".table-title strong").inner_text()
    await babu.locator(".log li", has_text="Asha is now called Ashalata.").wait_for(
        state="attached", timeout=1000
    )
    chromium.assert_clean()
