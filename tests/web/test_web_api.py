"""The client's files and its presentation endpoints (web/api.py), over HTTP without a browser:
the page and its headers, gzipped modules, the session, the bot levels, the rules data from
the engine, and the replay of a stored deal (with and without the solver)."""

from __future__ import annotations

import re
import sys

import pytest
from fastapi import FastAPI

from twentynine.bots import LEVELS
from twentynine.engine.rules import PRESETS, Rules, option_names
from twentynine.server.history.models import DealHistory, DealPlayer
from twentynine.web.api import best_level

from ..server.conftest import client_for, sign_in
from .tutorial import STATIC, tutorial_deal

ACTION_FIELDS = ("seat", "act", "value", "suit", "card")


async def test_the_page_and_its_files(web_app: FastAPI) -> None:
    async with client_for(web_app) as c:
        page = await c.get("/")
        assert page.status_code == 200
        assert '<script type="module" src="/static/js/main.js">' in page.text
        assert "script-src 'self'" in page.headers["content-security-policy"]
        assert page.headers["cache-control"] == "no-cache"
        js = await c.get("/static/js/table/render.js", headers={"Accept-Encoding": "gzip"})
        assert js.status_code == 200
        assert js.headers["content-encoding"] == "gzip"
        assert "javascript" in js.headers["content-type"]
        assert js.headers["cache-control"] == "no-cache"
        again = await c.get(
            "/static/app.css",
            headers={"If-None-Match": (await c.get("/static/app.css")).headers["etag"]},
        )
        assert again.status_code == 304
        assert (await c.get("/favicon.ico")).headers["content-type"].startswith("image/svg")
        assert (await c.get("/static/nothing.js")).status_code == 404


def test_no_third_party_code_and_no_build_step() -> None:
    files = [p for p in STATIC.rglob("*") if p.is_file()]
    assert {p.suffix for p in files} <= {".html", ".css", ".js", ".svg"}
    for path in files:
        text = path.read_text(encoding="utf-8")
        urls = re.findall(r"https?://[a-z0-9-]+\.[a-z0-9.-]+", text)
        assert set(urls) <= {"http://www.w3.org"}, path  # nothing fetched from elsewhere
        assert "sourceMappingURL" not in text, path


async def test_session_bots_and_rules(web_app: FastAPI) -> None:
    async with client_for(web_app) as anon:
        assert (await anon.get("/api/web/session")).json() == {"user": None}
        bots = (await anon.get("/api/web/bots")).json()
        assert bots["levels"] == list(LEVELS)
        assert bots["best"] == best_level(list(LEVELS))
        rules = (await anon.get("/api/web/rules")).json()
        text = (await anon.get("/api/web/rules-text")).json()["markdown"]
    assert best_level(["random", "beginner", "expert"]) == "expert"
    assert best_level(["random", "someday"]) == "random"
    assert [o["name"] for o in rules["options"]] == list(option_names())
    kinds = {o["name"]: o["kind"] for o in rules["options"]}
    assert kinds["min_bid"] == "int" and kinds["seventh_card"] == "bool"
    assert kinds["auction"] == "choice"
    assert [p["name"] for p in rules["presets"]] == list(PRESETS)
    for p in rules["presets"]:
        assert p["options"] == PRESETS[p["name"]].rules.as_dict()
        assert p["differs"] == sorted(PRESETS[p["name"]].rules.overrides(Rules()))
    assert text and "Twenty-Nine" in text
    member = await sign_in(web_app, "asha@example.com", "Asha")
    me = (await member.get("/api/web/session")).json()["user"]
    await member.aclose()
    assert me["first_name"] == "Asha" and me["is_guest"] is False


async def store_tutorial_deal(app: FastAPI, user_id: int) -> int:
    deal = tutorial_deal()
    record = {
        "format": "twentynine-deal/1",
        "rules": {"preset": deal["preset"], "options": {}},
        "dealer": deal["dealer"],
        "deck": deal["deck"],
        "actions": [
            {k: s[k] for k in ACTION_FIELDS if k in s} for s in deal["steps"] if "act" in s
        ],
    }
    async with app.state.sessionmaker() as db:
        row = DealHistory(
            table_id="tutorial",
            game_no=1,
            deal_no=1,
            record=record,
            outcome="won",
            bidder_team=0,
            contract="regular",
            score_delta=[1, 0],
            seat_users=[user_id, None, None, None],
            sets_won=[0, 0],
        )
        db.add(row)
        await db.flush()
        db.add(DealPlayer(deal_id=row.id, user_id=user_id, seat=0))
        await db.commit()
        return row.id


async def test_replay_of_a_stored_deal(web_app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> None:
    owner = await sign_in(web_app, "ravi@example.com", "Ravi")
    stranger = await sign_in(web_app, "mina@example.com", "Mina")
    try:
        owner_id = (await owner.get("/api/me")).json()["id"]
        deal_id = await store_tutorial_deal(web_app, owner_id)
        r = await owner.get(f"/api/web/replay/{deal_id}")
        assert r.status_code == 200, r.text
        data = r.json()
        assert (await stranger.get(f"/api/web/replay/{deal_id}")).status_code == 404
        assert (await owner.get("/api/web/replay/999999")).status_code == 404

        actions = data["record"]["actions"]
        steps = data["steps"]
        assert len(steps) == len(actions) + 1 and steps[0]["action"] is None
        assert [s["action"] for s in steps[1:]] == actions
        # every hand is shown as it is, the eight cards each at the start
        assert [len(h) for h in steps[0]["view"]["hands"]] == [4, 4, 4, 4]
        assert all(len(h) == 8 for h in steps[15]["view"]["hands"])  # the play begins
        last = steps[-1]["view"]
        assert (last["phase"], last["outcome"], last["points"]) == ("over", "won", [23, 5])
        assert data["seat"] == 0 and data["direction"] == "counter_clockwise"
        assert data["names"] == ["Ravi", None, None, None]
        assert data["bots"] == [False, True, True, True]

        if data["analysis_available"]:
            verdicts = (await owner.get(f"/api/web/replay/{deal_id}/analysis")).json()["analysis"]
            plays = [i for i, a in enumerate(actions) if a["act"] in ("play", "reveal")]
            assert [v["index"] for v in verdicts] == plays
            assert all(v["cost"] >= 0 for v in verdicts)
        # without the solver installed the replay still works and says so
        monkeypatch.setitem(sys.modules, "twentynine.analyse", None)
        assert (await owner.get(f"/api/web/replay/{deal_id}")).json()["analysis_available"] is False
        assert (await owner.get(f"/api/web/replay/{deal_id}/analysis")).json() == {"analysis": None}
    finally:
        await owner.aclose()
        await stranger.aclose()


async def test_static_paths_stay_inside_the_client(web_app: FastAPI) -> None:
    async with client_for(web_app) as c:
        for path in (
            "/static/../api/web/api.py",
            "/static/%2e%2e/__init__.py",
            "/static/js/%00.js",
            "/static/.hidden",
            "/static/" + "a" * 5000,
            "/static/js",
        ):
            r = await c.get(path)
            assert r.status_code == 404, path


async def test_replay_ids_out_of_range_are_not_found(web_app: FastAPI) -> None:
    client = await sign_in(web_app, "ravi@example.com", "Ravi")
    try:
        for deal_id in ("0", "-3", "1000000000000000000000000000000", "x"):
            r = await client.get(f"/api/web/replay/{deal_id}")
            assert r.status_code == 422, (deal_id, r.text)
            r = await client.get(f"/api/web/replay/{deal_id}/analysis")
            assert r.status_code == 422, (deal_id, r.text)
    finally:
        await client.aclose()
