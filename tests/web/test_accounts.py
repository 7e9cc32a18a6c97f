"""Accounts in the browser: a basic account asks for a standard one from the Host tab and an
admin grants it on the admin page; the admin page for admins only; inviting by mail a friend
who has no account; the privacy page; changing your name, downloading your data and deleting
your account from the profile."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

from ..server.conftest import LiveServer, last_code
from .conftest import Browser, shot, sign_in_ui


async def test_from_the_host_tab_to_an_admin_granting(
    web_live: LiveServer, chromium: Browser
) -> None:
    ada = await chromium.page(web_live.url)  # the first account: the admin
    await sign_in_ui(ada, web_live, "ada@example.com", "Ada")
    bea = await chromium.page(web_live.url)
    await sign_in_ui(bea, web_live, "bea@example.com", "Bea")

    # Bea, basic, finds the way out on the Host tab
    await bea.goto("/#/dashboard/host")
    await bea.get_by_text("Hosting needs a standard account").wait_for()
    await bea.get_by_label("A note for the administrators (optional)").fill(
        "I host our Friday game"
    )
    await bea.get_by_role("button", name="Request a Standard account").click()
    waiting = bea.locator("[data-tier-request=pending]")
    await waiting.wait_for()
    await shot(bea, "host-tab-tier-request-waiting")
    assert await bea.get_by_role("link", name="Admin").count() == 0  # no admin link for Bea

    # Ada finds it on the admin page, linked from the header
    await ada.goto("/#/dashboard")
    await ada.locator("#nav").get_by_role("link", name="Admin").click()
    await ada.wait_for_url(re.compile(r"#/admin"))
    request = ada.locator("[data-section=requests] li", has_text="Bea")
    await request.wait_for()
    assert "I host our Friday game" in await request.inner_text()
    await shot(ada, "admin-page", full_page=True)
    await request.get_by_role("button", name="Grant Bea's request").click()
    await ada.get_by_text("No requests wait for an answer.").wait_for()
    # the accounts section shows it afresh (after the grant, by itself: no reload)
    tier = ada.locator("[data-section=accounts] tr", has_text="bea@example.com").get_by_label(
        "Account type of Bea"
    )
    for _ in range(50):
        if await tier.input_value() == "standard":
            break
        await asyncio.sleep(0.1)
    assert await tier.input_value() == "standard"

    # Bea's Host tab now leads on to hosting (three friends are what she needs next)
    await bea.goto("/#/dashboard/join")
    await bea.goto("/#/dashboard/host")
    await bea.get_by_text("To host, you need at least three friends.").wait_for()
    chromium.assert_clean()


async def test_the_admin_page_acts_for_admins_only(web_live: LiveServer, chromium: Browser) -> None:
    ada = await chromium.page(web_live.url)
    await sign_in_ui(ada, web_live, "ada@example.com", "Ada")
    bea = await chromium.page(web_live.url)
    await sign_in_ui(bea, web_live, "bea@example.com", "Bea")
    await bea.goto("/#/admin")
    await bea.get_by_text("This page is for administrators.").wait_for()

    await ada.goto("/#/admin")
    accounts = ada.locator("[data-section=accounts]")
    await accounts.locator("tbody tr", has_text="ada@example.com").wait_for()  # the whole list
    await accounts.get_by_role("searchbox", name="Search by email or name").fill("bea")
    await accounts.get_by_role("button", name="Search").click()
    await accounts.locator("tbody tr", has_text="ada@example.com").wait_for(state="detached")
    assert await accounts.locator("tbody tr").count() == 1
    await accounts.get_by_role("button", name="Disable Bea").click()
    await accounts.get_by_role("button", name="Enable Bea").wait_for()
    # Bea's session ended: her next page load finds her signed out
    await bea.reload()
    await bea.goto("/#/profile")
    await bea.get_by_text("Sign in, or play as a guest, to have a profile.").wait_for()
    await accounts.get_by_role("button", name="Enable Bea").click()
    await accounts.get_by_role("button", name="Make Bea an administrator").click()
    await (
        accounts.locator("tbody tr", has_text="bea@example.com")
        .get_by_text("Administrator")
        .wait_for()
    )

    # an open table (Bea's), closed from the admin page
    table = await bea_table(bea, web_live)
    await ada.goto("/#/lobby")
    await ada.goto("/#/admin")
    tables = ada.locator("[data-section=tables]")
    ada.on("dialog", lambda dialog: dialog.accept())
    await tables.get_by_role("button", name=f"Close table {table}").click()
    await tables.get_by_text("No table is open.").wait_for()
    chromium.assert_clean()


async def bea_table(bea: Any, live: LiveServer) -> str:
    """Bea signs in again and opens a private table from her page; its id."""
    await sign_in_ui(bea, live, "bea@example.com", "Bea")
    made = await bea.evaluate(
        "import('/static/js/api.js').then(m => m.post('/api/tables', {kind: 'private'}))"
    )
    return str(made["id"])


async def test_inviting_a_friend_who_has_no_account(
    web_live: LiveServer, chromium: Browser
) -> None:
    ada = await chromium.page(web_live.url)
    await sign_in_ui(ada, web_live, "ada@example.com", "Ada")
    await ada.goto("/#/dashboard/friends")
    await ada.get_by_label("Friend's email").fill("nia@example.com")
    await ada.get_by_role("button", name="Add friend").click()
    offer = ada.locator(".invitation-offer")
    await offer.get_by_text("No account has the address nia@example.com").wait_for()
    # the request's answer, 404 "no account with that email", is what led to the offer
    assert [e for e in chromium.errors if "404" in e] == chromium.errors != []
    chromium.errors.clear()
    await shot(ada, "friends-invitation-offer")
    await offer.get_by_role("button", name="Send an invitation").click()
    invited = ada.locator("[data-invitation]", has_text="nia@example.com")
    await invited.wait_for()
    mails = (await web_live.client().get("/dev/outbox")).json()
    assert any(m["to"] == "nia@example.com" and "Ada invites you" in m["subject"] for m in mails)

    # Nia signs up with the address: Ada's request waits for her
    nia = await chromium.page(web_live.url)
    await sign_in_ui(nia, web_live, "nia@example.com", "Nia")
    await nia.goto("/#/dashboard/friends")
    await nia.get_by_role("button", name="Accept Ada").click()
    await nia.get_by_role("button", name="Remove Ada").wait_for()
    await ada.goto("/#/dashboard/join")
    await ada.goto("/#/dashboard/friends")
    await ada.get_by_role("button", name="Remove Nia").wait_for()
    assert await ada.locator("[data-invitation]").count() == 0
    chromium.assert_clean()


async def test_your_data_in_the_profile(web_live: LiveServer, chromium: Browser) -> None:
    ada = await chromium.page(web_live.url)
    await sign_in_ui(ada, web_live, "ada@example.com", "Ada")
    bea = await chromium.page(web_live.url)
    await sign_in_ui(bea, web_live, "bea@example.com", "Bea")
    await bea.goto("/#/profile")

    # change your name
    await bea.get_by_label("First name").fill("Beatrix")
    await bea.get_by_role("button", name="Save").click()
    await bea.locator("nav a.who").get_by_text("Beatrix", exact=True).wait_for()

    # the privacy page, from the profile
    await bea.get_by_role("link", name="Privacy: what we keep").click()
    await bea.wait_for_url(re.compile(r"#/privacy"))
    await bea.get_by_role("heading", name="Deleting your account").wait_for()
    await shot(bea, "privacy-page", full_page=True)
    await bea.get_by_role("link", name="Go to your profile").click()

    # download your data
    async with bea.expect_download() as info:
        await bea.get_by_role("link", name="Download your data").click()
    download: Any = await info.value
    data = json.loads(Path(await download.path()).read_text(encoding="utf-8"))
    assert data["account"]["first_name"] == "Beatrix"
    assert data["account"]["email"] == "bea@example.com"

    # delete your account
    await bea.get_by_role("button", name="Delete your account").click()
    await bea.get_by_label("Yes, delete my account").check()
    await shot(bea, "profile-delete-account")
    await bea.get_by_role("button", name="Delete my account now").click()
    await bea.get_by_text("Your account is deleted.").wait_for()
    await bea.locator("#nav").get_by_role("link", name="Sign in").wait_for()
    await bea.reload()
    await bea.locator("#nav").get_by_role("link", name="Sign in").wait_for()
    users = await (await ada.request.get("/api/admin/users?q=bea")).json()
    assert users["accounts"] == []
    chromium.assert_clean()


async def test_the_request_and_its_grant_change_open_pages_live(
    web_live: LiveServer, chromium: Browser
) -> None:
    """With the admin page open, Bea's request appears on it by itself; with Bea's Host tab
    open, the grant turns it into the way to host by itself (no reload, no click)."""
    ada = await chromium.page(web_live.url)
    await sign_in_ui(ada, web_live, "ada@example.com", "Ada")
    bea = await chromium.page(web_live.url)
    await sign_in_ui(bea, web_live, "bea@example.com", "Bea")
    await ada.goto("/#/admin")
    await ada.get_by_text("No requests wait for an answer.").wait_for()

    await bea.goto("/#/dashboard/host")
    await bea.get_by_role("button", name="Request a Standard account").click()
    await bea.locator("[data-tier-request=pending]").wait_for()
    request = ada.locator("[data-section=requests] li", has_text="Bea")
    await request.wait_for(timeout=2000)  # live: Ada's page did nothing

    await request.get_by_role("button", name="Grant Bea's request").click()
    await bea.get_by_text("Your account is standard now: you can host games.").wait_for(
        timeout=2000
    )
    await bea.get_by_text("To host, you need at least three friends.").wait_for(timeout=2000)
    assert "#/dashboard/host" in bea.url
    chromium.assert_clean()


async def test_a_disabled_account_is_signed_out_at_once(
    web_live: LiveServer, chromium: Browser
) -> None:
    ada = await chromium.page(web_live.url)
    await sign_in_ui(ada, web_live, "ada@example.com", "Ada")
    bea = await chromium.page(web_live.url)
    await sign_in_ui(bea, web_live, "bea@example.com", "Bea")
    await bea.goto("/#/dashboard/friends")
    await ada.goto("/#/admin")
    await ada.get_by_role("button", name="Disable Bea").click()
    await bea.get_by_text("You have been signed out.").wait_for(timeout=2000)
    await bea.locator("#nav").get_by_role("link", name="Sign in").wait_for(timeout=2000)
    chromium.assert_clean()


async def test_sign_in_and_friends_refusals_are_in_the_page_language(
    web_live: LiveServer, chromium: Browser
) -> None:
    """A Bengali visitor who types a wrong code is told so in Bengali; signed in, asking their
    own email as a friend is refused in Bengali too (both were the server's English), and so
    is a blank name (refused by the request body's own checks)."""
    page = await chromium.page(web_live.url)
    await page.goto("/#/signin")
    await page.locator("#lang").select_option("bn")
    await page.locator("html[lang=bn]").wait_for()
    strings = await page.evaluate("import('/static/js/strings/bn.js').then(m => m.default)")
    await page.locator("input[name=email]").fill("mitu@example.com")
    await page.locator("input[name=first_name]").fill("Mitu")
    await page.get_by_role("button", name=strings["send_code"]).click()
    code = page.locator("input[name=code]")
    await code.wait_for()
    real, _ = last_code(web_live.app, "mitu@example.com")
    await code.fill("000000" if real != "000000" else "111111")
    await page.get_by_role("button", name=strings["sign_in"], exact=True).click()
    await page.locator(".toast.error", has_text=strings["err_wrong_code"]).wait_for()
    await code.fill(real)
    await page.get_by_role("button", name=strings["sign_in"], exact=True).click()
    await page.wait_for_url(re.compile(r"#/dashboard"))
    refused = await page.evaluate(
        """() => import('/static/js/api.js').then((api) =>
          api.post('/api/friends/requests', {email: 'mitu@example.com'}).then(() => null,
            (e) => ({message: e.message, reason: e.reason})))"""
    )
    assert refused == {"message": strings["err_own_email"], "reason": "own_email"}
    # a mistake the body's own checks refuse (a 422) is in Bengali too
    refused = await page.evaluate(
        """() => import('/static/js/api.js').then((api) =>
          api.patch('/api/me', {first_name: '   '}).then(() => null,
            (e) => ({message: e.message, reason: e.reason, status: e.status})))"""
    )
    assert refused == {"message": strings["err_name_blank"], "reason": "name_blank", "status": 422}
    chromium.errors[:] = [
        e for e in chromium.errors if "status of 400" not in e and "status of 422" not in e
    ]
    chromium.assert_clean()
