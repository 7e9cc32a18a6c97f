"""Ratings in the database: rating a game once, a player's rating and history, the
leaderboard."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from ..accounts.models import User
from ..db import utc_iso, utcnow
from .calc import NEW, PROVISIONAL_GAMES, Skill, display, rate, result_of
from .models import PlayerRating, RatedGame, RatingChange

#: the leaderboard: players with this many games, one of them this recent
LEADERBOARD_GAMES = PROVISIONAL_GAMES
LEADERBOARD_DAYS = 90
LEADERBOARD_SIZE = 100
HISTORY_LIMIT = 500


async def rate_game(
    db: AsyncSession,
    table_id: str,
    game_no: int,
    seat_users: Sequence[int],
    winner: int | None,
    losers: Mapping[int, str] | None = None,
    reason: str = "finished",
) -> bool:
    """Rate a rated table's game: the four players by seat, the team that won (None: a draw),
    and the seats that lost it whatever the result with why (``left``, ``bot_kept``). False,
    changing nothing, when this game was rated already."""
    losers = dict(losers or {})
    now = utcnow()
    # the game's row first: it makes rating a game happen once (and on SQLite it takes the
    # write lock, so the ratings read below cannot change before they are written)
    db.add(RatedGame(table_id=table_id, game_no=game_no, winner=winner, reason=reason))
    try:
        await db.flush()
    except IntegrityError:
        await db.rollback()
        return False
    rows = {
        r.user_id: r
        for r in await db.scalars(
            select(PlayerRating)
            .where(PlayerRating.user_id.in_(list(seat_users)))
            .order_by(PlayerRating.user_id)
            .with_for_update()
        )
    }
    before = {
        seat: Skill(rows[uid].mu, rows[uid].sigma) if uid in rows else NEW
        for seat, uid in enumerate(seat_users)
    }
    after = rate(before, winner, frozenset(losers))
    for seat, uid in enumerate(seat_users):
        new = after[seat]
        row = rows.get(uid)
        if row is None:
            row = PlayerRating(user_id=uid, games=0)
            db.add(row)
        row.mu, row.sigma, row.rating = new.mu, new.sigma, new.rating
        row.games = (row.games or 0) + 1
        row.last_game_at = now
        db.add(
            RatingChange(
                user_id=uid,
                table_id=table_id,
                game_no=game_no,
                seat=seat,
                result=result_of(seat, winner, frozenset(losers)),
                reason=losers.get(seat, "finished"),
                mu_before=before[seat].mu,
                sigma_before=before[seat].sigma,
                mu=new.mu,
                sigma=new.sigma,
                rating=new.rating,
                at=now,
            )
        )
    await db.commit()
    return True


def rating_json(user_id: int, row: PlayerRating | None) -> dict[str, Any]:
    mu, sigma = (row.mu, row.sigma) if row else (NEW.mu, NEW.sigma)
    games = row.games if row else 0
    return {
        "user_id": user_id,
        "mu": mu,
        "sigma": sigma,
        "rating": round(display(mu, sigma)),
        "games": games,
        "provisional": games < PROVISIONAL_GAMES,
    }


def change_json(c: RatingChange) -> dict[str, Any]:
    return {
        "at": utc_iso(c.at),
        "table_id": c.table_id,
        "game_no": c.game_no,
        "result": c.result,
        "reason": c.reason,
        "mu": c.mu,
        "sigma": c.sigma,
        "rating": round(c.rating),
        "rating_before": round(display(c.mu_before, c.sigma_before)),
    }


async def rating_of(db: AsyncSession, user_id: int) -> dict[str, Any]:
    """A player's rating and its history, oldest first."""
    row = await db.get(PlayerRating, user_id)
    changes = list(
        await db.scalars(
            select(RatingChange)
            .where(RatingChange.user_id == user_id)
            .order_by(RatingChange.id.desc())
            .limit(HISTORY_LIMIT)
        )
    )
    return {**rating_json(user_id, row), "history": [change_json(c) for c in reversed(changes)]}


async def ratings_of(db: AsyncSession, user_ids: Sequence[int]) -> dict[int, dict[str, Any]]:
    """Several players' ratings (without history), by user id."""
    rows = {
        r.user_id: r
        for r in await db.scalars(
            select(PlayerRating).where(PlayerRating.user_id.in_(list(user_ids)))
        )
    }
    return {uid: rating_json(uid, rows.get(uid)) for uid in user_ids}


async def shown_ratings(db: AsyncSession, user_ids: Sequence[int]) -> dict[int, float]:
    """The figure people see for each player (a new player's for those without games)."""
    rows = await db.execute(
        select(PlayerRating.user_id, PlayerRating.rating).where(
            PlayerRating.user_id.in_(list(user_ids))
        )
    )
    found = {uid: rating for uid, rating in rows.all()}
    return {uid: found.get(uid, NEW.rating) for uid in user_ids}


@dataclass(frozen=True)
class Standing:
    rank: int
    user_id: int
    name: str
    rating: float
    games: int


async def _your_place(db: AsyncSession, me: int, eligible: Any) -> dict[str, Any]:
    """Your rating, and your rank among the eligible (None when you are not one of them)."""
    mine = await db.get(PlayerRating, me)
    you = {**rating_json(me, mine), "rank": None}
    you["last_game_at"] = utc_iso(mine.last_game_at if mine else None)
    ranked = select(PlayerRating.user_id).join(User, User.id == PlayerRating.user_id)
    if mine is not None and await db.scalar(ranked.where(eligible, User.id == me)) is not None:
        higher = await db.scalar(
            select(func.count())
            .select_from(PlayerRating)
            .join(User, User.id == PlayerRating.user_id)
            .where(eligible, PlayerRating.rating > mine.rating)
        )
        you["rank"] = int(higher or 0) + 1
    return you


def _eligible(now: dt.datetime) -> Any:
    since = now - dt.timedelta(days=LEADERBOARD_DAYS)
    return and_(
        PlayerRating.games >= LEADERBOARD_GAMES,
        PlayerRating.last_game_at >= since,
        User.disabled.is_(False),
    )


async def leaderboard(
    db: AsyncSession, me: int | None, now: dt.datetime | None = None
) -> dict[str, Any]:
    """The top players (at least ``LEADERBOARD_GAMES`` games, one in the last
    ``LEADERBOARD_DAYS`` days), highest rating first, and the caller's own place. Equal
    ratings share a rank."""
    now = now or utcnow()
    eligible = _eligible(now)
    rows = (
        await db.execute(
            select(PlayerRating, User.first_name)
            .join(User, User.id == PlayerRating.user_id)
            .where(eligible)
            .order_by(PlayerRating.rating.desc(), PlayerRating.games.desc(), User.id)
            .limit(LEADERBOARD_SIZE)
        )
    ).all()
    players: list[dict[str, Any]] = []
    rank = 0
    previous: float | None = None
    for i, (r, name) in enumerate(rows):
        if r.rating != previous:
            rank, previous = i + 1, r.rating
        players.append(
            {
                "rank": rank,
                "user_id": r.user_id,
                "name": name,
                "rating": round(r.rating),
                "games": r.games,
            }
        )
    you: dict[str, Any] | None = None
    if me is not None:
        you = await _your_place(db, me, eligible)
    return {
        "players": players,
        "you": you,
        "min_games": LEADERBOARD_GAMES,
        "days": LEADERBOARD_DAYS,
    }


async def your_data(db: AsyncSession, user_id: int) -> dict[str, Any]:
    """What ratings keep of ``user_id``: the rating and its history (every rated game)."""
    return {"rating": await rating_of(db, user_id)}
