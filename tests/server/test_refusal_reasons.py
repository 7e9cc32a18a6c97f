"""Refusals a person meets on the site's pages carry their reason's code (``X-Error-Reason``),
so that a Bengali, Hindi or Nepali page shows them in its own words (``refusalText``); the
words themselves stay English for tools and logs."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from twentynine.server.refusals import REASON_HEADER

from .conftest import Client, sign_in


async def _refused(response: httpx.Response, status: int, reason: str) -> None:
    assert response.status_code == status, response.text
    assert response.headers[REASON_HEADER] == reason
    assert response.json()["detail"]


async def test_each_refusal_names_its_reason(app: FastAPI, anon: Client) -> None:
    await _refused(await anon.get("/api/history/deals"), 401, "sign_in_first")

    ada = await sign_in(app, "ada@example.com", "Ada")  # the first account: an admin
    bo = await sign_in(app, "bo@example.com", "Bo")
    ada_id = (await ada.get("/api/me")).json()["id"]

    await _refused(await bo.get("/api/admin/users"), 403, "forbidden")
    await _refused(await bo.post("/api/tables/nosuch/join", json={}), 404, "no_table")
    await _refused(await bo.get("/api/history/deals/999999"), 404, "no_deal")
    await _refused(await bo.get(f"/api/stats/{ada_id}"), 404, "stats_friends_only")
    await _refused(await bo.get("/api/ratings/999999"), 404, "no_account")
    # the only admin cannot leave; the account is still there after
    await _refused(await ada.post("/api/me/delete", json={"confirm": True}), 409, "only_admin")
    assert (await ada.get("/api/me")).json()["id"] == ada_id

    assert (await anon.post("/api/auth/guest", json={"first_name": "Gus"})).status_code == 200
    await _refused(await anon.post("/api/tables/quick-join"), 403, "guest_forbidden")
