"""The organiser's decisions once play is near: start, adjust a result, re-pair a round that has
not started, end early. Each is stored (a compare-and-set on the tournament's version) before
the tables are touched or anyone is told; the owner then carries on from what is stored."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from ..accounts.models import User
from ..db import utcnow
from ..tables.models import GameTable
from .documents import final_ranking, matches_of
from .models import Match, Tournament, TournamentLog
from .owner import match_notices, people, set_result
from .pairing import knockout_rounds, round_robin_rounds, swiss_max_rounds
from .rounds import open_round, table_rules
from .schemas import AdjustResult, Repair
from .service import ACTIVE, as_organiser, bump, entries_of, fail, form_teams, log

Notice = tuple[list[int] | None, dict[str, Any]]


async def start(db: AsyncSession, t: Tournament, user: User) -> None:
    """Close registration and fix the field; the owner pairs round one at once."""
    as_organiser(t, user)
    if t.status != "registration":
        raise fail(409, f"the tournament is {t.status}", "past_registration")
    entries = await entries_of(db, t.id)
    teams = form_teams(entries, random.SystemRandom())
    n = len(teams)
    if n < 2:
        raise fail(409, "a tournament needs at least two teams", "too_few_teams")
    if t.format == "round_robin" and n > 8:
        raise fail(409, "a round robin takes at most 8 teams", "round_robin_size")
    if t.format == "swiss" and t.rounds > swiss_max_rounds(n):
        raise fail(
            409,
            f"{t.rounds} Swiss rounds need at least {2 * t.rounds} teams "
            "(so that no two teams ever have to meet twice)",
            "swiss_too_few_teams",
        )
    if t.format == "knockout":
        t.rounds = knockout_rounds(n)
    elif t.format == "round_robin":
        t.rounds = round_robin_rounds(n)
    table_rules(t)  # the rules with the match length must make a valid table
    t.status = "running"
    t.started_at = utcnow()
    t.current_round = 0
    await bump(db, t)
    log(db, t, user.id, "started", teams=n, rounds=t.rounds)
    await db.commit()


#: how often the organiser may call the players (seconds)
CALL_EVERY = 60


async def call_players(
    db: AsyncSession, t: Tournament, user: User, minutes: int | None
) -> tuple[list[int], dict[str, Any]]:
    """The organiser tells every entrant that the tournament starts soon (in ``minutes``):
    logged, at most once a minute (the tournament's version taken, so that two calls at once
    cannot both pass); (whom to tell, the notice)."""
    as_organiser(t, user)
    if t.status != "registration":
        raise fail(
            409,
            f"the tournament is {t.status}: its players are called to their matches",
            "call_started",
        )
    last = await db.scalar(
        select(TournamentLog.at)
        .where(TournamentLog.tournament_id == t.id, TournamentLog.action == "called")
        .order_by(TournamentLog.at.desc())
        .limit(1)
    )
    if last is not None and (utcnow() - last).total_seconds() < CALL_EVERY:
        raise fail(429, "the players were called less than a minute ago", "called_recently")
    entries = await entries_of(db, t.id)
    called = sorted({u for e in entries if e.status in ACTIVE for u in people(e)})
    await bump(db, t)  # one call at a time: a second at the same instant finds it taken
    log(db, t, user.id, "called", minutes=minutes, people=len(called))
    await db.commit()
    notice = {
        "type": "tournament_call",
        "tournament_id": t.id,
        "tournament": t.name,
        "minutes": minutes,
        "from": user.first_name,
    }
    return called, notice


async def _match(db: AsyncSession, t: Tournament, match_id: int) -> Match:
    m = await db.get(Match, match_id)
    if m is None or m.tournament_id != t.id or m.kind == "bye":
        raise fail(404, "no such match", "no_match")
    return m


async def adjust(
    db: AsyncSession, t: Tournament, user: User, match_id: int, body: AdjustResult
) -> str | None:
    """The organiser sets a match's result (logged, with what it was). Returns the table to
    close, if it still plays."""
    as_organiser(t, user)
    if t.status != "running":
        raise fail(409, f"the tournament is {t.status}", "not_running")
    m = await _match(db, t, match_id)
    if body.winner is not None and body.winner not in (m.entry_a, m.entry_b):
        raise fail(422, "the winner must be one of the match's two entries", "winner_not_in_match")
    if body.winner is None and t.format == "knockout":
        raise fail(422, "a knockout match needs a winner", "needs_winner")
    if t.format == "knockout" and m.round_no != t.current_round:
        raise fail(409, "the next round is already paired from this result", "already_paired")
    before = {"status": m.status, "winner": m.winner, "result": m.result}
    score = (
        list(body.score) if body.score is not None else list((m.result or {}).get("score", [0, 0]))
    )
    set_result(
        m, body.winner, score, [m.cards_a, m.cards_b], int((m.result or {}).get("deals", 0)),
        utcnow(), adjusted=True,
    )  # fmt: skip
    await bump(db, t)
    log(
        db, t, user.id, "result_adjusted", match=m.id, before=before,
        after={"winner": m.winner, "result": m.result}, reason=body.reason,
    )  # fmt: skip
    await db.commit()
    return m.table_id


async def repair(
    db: AsyncSession, t: Tournament, user: User, round_no: int, body: Repair
) -> tuple[list[str], list[str], list[Notice]]:
    """Pair the current round again, as the organiser lists it, while none of its tables has
    started. Returns the old tables (to close), the new ones (to start) and the notices."""
    as_organiser(t, user)
    if t.status != "running" or round_no != t.current_round:
        raise fail(
            409,
            "only the current round of a running tournament can be re-paired",
            "repair_current_only",
        )
    if t.format == "round_robin":
        raise fail(409, "a round robin's schedule is fixed", "round_robin_fixed")
    matches = [m for m in await matches_of(db, t.id) if m.round_no == round_no]
    tables = [m.table_id for m in matches if m.table_id]
    rows = (
        list(await db.scalars(select(GameTable).where(GameTable.id.in_(tables)))) if tables else []
    )
    if any(m.status not in ("waiting",) and m.kind != "bye" for m in matches) or any(
        r.status != "waiting" for r in rows
    ):
        raise fail(409, "this round has started: it can no longer be re-paired", "round_started")
    before = sorted(i for m in matches for i in (m.entry_a, m.entry_b) if i is not None)
    after = sorted(i for pair in body.matches for i in pair if i is not None)
    if before != after:
        raise fail(422, "list every team of this round exactly once", "repair_every_team")
    byes = [p for p in body.matches if p[1] is None]
    if t.format == "knockout":
        slots_before = sum(1 for m in matches if m.kind != "third_place")
        if len(body.matches) != slots_before or (byes and round_no != 1):
            raise fail(422, f"this round has {slots_before} slots", "repair_slots")
    elif len(byes) > 1:
        raise fail(422, "at most one team sits out a Swiss round", "one_bye")
    third = [m for m in matches if m.kind == "third_place"]
    if third:
        raise fail(
            409, "a final round with a third-place match cannot be re-paired", "repair_third_place"
        )
    entries = {e.id: e for e in await entries_of(db, t.id) if e.seed}
    await db.execute(delete(Match).where(Match.tournament_id == t.id, Match.round_no == round_no))
    for r in rows:
        r.status = "closed"
    slots = [
        (i, "match" if b is not None else "bye", a, b) for i, (a, b) in enumerate(body.matches)
    ]
    new = await open_round(db, t, round_no, slots, entries)
    await bump(db, t)
    log(db, t, user.id, "round_repaired", round=round_no, matches=[list(p) for p in body.matches])
    await db.commit()
    notices: list[Notice] = []
    for m in new:
        notices += match_notices(t, m, entries)
    return tables, [m.table_id for m in new if m.table_id], notices


async def end(db: AsyncSession, t: Tournament, user: User) -> list[str]:
    """End early: the ranking as it stands; matches still open are void. Returns the tables
    to close."""
    as_organiser(t, user)
    if t.status == "finished":
        raise fail(409, "the tournament is over", "over")
    matches = await matches_of(db, t.id)
    open_tables = []
    for m in matches:
        if m.status != "done":
            m.status = "void"
            if m.table_id:
                open_tables.append(m.table_id)
    teams = [e for e in await entries_of(db, t.id) if e.seed]
    t.ranking = final_ranking(t, teams, matches) if teams else []
    t.status = "finished"
    t.finished_at = utcnow()
    await bump(db, t)
    log(db, t, user.id, "ended_early")
    await db.commit()
    return open_tables
