"""What one person does reaches the other open pages that show it, without a reload: a new
account and a new name on an admin's list of accounts, a new name on a friend's Friends tab,
notice choices and a new name on the person's own other device."""

from __future__ import annotations

import asyncio
from typing import Any

from ..server.conftest import LiveServer
from ..server.tables.test_mends import solo_match
from ..server.tables.wsclient import TableSocket, play_until
from .conftest import Browser, sign_in_ui
from .test_live import mark_no_reload, not_reloaded
from .test_live_notices import LiveChannelHand


async def test_the_admins_list_of_accounts_follows_sign_ups_and_changes(
    web_live: LiveServer, chromium: Browser
) -> None:
    ada = await chromium.page(web_live.url)
    await sign_in_ui(ada, web_live, "ada@example.com", "Ada")  # the first account: an admin
    await ada.goto("/#/admin")
    accounts = ada.locator("[data-section=accounts]")
    await accounts.locator("tr", has_text="Ada").wait_for()
    await mark_no_reload(ada)
    cy = await web_live.sign_in("cy@example.com", "Cy")  # signs up while the list is shown
    cy_id = int((await cy.get("/api/me")).json()["id"])
    row = accounts.locator(f"tr[data-account='{cy_id}']")
    await row.get_by_text("Cy", exact=True).wait_for(timeout=3000)
    assert (await cy.patch("/api/me", json={"first_name": "Cyrus"})).status_code == 200
    await row.get_by_text("Cyrus", exact=True).wait_for(timeout=3000)
    assert await not_reloaded(ada)
    chromium.assert_clean()


async def test_a_new_name_and_notice_choices_reach_the_other_open_pages(
    web_live: LiveServer, chromium: Browser
) -> None:
    laptop = await chromium.page(web_live.url)
    phone = await chromium.page(web_live.url)  # the same person, another device
    friend = await chromium.page(web_live.url)
    await sign_in_ui(laptop, web_live, "asha@example.com", "Asha")
    await sign_in_ui(phone, web_live, "asha@example.com", "Asha")
    await sign_in_ui(friend, web_live, "bo@example.com", "Bo")
    asha = await web_live.sign_in("asha@example.com", "Asha")
    bo = await web_live.sign_in("bo@example.com", "Bo")
    asha_id = int((await asha.get("/api/me")).json()["id"])
    assert (await asha.post("/api/friends/requests", json={"email": "bo@example.com"})).is_success
    assert (await bo.post(f"/api/friends/requests/{asha_id}/accept")).is_success

    await friend.goto("/#/dashboard/friends")
    await friend.get_by_role("button", name="Remove Asha").wait_for()
    await phone.goto("/#/profile")
    sound = phone.get_by_label("Play a sound")
    await sound.wait_for()
    assert not await sound.is_checked()
    for page in (friend, phone):
        await mark_no_reload(page)

    # on the laptop: a sound for notices, then a new name
    await laptop.goto("/#/profile")
    await laptop.get_by_label("Play a sound").check()
    await phone.wait_for_function(
        "() => document.querySelector('input[name=notice_sound]').checked", timeout=3000
    )
    assert await phone.evaluate(
        "import('/static/js/live.js').then((m) => m.live.prefs.sound)"
    )  # the phone's notices follow too, not only the box
    name = laptop.get_by_label("First name")
    await name.fill("Ashalata")
    await laptop.get_by_role("button", name="Save").click()
    await friend.get_by_role("button", name="Remove Ashalata").wait_for(timeout=3000)
    await phone.wait_for_function(
        "() => document.querySelector('input[name=first_name]').value === 'Ashalata'",
        timeout=3000,
    )
    for page in (friend, phone):
        assert await not_reloaded(page)

    # typed on the phone and not saved: the laptop's next change does not draw over it
    await phone.get_by_label("First name").fill("Asha L")
    await name.fill("Asha Lata")
    await laptop.get_by_role("button", name="Save").click()
    for _ in range(50):  # until the phone's session has the laptop's change
        if await phone.evaluate(SESSION_NAME) == "Asha Lata":
            break
        await phone.wait_for_timeout(100)
    assert await phone.evaluate(SESSION_NAME) == "Asha Lata"
    assert await phone.get_by_label("First name").input_value() == "Asha L"
    chromium.assert_clean()


SESSION_NAME = "import('/static/js/session.js').then((m) => m.session.user.first_name)"


async def test_ones_invitations_and_mutes_follow_on_the_other_device(
    web_live: LiveServer, chromium: Browser
) -> None:
    """Asha invites an address and withdraws it on her laptop, then mutes and unmutes Bo on
    another device: her phone's open Friends tab and profile follow each change without a
    reload."""
    laptop = await chromium.page(web_live.url)
    phone = await chromium.page(web_live.url)
    await sign_in_ui(laptop, web_live, "asha@example.com", "Asha")
    await sign_in_ui(phone, web_live, "asha@example.com", "Asha")
    bo = await web_live.sign_in("bo@example.com", "Bo")
    bo_id = int((await bo.get("/api/me")).json()["id"])
    await phone.goto("/#/dashboard/friends")
    listed = phone.locator("section.invitations li", has_text="newcomer@example.com")
    await phone.locator("section.invitations").wait_for()
    await mark_no_reload(phone)

    await laptop.goto("/#/dashboard/friends")
    await laptop.get_by_label("Friend's email").fill("newcomer@example.com")
    await laptop.get_by_role("button", name="Add friend").click()
    await laptop.get_by_role("button", name="Send an invitation").click()
    await listed.wait_for(timeout=1000)
    # the request's answer, 404 "no account with that email", is what led to the offer
    assert [e for e in chromium.errors if "404" in e] == chromium.errors != []
    chromium.errors.clear()
    await (
        laptop.locator("section.invitations li", has_text="newcomer@example.com")
        .get_by_role("button")
        .click()
    )
    await listed.wait_for(state="detached", timeout=1000)

    await phone.goto("/#/profile")
    lists = phone.locator(".safety-lists")
    await lists.get_by_text("You have muted nobody.").wait_for()
    await mark_no_reload(phone)
    asha = await web_live.sign_in("asha@example.com", "Asha")  # (a third device)
    assert (await asha.put(f"/api/safety/mutes/{bo_id}")).status_code == 200
    await lists.get_by_role("button", name="Unmute").wait_for(timeout=1000)
    assert "Bo" in await lists.inner_text()
    assert (await asha.delete(f"/api/safety/mutes/{bo_id}")).status_code == 200
    await lists.get_by_text("You have muted nobody.").wait_for(timeout=1000)
    assert await not_reloaded(phone)
    chromium.assert_clean()


async def test_the_history_tab_and_profile_figures_follow_each_deal(
    web_live: LiveServer, chromium: Browser
) -> None:
    """Mira's History tab and her profile are open on two pages while she plays a game of
    three deals elsewhere: each deal shows on both as it ends, before the game does."""
    history = await chromium.page(web_live.url)
    await sign_in_ui(history, web_live, "mira@example.com", "Mira")
    profile = await history.context.new_page()
    await profile.goto(f"{web_live.url}/#/profile")
    games = profile.locator("[data-stat=games] strong")
    await games.wait_for()
    assert await games.inner_text() == "0"
    await history.goto("/#/dashboard/history")
    await history.get_by_text("No deals yet.").wait_for()
    for page in (history, profile):
        await mark_no_reload(page)

    rules = {"preset": "standard", "options": {"game_end": "match_rounds", "match_rounds": 3}}
    mira, table_id = await solo_match(web_live, "mira@example.com", rules)
    sock = await TableSocket(web_live, mira, table_id).connect()
    await play_until([sock], lambda: sock.seen_event("round_ended"), timeout=60)
    recorded = 0
    for _ in range(50):  # the deal is stored just after its last card's change is sent
        recorded = len((await mira.get("/api/history/deals")).json())
        if recorded:
            break
        await asyncio.sleep(0.1)
    assert recorded >= 1
    assert sock.state is not None and not sock.state["table"]["game"]["over"]
    await history.locator("tr[data-deal]").nth(recorded - 1).wait_for(timeout=1000)
    # (any deal recorded, void or not, makes the game one of hers)
    await profile.locator("[data-stat=games] strong", has_text="1").wait_for(timeout=1000)
    for page in (history, profile):
        assert await not_reloaded(page)
    await sock.close()
    chromium.assert_clean()


async def test_a_page_loaded_on_a_topic_follows_it_once_its_channel_opens(
    web_live: LiveServer, chromium: Browser
) -> None:
    """A page loaded straight onto the leaderboard or the profile starts following its topic
    before its live channel is open: the watch goes out once it opens, and again after the
    channel drops and comes back (only the lobby's, the counts' and the tables' did)."""
    page = await chromium.page(web_live.url)
    channel = await LiveChannelHand.on(page)
    await sign_in_ui(page, web_live, "mira@example.com", "Mira")
    watchers = web_live.app.state.live.watchers

    async def following(topic: str, not_these: frozenset[Any] = frozenset()) -> frozenset[Any]:
        """The pages following ``topic``, once one that is not ``not_these`` does."""
        for _ in range(50):
            pages = frozenset(watchers.get(topic, ()))
            if pages - not_these:
                return pages
            await asyncio.sleep(0.1)
        raise AssertionError(f"no new page follows {topic}")

    for path, topic in (("#/leaderboard", "leaderboard"), ("#/profile", "history")):
        await page.goto(f"{web_live.url}/?load={topic}{path}")  # a new page load
        before = await following(topic)
        opened = len(channel.sockets)
        await channel.sockets[-1].close(code=1011, reason="test drop")  # it reconnects by itself
        for _ in range(50):
            if len(channel.sockets) > opened:
                break
            await asyncio.sleep(0.1)
        assert len(channel.sockets) > opened
        await following(topic, not_these=before)  # the new socket's page
    chromium.assert_clean()
