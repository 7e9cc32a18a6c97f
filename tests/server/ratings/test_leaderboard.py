"""The leaderboard (issue 17): players with at least ten rated games, one of them in the last
90 days, highest rating first, the top 100, and the caller's own rank."""

from __future__ import annotations

import datetime as dt

from fastapi import FastAPI

from twentynine.server.accounts.models import User
from twentynine.server.db import utcnow
from twentynine.server.ratings.models import PlayerRating

from ..conftest import sign_in


async def seed(app: FastAPI, rows: list[tuple[str, float, int, int]]) -> dict[str, int]:
    """Players (name, rating, games, days since their last game); their ids by name."""
    ids: dict[str, int] = {}
    async with app.state.sessionmaker() as db:
        for name, rating, games, days in rows:
            user = User(email=f"{name.lower()}@example.com", first_name=name)
            db.add(user)
            await db.flush()
            ids[name] = user.id
            db.add(
                PlayerRating(
                    user_id=user.id,
                    mu=25.0,
                    sigma=2.0,
                    rating=rating,
                    games=games,
                    last_game_at=utcnow() - dt.timedelta(days=days),
                )
            )
        await db.commit()
    return ids


async def test_only_players_with_ten_games_and_one_in_ninety_days_are_ranked(app: FastAPI) -> None:
    me = await sign_in(app, "me@example.com", "Me")
    ids = await seed(
        app,
        [
            ("Ten", 1200, 10, 1),  # exactly ten games: in
            ("Nine", 1500, 9, 1),  # nine games: out, however high
            ("Stale", 1400, 40, 91),  # last game 91 days ago: out
            ("Recent", 1100, 12, 89),  # 89 days ago: in
            ("Top", 1300, 30, 0),
            ("Tie", 1100, 20, 3),  # level with Recent: the same rank
        ],
    )
    r = await me.get("/api/leaderboard")
    assert r.status_code == 200, r.text
    board = r.json()
    assert [(p["name"], p["rank"], p["rating"]) for p in board["players"]] == [
        ("Top", 1, 1300),
        ("Ten", 2, 1200),
        ("Tie", 3, 1100),
        ("Recent", 3, 1100),
    ]
    assert board["min_games"] == 10 and board["days"] == 90
    you = board["you"]  # no rated game yet: no rank, a new player's rating
    assert you["rank"] is None and you["games"] == 0 and you["rating"] == 1000

    # disabling an account takes it off
    async with app.state.sessionmaker() as db:
        top = await db.get(User, ids["Top"])
        assert top is not None
        top.disabled = True
        await db.commit()
    names = [p["name"] for p in (await me.get("/api/leaderboard")).json()["players"]]
    assert names == ["Ten", "Tie", "Recent"]


async def test_the_top_hundred_and_your_own_rank_below_them(app: FastAPI) -> None:
    me = await sign_in(app, "me@example.com", "Me")
    my_id = (await me.get("/api/me")).json()["id"]
    await seed(app, [(f"P{i:03d}", 2000 - i, 15, 2) for i in range(105)])
    async with app.state.sessionmaker() as db:
        db.add(
            PlayerRating(
                user_id=my_id,
                mu=25.0,
                sigma=2.0,
                rating=2000 - 102.5,  # between the 103rd and the 104th
                games=10,
                last_game_at=utcnow(),
            )
        )
        await db.commit()
    board = (await me.get("/api/leaderboard")).json()
    assert len(board["players"]) == 100
    assert board["players"][0]["name"] == "P000" and board["players"][-1]["name"] == "P099"
    assert [p["rank"] for p in board["players"]] == list(range(1, 101))
    assert my_id not in {p["user_id"] for p in board["players"]}
    assert board["you"]["rank"] == 104 and board["you"]["user_id"] == my_id
    assert board["you"]["provisional"] is False
