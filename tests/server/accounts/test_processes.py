"""Accounts across two server processes on PostgreSQL + Redis: a tier request made through one
process reaches an admin's page open on the other within a second, the grant reaches the
asker's page the same way, and deleting the account ends a live page open on the other
process."""

from __future__ import annotations

import time

from twentynine.server.live.hub import LiveHub

from ..live.meclient import MeSocket
from ..live.test_processes import two_processes  # noqa: F401 (the fixture)
from ..test_crash import Remote


async def test_tier_request_grant_and_delete_across_two_processes(
    two_processes: tuple[Remote, Remote],  # noqa: F811
) -> None:
    one, two = two_processes
    ada = await one.sign_in("ada@example.com", "Ada")  # the first account: the admin
    bea = await two.sign_in("bea@example.com", "Bea")
    ada_page = await MeSocket(two, ada).connect()  # Ada's page is on process two
    bea_page = await MeSocket(one, bea).connect()  # Bea's on process one

    t0 = time.monotonic()
    r = await bea.post("/api/tier-requests", json={"note": "Friday game"})  # through two
    assert r.status_code == 201, r.text
    asked = await ada_page.next("tier_request", timeout=1)
    assert (asked["name"], asked["status"]) == ("Bea", "pending")
    assert time.monotonic() - t0 < 1

    t0 = time.monotonic()
    r = await ada.post(f"/api/admin/tier-requests/{asked['request_id']}/grant")  # through one
    assert r.status_code == 200, r.text
    granted = await bea_page.next("tier_request", timeout=1)
    changed = await bea_page.next("account_changed", timeout=1)
    assert granted["status"] == "granted" and changed["tier"] == "standard"
    assert time.monotonic() - t0 < 1

    r = await bea.post("/api/me/delete", json={"confirm": True})  # through two
    assert r.status_code == 200, r.text
    told = await bea_page.next("signed_out", timeout=1)  # on one
    assert told["reason"] == "deleted"
    if hasattr(LiveHub, "close_pages"):  # the live package's, landing on main
        assert await bea_page.closed_with(2) == 4401
