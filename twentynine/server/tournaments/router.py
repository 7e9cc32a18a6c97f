"""The tournaments API (docs/tournaments.md)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Query, Request
from fastapi.responses import Response

from ..accounts.models import User
from ..deps import MemberUser, OptionalUser, SessionDep
from ..refusals import refused
from ..tables.models import GameTable
from ..tables.service import AccessError
from . import conduct, documents, service
from .models import Tournament
from .owner import TournamentOwner, match_notices
from .rounds import table_link
from .schemas import (
    AddBots,
    AdjustResult,
    Approve,
    CallPlayers,
    CreateTournament,
    MatchConference,
    Register,
    Repair,
    Replace,
)

router = APIRouter(prefix="/api/tournaments")

MAX_ID = 2**31 - 1
Id = Annotated[int, Path(ge=1, le=MAX_ID)]


def _http(e: AccessError | service.Stale) -> HTTPException:
    if isinstance(e, service.Stale):
        return refused(409, "the tournament changed meanwhile; try again", "changed")
    return e.http()


@contextmanager
def _as_http() -> Iterator[None]:
    """A refusal of the service's or the table's, as the HTTP error it stands for."""
    try:
        yield
    except (AccessError, service.Stale) as e:
        raise _http(e) from None


def owner(request: Request) -> TournamentOwner:
    o: TournamentOwner = request.app.state.tournaments
    return o


async def _tournament(db: Any, tournament_id: int) -> Tournament:
    with _as_http():
        return await service.get(db, tournament_id)


async def changed(request: Request, t: Tournament) -> None:
    """Tell every open page (the tournament's, the dashboards' lists) that it changed."""
    await request.app.state.live.broadcast(service.changed_message(t.id, t.version))


@router.post("", status_code=201)
async def create(body: CreateTournament, request: Request, user: MemberUser, db: SessionDep) -> Any:
    with _as_http():
        t = await service.create(db, user, body)
    await changed(request, t)
    return await documents.document(db, t, user)


@router.get("")
async def listing(db: SessionDep, user: OptionalUser) -> list[dict[str, Any]]:
    return await documents.listing(db, user)


@router.get("/{tournament_id}")
async def show(tournament_id: Id, db: SessionDep, user: OptionalUser) -> dict[str, Any]:
    return await documents.document(db, await _tournament(db, tournament_id), user)


async def _after_entry(request: Request, db: Any, t: Tournament, user: User) -> dict[str, Any]:
    await changed(request, t)
    return await documents.document(db, t, user)


@router.post("/{tournament_id}/entries", status_code=201)
async def register(
    tournament_id: Id, body: Register, request: Request, user: MemberUser, db: SessionDep
) -> dict[str, Any]:
    t = await _tournament(db, tournament_id)
    with _as_http():
        entry = await service.register(db, t, user, body)
    live = request.app.state.live
    if entry.partner_id is not None:
        await live.send(
            [entry.partner_id],
            {
                "type": "tournament_partner",
                "tournament_id": t.id,
                "tournament": t.name,
                "entry_id": entry.id,
                "from": user.first_name,
            },
        )
    await live.send(
        [t.organiser_id],
        {
            "type": "tournament_entry",
            "tournament_id": t.id,
            "tournament": t.name,
            "entry_id": entry.id,
        },
    )
    return await _after_entry(request, db, t, user)


def _entry_action(name: str) -> Any:
    async def action(
        tournament_id: Id, entry_id: Id, request: Request, user: MemberUser, db: SessionDep
    ) -> dict[str, Any]:
        t = await _tournament(db, tournament_id)
        with _as_http():
            if name == "confirm":
                await service.confirm(db, t, user, entry_id)
            else:
                await service.withdraw(db, t, user, entry_id)
        return await _after_entry(request, db, t, user)

    action.__name__ = name
    return action


router.post("/{tournament_id}/entries/{entry_id}/confirm")(_entry_action("confirm"))
router.post("/{tournament_id}/entries/{entry_id}/withdraw")(_entry_action("withdraw"))


@router.post("/{tournament_id}/entries/{entry_id}/approve")
async def approve(
    tournament_id: Id,
    entry_id: Id,
    request: Request,
    user: MemberUser,
    db: SessionDep,
    body: Approve | None = None,
) -> dict[str, Any]:
    t = await _tournament(db, tournament_id)
    with _as_http():
        entry = await service.approve(db, t, user, entry_id, (body or Approve()).paid)
    await request.app.state.live.send(
        [u for u in (entry.user_id, entry.partner_id) if u],
        {
            "type": "tournament_approved",
            "tournament_id": t.id,
            "tournament": t.name,
            "entry_id": entry.id,
        },
    )
    return await _after_entry(request, db, t, user)


@router.post("/{tournament_id}/entries/{entry_id}/replace")
async def replace(
    tournament_id: Id,
    entry_id: Id,
    body: Replace,
    request: Request,
    user: MemberUser,
    db: SessionDep,
) -> dict[str, Any]:
    t = await _tournament(db, tournament_id)
    with _as_http():
        entry, new = await service.replace(db, t, user, entry_id, body.user_id, body.email)
    m = await service.waiting_match(db, t, entry.id)
    runtime = await request.app.state.tables.get(m.table_id) if m and m.table_id else None
    # the match still waits for its players: the seat is the new person's, and so is its notice
    if m and runtime and await runtime.hand_over(body.user_id, new.id, new.first_name):
        teams = {e.id: e for e in await service.entries_of(db, t.id)}
        for _, notice in match_notices(t, m, teams):
            if notice["entry_id"] == entry.id:
                await request.app.state.live.send([new.id], notice)
    return await _after_entry(request, db, t, user)


@router.post("/{tournament_id}/bots", status_code=201)
async def add_bots(
    tournament_id: Id, body: AddBots, request: Request, user: MemberUser, db: SessionDep
) -> dict[str, Any]:
    t = await _tournament(db, tournament_id)
    with _as_http():
        await service.add_bots(db, t, user, body)
    return await _after_entry(request, db, t, user)


@router.post("/{tournament_id}/start")
async def start(
    tournament_id: Id, request: Request, user: MemberUser, db: SessionDep
) -> dict[str, Any]:
    t = await _tournament(db, tournament_id)
    with _as_http():
        await conduct.start(db, t, user)
    await owner(request).kick(t.id)  # pair round one now (or its owner does, in a moment)
    await db.refresh(t)
    return await documents.document(db, t, user)


@router.post("/{tournament_id}/call")
async def call(
    tournament_id: Id, body: CallPlayers, request: Request, user: MemberUser, db: SessionDep
) -> dict[str, Any]:
    """Before the start: every entrant's open pages are told it starts soon."""
    t = await _tournament(db, tournament_id)
    with _as_http():
        people, notice = await conduct.call_players(db, t, user, body.minutes)
    await request.app.state.live.send(people, notice)
    return {"called": len(people)}


async def _close_tables(request: Request, table_ids: list[str]) -> None:
    for table_id in table_ids:
        runtime = await request.app.state.tables.get(table_id)
        if runtime is not None and runtime.status != "closed":
            await runtime.close(None, force=True)


@router.post("/{tournament_id}/matches/{match_id}/result")
async def adjust(
    tournament_id: Id,
    match_id: Id,
    body: AdjustResult,
    request: Request,
    user: MemberUser,
    db: SessionDep,
) -> dict[str, Any]:
    t = await _tournament(db, tournament_id)
    with _as_http():
        table_id = await conduct.adjust(db, t, user, match_id, body)
    await _close_tables(request, [table_id] if table_id else [])
    await changed(request, t)
    await owner(request).kick(t.id)
    await db.refresh(t)
    return await documents.document(db, t, user)


@router.post("/{tournament_id}/matches/{match_id}/conference")
async def conference(
    tournament_id: Id,
    match_id: Id,
    body: MatchConference,
    request: Request,
    user: MemberUser,
    db: SessionDep,
) -> dict[str, Any]:
    from .models import Match

    t = await _tournament(db, tournament_id)
    if t.organiser_id != user.id:
        raise refused(403, "only the tournament's organiser may do this", "organiser_only")
    m = await db.get(Match, match_id)
    if m is None or m.tournament_id != t.id or m.kind == "bye":
        raise refused(404, "no such match", "no_match")
    m.conference_url = body.conference_url
    table = await db.get(GameTable, m.table_id) if m.table_id else None
    if table is not None and table.status != "closed":  # its players see it there too
        table.conference_url = table_link(t, m.conference_url)
    with _as_http():
        await service.bump(db, t)
    await db.commit()
    if table is not None and table.status != "closed":
        runtime = await request.app.state.tables.get(table.id)
        if runtime is not None:
            await runtime.relink()
    await changed(request, t)
    return await documents.document(db, t, user)


@router.post("/{tournament_id}/rounds/{round_no}/pairing")
async def repair(
    tournament_id: Id,
    round_no: Id,
    body: Repair,
    request: Request,
    user: MemberUser,
    db: SessionDep,
) -> dict[str, Any]:
    t = await _tournament(db, tournament_id)
    with _as_http():
        old, _new, notices = await conduct.repair(db, t, user, round_no, body)
    await _close_tables(request, old)
    for user_ids, message in notices:
        await request.app.state.live.send(user_ids or [], message)
    await changed(request, t)
    await owner(request).kick(t.id)
    return await documents.document(db, t, user)


@router.post("/{tournament_id}/end")
async def end(
    tournament_id: Id, request: Request, user: MemberUser, db: SessionDep
) -> dict[str, Any]:
    t = await _tournament(db, tournament_id)
    with _as_http():
        tables = await conduct.end(db, t, user)
    await _close_tables(request, tables)
    await changed(request, t)
    return await documents.document(db, t, user)


# -- exports ---------------------------------------------------------------------------------
@router.get("/{tournament_id}/export.json")
async def export_json(tournament_id: Id, db: SessionDep, user: OptionalUser) -> Response:
    import json

    doc = await documents.document(db, await _tournament(db, tournament_id), user)
    return Response(
        json.dumps(doc, ensure_ascii=False, indent=1),
        media_type="application/json",
        headers={"content-disposition": f'attachment; filename="tournament-{tournament_id}.json"'},
    )


@router.get("/{tournament_id}/export.csv")
async def export_csv(
    tournament_id: Id,
    db: SessionDep,
    user: OptionalUser,
    part: Annotated[str, Query(pattern="^(ranking|matches)$")] = "ranking",
) -> Response:
    doc = await documents.document(db, await _tournament(db, tournament_id), user)
    names = {e["id"]: e["name"] for e in doc["entries"]}
    players = {e["id"]: " & ".join(p["name"] for p in e["players"]) for e in doc["entries"]}
    out = io.StringIO()
    w = csv.writer(out)
    if part == "matches":
        w.writerow(
            [
                "round",
                "slot",
                "kind",
                "team_a",
                "team_b",
                "status",
                "winner",
                "score_a",
                "score_b",
                "cards_a",
                "cards_b",
                "table_id",
            ]
        )
        for rnd in doc["rounds"]:
            for m in rnd["matches"]:
                score = (
                    (m["result"] or {}).get("score")
                    or (m.get("live") or {}).get("score")
                    or ["", ""]
                )
                w.writerow(
                    [
                        rnd["number"],
                        m["slot"],
                        m["kind"],
                        names.get(m["a"], ""),
                        names.get(m["b"], ""),
                        m["status"],
                        names.get(m["winner"], ""),
                        score[0],
                        score[1],
                        m["cards"][0],
                        m["cards"][1],
                        m["table_id"] or "",
                    ]
                )
            for bye in rnd["byes"]:
                w.writerow(
                    [
                        rnd["number"],
                        "",
                        "bye",
                        names.get(bye, ""),
                        "",
                        "done",
                        names.get(bye, ""),
                        "",
                        "",
                        "",
                        "",
                        "",
                    ]
                )
    else:
        lines = {s["entry"]: s for s in doc["standings"]}
        w.writerow(
            [
                "place",
                "team",
                "players",
                "seed",
                "points",
                "buchholz",
                "card_difference",
                "won",
                "drawn",
                "lost",
                "byes",
            ]
        )
        if doc["ranking"] is not None:
            order = [(r["place"], r["entry"]) for r in doc["ranking"]]
        else:
            order = [(s["rank"], s["entry"]) for s in doc["standings"]]
        seeds = {e["id"]: e["seed"] for e in doc["entries"]}
        for place, entry in order:
            s = lines.get(entry, {})
            w.writerow(
                [
                    place,
                    names.get(entry, ""),
                    players.get(entry, ""),
                    seeds.get(entry) or "",
                    s.get("points", ""),
                    s.get("buchholz", ""),
                    s.get("card_difference", ""),
                    s.get("won", ""),
                    s.get("drawn", ""),
                    s.get("lost", ""),
                    s.get("byes", ""),
                ]
            )
    return Response(
        out.getvalue(),
        media_type="text/csv; charset=utf-8",
        headers={
            "content-disposition": f'attachment; filename="tournament-{tournament_id}-{part}.csv"'
        },
    )
