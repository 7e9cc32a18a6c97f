"""A tournament read back for its pages and for the owner: its matches with their live
scores, the standings and the final ranking, the list of events, and the page's whole
document (what only entrants and the organiser may see left out for the rest)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from ..accounts.models import User
from ..accounts.service import first_names
from ..db import utc_iso, utcnow
from ..history.models import DealHistory
from ..tables.models import GameTable
from .models import Entry, Match, Tournament
from .results import MatchScore, deal_result, match_score
from .service import entered_by, entries_of, registration_open, teams_held
from .standings import KnockoutMatch, Line, Result, knockout_ranking, standings


async def matches_of(db: AsyncSession, tournament_id: int) -> list[Match]:
    return list(
        await db.scalars(
            select(Match)
            .where(Match.tournament_id == tournament_id)
            .order_by(Match.round_no, Match.slot, Match.id)
        )
    )


async def deals_by_table(db: AsyncSession, table_ids: Sequence[str]) -> dict[str, list[Any]]:
    if not table_ids:
        return {}
    rows = await db.scalars(
        select(DealHistory)
        .where(DealHistory.table_id.in_(list(table_ids)))
        .order_by(DealHistory.id)
    )
    out: dict[str, list[Any]] = {}
    for row in rows:
        out.setdefault(row.table_id, []).append(row)
    return out


def live_score(t: Tournament, deals: Sequence[Any], cards: bool = True) -> MatchScore:
    """The match at a table so far, from its stored deals. Counting the card points replays
    each deal's record: ``cards=False`` leaves them out (the owner looks often)."""
    return match_score(
        [deal_result(d, cards) for d in deals], t.match_deals, must_decide=t.format == "knockout"
    )


def results_of(matches: Sequence[Match]) -> list[Result]:
    out = []
    for m in matches:
        if m.kind == "bye":
            out.append(Result(m.entry_a, None, 1.0, 0.0))
        elif m.status == "done" and m.kind == "match":
            out.append(Result(m.entry_a, m.entry_b, m.points_a, m.points_b, m.cards_a, m.cards_b))
    return out


def table_of(t: Tournament, teams: Sequence[Entry], matches: Sequence[Match]) -> list[Line]:
    return standings({e.id: e.seed for e in teams}, results_of(matches))


def final_ranking(t: Tournament, teams: Sequence[Entry], matches: Sequence[Match]) -> list[Any]:
    """[[place, entry id], …], best first."""
    if t.format == "knockout":
        played = [
            KnockoutMatch(
                m.round_no,
                m.winner,
                (m.entry_b if m.winner == m.entry_a else m.entry_a) if m.winner else None,
                third_place=m.kind == "third_place",
            )
            for m in matches
            if m.kind != "bye" and m.status == "done"
        ]
        seeded = [e.id for e in sorted(teams, key=lambda e: e.seed)]
        return [list(p) for p in knockout_ranking(t.rounds, played, seeded)]
    return [[line.rank, line.entry] for line in table_of(t, teams, matches)]


def summary(t: Tournament, organiser: str, teams: int) -> dict[str, Any]:
    return {
        "id": t.id,
        "name": t.name,
        "format": t.format,
        "team_mode": t.team_mode,
        "status": t.status,
        "organiser": {"id": t.organiser_id, "name": organiser},
        "teams": teams,
        "max_teams": t.max_teams,
        "current_round": t.current_round,
        "registration_open": registration_open(t, utcnow()),
        "registration_opens_at": utc_iso(t.opens_at),
        "registration_closes_at": utc_iso(t.closes_at),
    }


async def listing(db: AsyncSession, viewer: User | None = None) -> list[dict[str, Any]]:
    rows = list(await db.scalars(select(Tournament).order_by(Tournament.id.desc()).limit(200)))
    names = await first_names(db, (t.organiser_id for t in rows))
    counts: dict[int, list[Entry]] = {}
    if rows:
        for e in await db.scalars(
            select(Entry).where(Entry.tournament_id.in_([t.id for t in rows]))
        ):
            counts.setdefault(e.tournament_id, []).append(e)
    out = []
    for t in rows:
        entries = counts.get(t.id, [])
        item = summary(t, names.get(t.organiser_id, ""), teams_held(entries))
        item["you"] = {
            "organiser": viewer is not None and viewer.id == t.organiser_id,
            "entered": viewer is not None and entered_by(entries, viewer.id) is not None,
        }
        out.append(item)
    return out


def _player(user_id: int | None, bot: str, names: dict[int, str]) -> dict[str, Any] | None:
    if user_id is not None:
        return {"user_id": user_id, "name": names.get(user_id, ""), "bot": None}
    if bot:
        return {"user_id": None, "name": bot.capitalize(), "bot": bot}
    return None


def entry_json(e: Entry, names: dict[int, str]) -> dict[str, Any]:
    players = [
        _player(e.user_id, e.bot, names),
        _player(e.partner_id, e.partner_bot or e.bot, names),
    ]
    return {
        "id": e.id,
        "name": e.name,
        "status": e.status,
        "paid": e.paid,
        "seed": e.seed or None,
        "bot": e.bot or None,
        "players": [p for p in players if p is not None],
    }


def match_json(t: Tournament, m: Match, deals: Sequence[Any]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": m.id,
        "round": m.round_no,
        "slot": m.slot,
        "kind": m.kind,
        "a": m.entry_a,
        "b": m.entry_b,
        "table_id": m.table_id,
        "status": m.status,
        "winner": m.winner,
        "result": m.result,
        "points": [m.points_a, m.points_b],
        "cards": [m.cards_a, m.cards_b],
        "conference_url": m.conference_url or (t.conference_url if m.table_id else ""),
    }
    if m.status != "done" and m.table_id:
        score = live_score(t, deals, cards=False)  # pages reload this after every deal
        out["live"] = {"score": list(score.score), "deals": score.deals}
    return out


async def document(db: AsyncSession, t: Tournament, viewer: User | None) -> dict[str, Any]:
    """Everything the tournament page shows."""
    entries = await entries_of(db, t.id)
    matches = await matches_of(db, t.id)
    ids = {t.organiser_id}
    for e in entries:
        ids.update(i for i in (e.user_id, e.partner_id) if i)
    names = await first_names(db, ids)
    deals = await deals_by_table(
        db, [m.table_id for m in matches if m.table_id and m.status != "done"]
    )
    mine = entered_by(entries, viewer.id) if viewer else None
    out = summary(t, names.get(t.organiser_id, ""), teams_held(entries))
    insider = viewer is not None and (viewer.id == t.organiser_id or mine is not None)
    out.update(
        description=t.description,
        rules_text=t.rules_text,
        rules=t.rules,
        # rounds the event has (Swiss: as set; knockout and round robin: fixed at the start)
        round_count=t.rounds,
        match_deals=t.match_deals,
        approval=t.approval,
        no_show=t.no_show,
        grace_seconds=t.grace_seconds,
        third_place=t.third_place,
        conference_per_match=t.conference_per_match,
        # the links and the note on paying are for the entrants and the organiser
        conference_url=t.conference_url if insider else "",
        entry_note=t.entry_note,
        version=t.version,
        started_at=utc_iso(t.started_at),
        finished_at=utc_iso(t.finished_at),
        you={
            "user_id": viewer.id if viewer else None,
            "organiser": viewer is not None and viewer.id == t.organiser_id,
            "entry_id": mine.id if mine else None,
        },
        entries=[entry_json(e, names) for e in entries],
    )
    rounds: dict[int, dict[str, Any]] = {}
    for m in matches:
        rnd = rounds.setdefault(
            m.round_no, {"number": m.round_no, "matches": [], "byes": [], "bye_slots": []}
        )
        if m.kind == "bye":
            rnd["byes"].append(m.entry_a)
            rnd["bye_slots"].append([m.slot, m.entry_a])
        else:
            mj = match_json(t, m, deals.get(m.table_id or "", []))
            if not insider:
                mj["conference_url"] = ""
            rnd["matches"].append(mj)
    out["rounds"] = [rounds[n] for n in sorted(rounds)]
    teams = [e for e in entries if e.seed]
    out["standings"] = (
        [line.to_json() for line in table_of(t, teams, matches)]
        if t.format != "knockout" and t.status != "registration"
        else []
    )
    out["ranking"] = (
        [{"place": p, "entry": e} for p, e in t.ranking] if t.ranking is not None else None
    )
    return out


async def table_status(db: AsyncSession, table_ids: Sequence[str]) -> dict[str, GameTable]:
    if not table_ids:
        return {}
    rows = await db.scalars(select(GameTable).where(GameTable.id.in_(list(table_ids))))
    return {r.id: r for r in rows}
