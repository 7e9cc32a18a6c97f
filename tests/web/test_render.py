"""The table's drawing of views the engine really produces, in the browser: the seventh-card
Redouble (only the 7th card shown), a trump laid down from the hand (pagat), the Single Hand
caller looking at the partner's cards, a spectator's hand toggles, the score as sixes, and an
invalid round announced with its reason. Each view comes from the engine here in Python and is
drawn by the client's own render module."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from twentynine.engine import RoundState, apply, legal_actions, parse_action, preset, start_round
from twentynine.engine import to_act as seats_to_act
from twentynine.engine.state import Phase
from twentynine.engine.views import spectator_view, view

from ..server.conftest import LiveServer
from .conftest import Browser, shot

DRAW = """async ({ctx, live}) => {
  const r = await import('/static/js/table/render.js');
  let box = document.getElementById('render-test');
  if (!box) {
    box = document.createElement('section');
    box.id = 'render-test';
    box.className = 'table-page';
    document.querySelector('main').replaceChildren(box);
  }
  window.acted = null;
  const full = { ...ctx, live, pending: false, seenTrick: new Set(),
    ui: { lastTrick: false, peekPartner: false },
    act: (a) => { window.acted = a; }, toggle: (s) => { window.toggled = s; },
    lastTrick: () => {} };
  const draw = () => box.replaceChildren(r.renderScore(full), r.renderFelt(full),
    r.renderActions(full), r.renderHand(full),
    full.view.phase === 'over' ? r.renderResult({ view: full.view, names: full.names }, full)
      : '');
  full.peek = () => { full.ui.peekPartner = true; draw(); };
  draw();
}"""

NAMES = ["South", "East", "North", "West"]


def table(you: int | None, **more: Any) -> dict[str, Any]:
    return {
        "seats": [{"seat": s, "name": NAMES[s], "user_id": s + 1} for s in range(4)],
        "you": {"seat": you, "spectator": you is None, "sees": [0], "can_toggle": you is None},
        "host_id": 1,
        "direction": "counter_clockwise",
        "game": {
            "scores": [0, 0],
            "red_sets": [0, 0],
            "black_sets": [0, 0],
            "rounds_won": [0, 0],
            "over": False,
            "winner": None,
        },
        **more,
    }


def context(v: dict[str, Any], you: int | None, **more: Any) -> dict[str, Any]:
    return {
        "view": v,
        "table": table(you, **more),
        "me": you,
        "bottom": 0 if you is None else you,
        "direction": "counter_clockwise",
        "names": NAMES,
        "rules": None,
    }


def play_until(
    rules: str, choose: Callable[[RoundState], str | None], done: Callable[[RoundState], bool]
) -> RoundState:
    """Random decks, actions picked by ``choose`` (text, or None for the first legal one),
    until ``done``; the first deal that gets there."""
    rng = random.Random(29)
    for _ in range(2000):
        deck = list(range(32))
        rng.shuffle(deck)
        st, _ = start_round(preset(rules), 3, deck)
        while not st.is_over and not done(st):
            seat = seats_to_act(st)[0]
            wanted = choose(st)
            legal = legal_actions(st, seat)
            action = next((a for a in legal if a.text == wanted), legal[0])
            if wanted and wanted.startswith("!"):
                action = parse_action(wanted[1:], seat)
            st, _ = apply(st, action)
        if done(st):
            return st
    raise AssertionError("no deal reached the state")


def seventh_redouble() -> RoundState:
    def choose(st: RoundState) -> str | None:
        if st.phase is Phase.AUCTION:
            return "bid 16" if st.bid == 0 else "pass"
        if st.phase is Phase.TRUMP:
            return "trump seventh"
        if st.phase is Phase.DOUBLING:
            return "double" if st.double_level == 0 else "pass"
        return None

    return play_until("standard", choose, lambda st: st.phase is Phase.SEVENTH_REDOUBLE)


def hand_card_trump() -> RoundState:
    def choose(st: RoundState) -> str | None:
        return "bid 16" if st.bid == 0 else "pass"

    return play_until("pagat", choose, lambda st: st.phase is Phase.TRUMP)


def single_hand_played() -> RoundState:
    def choose(st: RoundState) -> str | None:
        if st.phase is Phase.AUCTION:
            return "bid 16" if st.bid == 0 else "pass"
        if st.phase is Phase.TRUMP:
            return "trump S"
        if st.phase is Phase.SINGLE_HAND:
            return "single_hand"
        return "pass" if st.phase is not Phase.PLAY else None

    return play_until("standard", choose, lambda st: st.caller >= 0 and len(st.trick) == 1)


async def test_engine_views_drawn_by_the_client(web_live: LiveServer, chromium: Browser) -> None:
    page = await chromium.page(web_live.url)
    await page.goto("/#/rules")
    await page.locator("h1").wait_for()

    async def draw(ctx: dict[str, Any], live: bool = True) -> None:
        await page.evaluate(DRAW, {"ctx": ctx, "live": live})

    # the seventh-card Redouble: the bidder sees the first four cards and the 7th only
    st = seventh_redouble()
    bidder = st.bidder
    v = view(st, bidder).to_json()
    assert len(v["hands"][bidder]) == 4 and v["indicator"]
    await draw(context(v, bidder))
    hand = page.locator(".hand")
    assert await hand.locator(":scope > .card.face").count() == 4
    assert await hand.locator(":scope > .card.back").count() == v["hand_sizes"][bidder] - 4
    assert await page.locator(f".seventh-note .card[data-card='{v['indicator']}']").count() == 1
    acts = await page.locator(".actions button[data-act]").evaluate_all(
        "bs => bs.map(b => b.dataset.act)"
    )
    assert sorted(acts) == sorted(a["act"] for a in v["legal_json"]) and "redouble" in acts
    await shot(page, "render-seventh-redouble")

    # pagat: the bidder lays one of the first four cards face down as the trump card
    st = hand_card_trump()
    v = view(st, st.bidder).to_json()
    await draw(context(v, st.bidder))
    choosable = page.locator(".hand button.card[data-legal=true]")
    cards = [a["card"] for a in v["legal_json"] if a.get("card")]
    assert await choosable.count() == len(cards) == 4
    await choosable.first.click()
    acted = await page.evaluate("window.acted")
    assert acted["act"] == "trump" and acted["card"] in cards
    assert "face down" in await page.locator(".actions .prompt").inner_text()

    # Single Hand: after the caller's first card, the partner's hand can be looked at
    st = single_hand_played()
    caller, partner = st.caller, (st.caller + 2) % 4
    v = view(st, caller).to_json()
    assert v["hands"][partner] is not None
    await draw(context(v, caller))
    assert await page.locator(f".seat[data-seat='{partner}'] .badge.out").count() == 1
    # before, the button shows the partner's cards face down in one row
    tops = await page.locator(".peek .card").evaluate_all(
        "cards => cards.map(c => Math.round(c.getBoundingClientRect().top))"
    )
    assert len(tops) == len(v["hands"][partner]) and len(set(tops)) == 1, tops
    await shot(page, "render-single-hand-peek")
    await page.get_by_role("button", name="Look at your partner's cards").click()
    assert await page.locator(f".seat[data-seat='{partner}'] .seat-hand.open .card").count() == len(
        v["hands"][partner]
    )
    await shot(page, "render-single-hand-partner")

    # a spectator: the host's hand shown, a button per other seat, no actions
    v = spectator_view(st, [0]).to_json()
    await draw(context(v, None))
    assert await page.locator(".toggle-hand").count() == 3
    await page.get_by_role("button", name="Show North's hand").click()
    assert await page.evaluate("window.toggled") == 2
    assert await page.locator(".actions button[data-act]").count() == 0

    # the score as sixes: a red six for +2, a black six for -4, with the sets
    ctx = context(
        v,
        0,
        game={
            "scores": [2, -4],
            "red_sets": [1, 0],
            "black_sets": [0, 1],
            "rounds_won": [0, 0],
            "over": False,
            "winner": None,
        },
    )
    await draw(ctx)
    us, them = (
        page.locator(".team-score[data-team='0']"),
        page.locator(".team-score[data-team='1']"),
    )
    assert await us.locator(".card-svg.six.red use:not(.covered)").count() == 2
    assert await them.locator(".card-svg.six.black use:not(.covered)").count() == 4
    assert "+2" in await us.inner_text() and "-4" in await them.inner_text()

    # an invalid round: the reason, every hand face up
    def four_jacks(st: RoundState) -> bool:
        return st.reason == "four_jacks"

    st = play_until("standard", lambda s: "bid 16" if s.bid == 0 else "pass", four_jacks)
    v = view(st, 0).to_json()
    await draw(context(v, 0))
    result = page.locator("[data-testid=result]")
    assert await result.get_attribute("data-outcome") == "invalid"
    assert "all four Jacks in one hand" in await result.inner_text()
    await shot(page, "render-invalid-four-jacks")
    chromium.assert_clean()


async def test_counts_take_their_plural(web_live: LiveServer, chromium: Browser) -> None:
    """ "1 trick", "2 tricks", "0 points": the words that follow a count agree with it."""
    page = await chromium.page(web_live.url)
    await page.goto("/#/rules")
    await page.locator("h1").wait_for()
    said = await page.evaluate(
        """async () => {
          const { t } = await import('/static/js/i18n.js');
          return [[1, 1], [0, 2], [2, 1], [1, 0]].map(
            ([points, tricks]) => t('points_tricks', { points, tricks }));
        }"""
    )
    assert said == [
        "1 point, 1 trick",
        "0 points, 2 tricks",
        "2 points, 1 trick",
        "1 point, 0 tricks",
    ]
    # a placeholder without the count it needs is left as it is, not guessed
    assert (
        await page.evaluate(
            "import('/static/js/i18n.js').then(m => m.t('points_tricks', { points: 3 }))"
        )
        == "3 points, {tricks} {tricks:trick|tricks}"
    )
    chromium.assert_clean()


def hearts_played_until(done: Callable[[RoundState], bool]) -> RoundState:
    """A standard deal: the first bidder plays 16 with hearts, nobody doubles, until ``done``."""

    def choose(st: RoundState) -> str | None:
        if st.phase is Phase.AUCTION:
            return "bid 16" if st.bid == 0 else "pass"
        if st.phase is Phase.TRUMP:
            return "trump H"
        return "pass" if st.phase is not Phase.PLAY else None

    return play_until("standard", choose, done)


async def phone_drawing(
    web_live: LiveServer, chromium: Browser, st: RoundState, seat: int = 0
) -> Any:
    """A 390 x 844 phone page showing ``seat``'s view of ``st``, the cards where they land."""
    page = await chromium.page(
        web_live.url, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    await page.goto("/#/rules")
    await page.locator("h1").wait_for()
    await page.emulate_media(reduced_motion="reduce")
    await page.evaluate(DRAW, {"ctx": context(view(st, seat).to_json(), seat), "live": True})
    return page


async def test_phone_table_keeps_every_hand_on_the_felt(
    web_live: LiveServer, chromium: Browser
) -> None:
    """On a phone, eight cards face down on each side stay inside the table."""
    st = hearts_played_until(lambda s: s.phase is Phase.PLAY and not s.trick and not s.tricks)
    assert all(size == 8 for size in view(st, 0).to_json()["hand_sizes"])
    page = await phone_drawing(web_live, chromium, st)
    felt = await page.locator(".felt").bounding_box()
    assert felt
    for seat in ("left", "top", "right"):
        parts = await page.locator(f".seat-{seat} .seat-hand > *").evaluate_all(
            "els => els.map(e => { const r = e.getBoundingClientRect();"
            " return [r.left, r.right]; })"
        )
        assert len(parts) == 9, seat  # eight backs and the count
        left, right = min(p[0] for p in parts), max(p[1] for p in parts)
        inside = felt["x"] < left and right < felt["x"] + felt["width"]
        assert inside, f"the {seat} hand ({left}..{right}) leaves the table {felt}"
    await shot(page, "phone-eight-cards")
    chromium.assert_clean()


async def test_phone_trick_cards_leave_each_other_in_sight(
    web_live: LiveServer, chromium: Browser
) -> None:
    """On a phone the card played from the top seat does not cover the bottom card's index."""
    st = hearts_played_until(lambda s: s.phase is Phase.PLAY and len(s.trick) == 3)
    page = await phone_drawing(web_live, chromium, st)
    top = await page.locator(".trick .from-top .card").bounding_box()
    bottom = await page.locator(".trick .from-bottom .card").bounding_box()
    assert top and bottom
    # the top card may reach over the bottom one by at most a tenth of its height
    overlap = top["y"] + top["height"] - bottom["y"]
    assert overlap <= bottom["height"] * 0.1, (top, bottom)
    chromium.assert_clean()
