"""Changing your profile: a name is not blank, and your other open pages (another device) are
told, as they are when an admin changes your tier."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import FastAPI

from ..conftest import sign_in


async def test_a_name_of_spaces_is_refused(app: FastAPI) -> None:
    ana = await sign_in(app, "ana@example.com", "Ana")
    for blank in ("", "   ", "\u3000"):
        r = await ana.patch("/api/me", json={"first_name": blank})
        assert r.status_code == 422, (blank, r.text)
    assert (await ana.get("/api/me")).json()["first_name"] == "Ana"
    r = await ana.patch("/api/me", json={"first_name": "  Anita "})
    assert r.status_code == 200 and r.json()["first_name"] == "Anita"


async def test_your_other_pages_hear_of_a_profile_change(app: FastAPI) -> None:
    ana = await sign_in(app, "ana@example.com", "Ana")
    me = (await ana.get("/api/me")).json()["id"]
    pages = app.state.live.subscribe(me)
    r = await ana.patch("/api/me", json={"first_name": "Anita", "table_theme": "blue"})
    assert r.status_code == 200, r.text
    heard: dict[str, Any] = await asyncio.wait_for(pages.get(), 5)
    assert heard["type"] == "account_changed" and heard["user_id"] == me
