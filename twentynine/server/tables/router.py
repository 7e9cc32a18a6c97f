"""The tables API: create, list, join, leave, host, reset, pause, close, chat history."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from sqlalchemy import select

from ..accounts.models import User
from ..deps import CurrentUser, MemberUser, SessionDep
from ..friends.service import friend_ids
from ..matchmaking.quickjoin import nearest_first
from ..refusals import refused
from ..safety.hooks import visible_lines
from ..safety.service import blocks
from . import service
from .manager import TableManager
from .models import GameTable, TableSeat
from .runtime import STANDIN_LEVEL, TableError, TableRuntime, chat_json
from .schemas import CreateHosted, CreateTable, JoinTable, ResetTable

router = APIRouter(prefix="/api/tables")


def manager(request: Request) -> TableManager:
    tables: TableManager = request.app.state.tables
    return tables


def _http(e: service.AccessError | TableError) -> HTTPException:
    if isinstance(e, TableError):
        status = {
            "not_host": 403,
            "not_invited": 403,
            "not_alone": 403,
            "not_player": 403,
            "full": 409,
        }.get(e.reason, 409)
        return refused(status, e.message, e.reason)
    return e.http()


@contextmanager
def _as_http() -> Iterator[None]:
    """A refusal of the service's or the table's, as the HTTP error it stands for."""
    try:
        yield
    except (service.AccessError, TableError) as e:
        raise _http(e) from None


async def _table(
    request: Request, db: Any, table_id: str, user: User | None, code: str | None = None
) -> tuple[GameTable, TableRuntime]:
    # no id holds a NUL (PostgreSQL cannot even compare one); invite codes are ASCII (and
    # compare_digest refuses anything else with a TypeError)
    row = await db.get(GameTable, table_id) if "\x00" not in table_id else None
    code = code if code is None or code.isascii() else ""
    if row is None or not await service.can_view(db, row, user, code):
        raise refused(404, "no such table", "no_table")
    # give the database connection back before waiting on the table, whose own writes need one
    await db.commit()
    runtime = await manager(request).get(table_id)
    if runtime is None:
        raise refused(404, "no such table", "no_table")
    return row, runtime


def summary(row: GameTable, seats: list[TableSeat], names: dict[int, str]) -> dict[str, Any]:
    return {
        "id": row.id,
        "kind": row.kind,
        "name": row.name,
        "host_id": row.host_id,
        "status": row.status,
        "rules": row.rules,
        "conference_url": row.conference_url,
        "turn_seconds": row.turn_seconds,
        "rated": row.rated,
        "seats": [
            {
                "seat": s.seat,
                "user_id": s.user_id,
                "name": names.get(s.user_id or 0, "") if s.user_id else (s.bot and "Bot"),
                "bot": s.bot if not s.bot.startswith("http") else "external",
                "joined": s.joined,
            }
            for s in seats
        ],
        "open_seats": sum(1 for s in seats if s.user_id is None and not s.bot),
    }


async def _summaries(db: Any, rows: list[GameTable]) -> list[dict[str, Any]]:
    if not rows:
        return []
    ids = [r.id for r in rows]
    seat_rows = list(await db.scalars(select(TableSeat).where(TableSeat.table_id.in_(ids))))
    user_ids = {s.user_id for s in seat_rows if s.user_id}
    names = (
        {u.id: u.first_name for u in await db.scalars(select(User).where(User.id.in_(user_ids)))}
        if user_ids
        else {}
    )
    by_table: dict[str, list[TableSeat]] = {}
    for s in sorted(seat_rows, key=lambda s: s.seat):
        by_table.setdefault(s.table_id, []).append(s)
    return [summary(r, by_table.get(r.id, []), names) for r in rows]


@router.post("", status_code=201)
async def create(
    body: CreateTable, request: Request, user: CurrentUser, db: SessionDep
) -> dict[str, Any]:
    with _as_http():
        row = await service.create_table(db, user, body, request.app.state.settings.bot_url_allow)
    runtime = await manager(request).get(row.id)
    assert runtime is not None
    if runtime.notices is not None:  # a public table: the lobbies (tables/notices.py)
        runtime.notices.opened(runtime)
    if all(not s.empty for s in runtime.seats):
        await runtime.submit(runtime.start_game)
    out = (await _summaries(db, [row]))[0]
    out["invite_code"] = row.invite_code
    return out


@router.post("/hosted", status_code=201)
async def host(
    body: CreateHosted, request: Request, user: MemberUser, db: SessionDep
) -> dict[str, Any]:
    with _as_http():
        row = await service.create_hosted(db, user, body)
    runtime = await manager(request).get(row.id)
    if runtime is not None and runtime.notices is not None:  # invite the players it seats
        runtime.notices.opened(runtime)
    return (await _summaries(db, [row]))[0]


@router.get("")
async def lobby(user: CurrentUser, db: SessionDep) -> list[dict[str, Any]]:
    """Open public tables, newest first."""
    rows = list(
        await db.scalars(
            select(GameTable)
            .where(GameTable.kind == "public", GameTable.status.in_(("waiting", "playing")))
            .order_by(GameTable.created_at.desc())
            .limit(100)
        )
    )
    return await _summaries(db, rows)


@router.get("/mine")
async def mine(user: CurrentUser, db: SessionDep) -> dict[str, list[dict[str, Any]]]:
    """The dashboard: the game I host, the games I play in, my friends' games I may watch."""
    seated = set(await db.scalars(select(TableSeat.table_id).where(TableSeat.user_id == user.id)))
    friends = await friend_ids(db, user.id) if not user.is_guest else set()
    rows = list(
        await db.scalars(
            select(GameTable).where(
                GameTable.status != "closed",
                (GameTable.id.in_(seated))
                | ((GameTable.kind == "hosted") & (GameTable.host_id.in_(friends or {0}))),
            )
        )
    )
    summaries = {s["id"]: s for s in await _summaries(db, rows)}
    out: dict[str, list[dict[str, Any]]] = {"host": [], "join": [], "view": []}
    for row in rows:
        s = summaries[row.id]
        if row.kind == "hosted" and row.host_id == user.id:
            out["host"].append(s)
        elif row.id in seated:
            out["join"].append(s)
        else:
            out["view"].append(s)
    return out


@router.post("/quick-join")
async def quick_join(request: Request, user: MemberUser, db: SessionDep) -> dict[str, Any]:
    """The first open seat at an unrated public table (players near your rating first), else
    a new public table with bots."""
    rows = list(
        await db.scalars(
            select(GameTable)
            .where(GameTable.kind == "public", GameTable.status.in_(("waiting", "playing")))
            .order_by(GameTable.created_at)
        )
    )
    rows = await nearest_first(db, user.id, rows)
    for row in rows:
        runtime = await manager(request).get(row.id)
        if runtime is None or runtime.seat_of(user.id) is not None:
            continue
        if any(s.empty for s in runtime.seats) or any(s.is_bot for s in runtime.seats):
            try:
                seat = await runtime.join(user.id, user.first_name)
            except TableError:
                continue
            return {"table": row.id, "seat": seat, "created": False}
    bot = f"bot:{STANDIN_LEVEL}"  # a level this server has
    body = CreateTable(kind="public", seats=["me", bot, bot, bot])
    row = await service.create_table(db, user, body, request.app.state.settings.bot_url_allow)
    runtime = await manager(request).get(row.id)
    assert runtime is not None
    await runtime.submit(runtime.start_game)
    return {"table": row.id, "seat": 0, "created": True}


@router.get("/{table_id}")
async def table_info(
    table_id: str, request: Request, user: CurrentUser, db: SessionDep, code: str | None = None
) -> dict[str, Any]:
    row, runtime = await _table(request, db, table_id, user, code)
    info = runtime.table_json()
    info["conference_url"] = runtime.conference_for(user.id)
    if row.host_id == user.id:
        info["invite_code"] = row.invite_code
    return info


@router.post("/{table_id}/join")
async def join(
    table_id: str, body: JoinTable, request: Request, user: CurrentUser, db: SessionDep
) -> dict[str, Any]:
    row, runtime = await _table(request, db, table_id, user, body.code)
    if user.is_guest and row.kind != "solo":
        raise refused(403, "guests may play solo against bots only", "guest_join")
    if await blocks(db, row.host_id, user.id) and runtime.seat_of(user.id) is None:
        raise refused(403, "the table's host does not take you", "host_refuses")
    if runtime.status == "paused" and not runtime.paused_away and runtime.seat_of(user.id) is None:
        # only its one person may resume a paused table; a second one would leave it stuck
        # (a table paused because nobody was there deals on when someone opens it)
        raise refused(409, "the table is paused; join when it resumes", "paused_join")
    with _as_http():
        seat = await runtime.join(user.id, user.first_name, body.seat)
    return {"table": table_id, "seat": seat, "status": runtime.status}


@router.post("/{table_id}/leave")
async def leave(
    table_id: str, request: Request, user: CurrentUser, db: SessionDep
) -> dict[str, Any]:
    _, runtime = await _table(request, db, table_id, user)
    with _as_http():
        await runtime.leave(user.id)
    if runtime.notices is not None:  # the leaver's other pages (tables/notices.py)
        runtime.notices.unseated(runtime, user.id)
    return {"left": True}


@router.post("/{table_id}/fill-bots")
async def fill_bots(
    table_id: str, request: Request, user: CurrentUser, db: SessionDep
) -> dict[str, Any]:
    _, runtime = await _table(request, db, table_id, user)
    with _as_http():
        await runtime.fill_with_bots(user.id)
    return {"status": runtime.status}


@router.post("/{table_id}/reset")
async def reset(
    table_id: str, body: ResetTable, request: Request, user: CurrentUser, db: SessionDep
) -> dict[str, Any]:
    _, runtime = await _table(request, db, table_id, user)
    with _as_http():
        await runtime.reset(user.id, body.what)
    return {"reset": body.what, "version": runtime.version}


@router.post("/{table_id}/pause")
async def pause(
    table_id: str, request: Request, user: CurrentUser, db: SessionDep
) -> dict[str, Any]:
    _, runtime = await _table(request, db, table_id, user)
    with _as_http():
        await runtime.pause(user.id, True)
    return {"status": runtime.status}


@router.post("/{table_id}/resume")
async def resume(
    table_id: str, request: Request, user: CurrentUser, db: SessionDep
) -> dict[str, Any]:
    _, runtime = await _table(request, db, table_id, user)
    with _as_http():
        await runtime.pause(user.id, False)
    return {"status": runtime.status}


@router.post("/{table_id}/play-again")
async def play_again(
    table_id: str, request: Request, user: CurrentUser, db: SessionDep
) -> dict[str, Any]:
    """A new game with the same seats and rules, once the game is over (host or players)."""
    _, runtime = await _table(request, db, table_id, user)
    with _as_http():
        await runtime.play_again(user.id)
    return {"game_no": runtime.game_no, "version": runtime.version}


@router.post("/{table_id}/close")
async def close(
    table_id: str, request: Request, user: CurrentUser, db: SessionDep
) -> dict[str, Any]:
    _, runtime = await _table(request, db, table_id, user)
    with _as_http():
        await runtime.close(user.id)
    manager(request).forget(table_id)
    await runtime.stop()
    return {"closed": True}


@router.get("/{table_id}/chat")
async def chat_history(
    table_id: str, request: Request, user: CurrentUser, db: SessionDep, code: str | None = None
) -> list[dict[str, Any]]:
    _, runtime = await _table(request, db, table_id, user, code)
    lines = await visible_lines(runtime.store.maker, user.id, await runtime.store.chat(table_id))
    return [chat_json(row) for row in lines]
