"""Refusals a person meets on the site's pages carry their reason's code (``X-Error-Reason``),
so that a Bengali, Hindi or Nepali page shows them in its own words (``refusalText``); the
words themselves stay English for tools and logs."""

from __future__ import annotations

import httpx2
from fastapi import FastAPI

from twentynine.server.refusals import REASON_HEADER

from .conftest import Client, sign_in


async def _refused(response: httpx2.Response, status: int, reason: str) -> None:
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

    await _refused(await bo.delete(f"/api/friends/{ada_id}"), 404, "not_friends")
    await _refused(await bo.delete(f"/api/friends/requests/{ada_id}"), 404, "no_request_sent")

    # a form's mistakes, refused by the body's own checks (a 422), name theirs too
    link = {"players": [ada_id, 998, 999], "conference_url": "http://meet.example.com/a"}
    await _refused(await bo.post("/api/tables/hosted", json=link), 422, "https_link")
    await _refused(await bo.patch("/api/me", json={"first_name": "  "}), 422, "name_blank")
    assert (await bo.get("/api/me")).json()["first_name"] == "Bo"  # nothing changed
    rated = {"kind": "private", "rated": True}
    await _refused(await bo.post("/api/tables", json=rated), 422, "rated_seats")
    # pydantic's own checks (a wrong type, a field too long) have no reason: a page's fields
    # already keep to them, and their words name the field
    r = await bo.patch("/api/me", json={"first_name": "x" * 61})
    assert r.status_code == 422 and REASON_HEADER not in r.headers

    assert (await anon.post("/api/auth/guest", json={"first_name": "Gus"})).status_code == 200
    await _refused(await anon.post("/api/tables/quick-join"), 403, "guest_forbidden")
