"""History and stats: a user's games and deals, deal records to download, and stats."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from sqlalchemy import select

from ...engine.errors import EngineError
from ...engine.records import DealRecord, replay_deal
from ..deps import CurrentUser, SessionDep
from ..friends.service import are_friends
from ..refusals import refused
from .models import DealHistory, DealPlayer

router = APIRouter()

#: ids are positive INTEGER columns (32 bits in PostgreSQL): a larger number is no id at all
#: (and would make the database driver fail, a 500, instead of a 422)
MAX_ID = 2**31 - 1
Id = Annotated[int, Path(ge=1, le=MAX_ID)]


def _winning_bid(record: Any) -> int | None:
    """The contract's bid, as the engine's replay of the deal's record reaches it (None when
    nobody won the auction)."""
    try:
        state = replay_deal(DealRecord.from_json(record)).state
    except EngineError:
        return None
    return state.bid if state.bidder >= 0 else None


def deal_summary(deal: DealHistory, seat: int) -> dict[str, Any]:
    team = seat & 1
    return {
        "id": deal.id,
        "table_id": deal.table_id,
        "game_no": deal.game_no,
        "deal_no": deal.deal_no,
        "seat": seat,
        "outcome": deal.outcome,
        "contract": deal.contract,
        "bid": _winning_bid(deal.record),
        "bidder_team": deal.bidder_team,
        "your_team_bid": deal.bidder_team == team,
        "score_delta": deal.score_delta,
        "sets_won": deal.sets_won,
        "finished_at": deal.finished_at.isoformat(),
    }


async def _my_deals(
    db: Any, user_id: int, limit: int, offset: int
) -> list[tuple[DealHistory, int]]:
    rows = await db.execute(
        select(DealHistory, DealPlayer.seat)
        .join(DealPlayer, DealPlayer.deal_id == DealHistory.id)
        .where(DealPlayer.user_id == user_id)
        .order_by(DealHistory.id.desc())
        .limit(limit)
        .offset(offset)
    )
    return [(d, s) for d, s in rows.all()]


@router.get("/api/history/deals")
async def my_deals(
    user: CurrentUser,
    db: SessionDep,
    limit: int = Query(50, ge=1, le=500),
    offset: int = Query(0, ge=0, le=MAX_ID),
) -> list[dict[str, Any]]:
    return [deal_summary(d, s) for d, s in await _my_deals(db, user.id, limit, offset)]


@router.get("/api/history/deals/{deal_id}")
async def deal_record(deal_id: Id, user: CurrentUser, db: SessionDep) -> dict[str, Any]:
    """The deal record (``twentynine-deal/1``) of a finished deal the user played in."""
    deal = await db.get(DealHistory, deal_id)
    played = await db.scalar(
        select(DealPlayer.seat).where(DealPlayer.deal_id == deal_id, DealPlayer.user_id == user.id)
    )
    if deal is None or played is None:
        raise refused(404, "no such deal among yours", "no_deal")
    record: dict[str, Any] = deal.record
    return record


@router.get("/api/history/games")
async def my_games(user: CurrentUser, db: SessionDep) -> list[dict[str, Any]]:
    deals = await _my_deals(db, user.id, 5000, 0)
    games: dict[tuple[str, int], dict[str, Any]] = {}
    for deal, seat in reversed(deals):
        key = (deal.table_id, deal.game_no)
        g = games.setdefault(
            key,
            {
                "table_id": deal.table_id,
                "game_no": deal.game_no,
                "deals": 0,
                "seat": seat,
                "sets_won": 0,
                "sets_lost": 0,
                "result": None,
                "started_at": deal.finished_at.isoformat(),
            },
        )
        g["deals"] += 1
        team = seat & 1
        g["sets_won"] += deal.sets_won[team] if deal.sets_won else 0
        g["sets_lost"] += deal.sets_won[1 - team] if deal.sets_won else 0
        if deal.game_over:
            g["result"] = (
                "won"
                if deal.game_winner == team
                else ("draw" if deal.game_winner is None else "lost")
            )
    return list(reversed(games.values()))


async def stats_for(db: Any, user_id: int) -> dict[str, int]:
    deals = await _my_deals(db, user_id, 100_000, 0)
    out = {
        "games": 0,
        "games_won": 0,
        "rounds": 0,
        "contracts": 0,
        "contracts_made": 0,
        "sets_won": 0,
    }
    games: set[tuple[str, int]] = set()
    for deal, seat in deals:
        team = seat & 1
        games.add((deal.table_id, deal.game_no))
        if deal.outcome == "invalid":
            continue
        out["rounds"] += 1
        if deal.bidder_team == team:
            out["contracts"] += 1
            out["contracts_made"] += deal.outcome == "won"
        out["sets_won"] += deal.sets_won[team] if deal.sets_won else 0
        out["games_won"] += bool(deal.game_over and deal.game_winner == team)
    out["games"] = len(games)
    return out


@router.get("/api/stats/me")
async def my_stats(user: CurrentUser, db: SessionDep) -> dict[str, int]:
    return await stats_for(db, user.id)


@router.get("/api/stats/{user_id}")
async def friend_stats(user_id: Id, user: CurrentUser, db: SessionDep) -> dict[str, int]:
    if user_id != user.id and not await are_friends(db, user.id, user_id):
        raise refused(404, "stats are shown to friends only", "stats_friends_only")
    return await stats_for(db, user_id)
