"""What tournaments keep of an account, for the account's owner: the download of its data,
the events that hold up its deletion, its entries let go of when it is deleted, and its team
names following a new name."""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from ..accounts.service import first_names
from ..db import utc_iso
from ..tables.models import GameTable
from .models import Entry, Match, Tournament
from .rounds import match_table_name
from .service import ACTIVE, Stale, bump, log, players_name

logger = logging.getLogger("twentynine.tournaments")


async def forget_entrant(db: AsyncSession, user_id: int, former: str) -> list[tuple[int, int]]:
    """An entrant's account is being deleted (its name still stored): its entries in events not
    started are withdrawn (a partner may enter again), and a team name made of the players'
    first names says ``former`` in its place. An event under way keeps its teams. Returns the
    events changed, each with its new version (their open pages are told once it is stored)."""
    rows = await db.execute(
        select(Entry, Tournament)
        .join(Tournament, Tournament.id == Entry.tournament_id)
        .where((Entry.user_id == user_id) | (Entry.partner_id == user_id))
    )
    bumped: dict[int, int] = {}
    for entry, t in rows.all():
        names = await first_names(db, (entry.user_id, entry.partner_id))
        changed = entry.name == players_name(entry, names)
        if changed:
            entry.name = players_name(entry, {**names, user_id: former})
        if t.status == "registration" and entry.status in ACTIVE:
            entry.status = "withdrawn"
            log(db, t, None, "withdrawn", entry=entry.id, account_deleted=True)
            changed = True
        if changed and t.id not in bumped:  # (one version for both of a pair's entries)
            await bump(db, t)
            bumped[t.id] = t.version
    return sorted(bumped.items())


async def rename_entrant(
    db: AsyncSession, user_id: int, old: str, tries: int = 3
) -> list[tuple[int, int]]:
    """``user_id`` took a new name (stored already; they were ``old``): in events not finished,
    a team name made of the players' first names says the new one (a finished event keeps the
    names it was played under, a name the team chose stays). Committed; returns the events
    changed, each with its new version (their open pages are told)."""
    for _ in range(tries):
        try:
            return await _rename_entrant(db, user_id, old)
        except Stale:  # the organiser changed an event meanwhile: read them all again
            await db.rollback()
    logger.warning("user %s: team names not renamed, the events kept changing", user_id)
    return []


async def _rename_entrant(db: AsyncSession, user_id: int, old: str) -> list[tuple[int, int]]:
    rows = await db.execute(
        select(Entry, Tournament)
        .join(Tournament, Tournament.id == Entry.tournament_id)
        .where(
            (Entry.user_id == user_id) | (Entry.partner_id == user_id),
            Tournament.status != "finished",
        )
    )
    bumped: dict[int, int] = {}
    for entry, t in rows.all():
        names = await first_names(db, (entry.user_id, entry.partner_id))
        if entry.name != players_name(entry, {**names, user_id: old}):
            continue
        entry.name = players_name(entry, names)
        log(db, t, user_id, "renamed", entry=entry.id)
        await _rename_match_tables(db, t, entry)
        if t.id not in bumped:
            await bump(db, t)
            bumped[t.id] = t.version
    await db.commit()
    return sorted(bumped.items())


async def _rename_match_tables(db: AsyncSession, t: Tournament, entry: Entry) -> None:
    """The open tables of ``entry``'s matches take its new name (stored only: the tables
    read it when the player's seat is renamed, ``tables/renamed.py``)."""
    matches = await db.scalars(
        select(Match).where(
            Match.tournament_id == t.id,
            (Match.entry_a == entry.id) | (Match.entry_b == entry.id),
            Match.table_id.is_not(None),
        )
    )
    for m in matches:
        table = await db.get(GameTable, m.table_id)
        if table is None or table.status == "closed" or m.entry_b is None:
            continue
        a, b = await db.get(Entry, m.entry_a), await db.get(Entry, m.entry_b)
        if a is not None and b is not None:
            table.name = match_table_name(t, m.round_no, a.name, b.name)


async def not_over(db: AsyncSession, organiser_id: int) -> list[str]:
    """The names of the events ``organiser_id`` organises that are not over (registration or
    running): only they can run or end them, and their match tables are theirs."""
    names = await db.scalars(
        select(Tournament.name)
        .where(Tournament.organiser_id == organiser_id, Tournament.status != "finished")
        .order_by(Tournament.id)
    )
    return list(names)


async def your_data(db: AsyncSession, user_id: int) -> dict[str, Any]:
    """What tournaments keep of ``user_id`` (the profile's download): the events they organise
    and their entries, alone or as someone's partner."""
    organised = await db.scalars(
        select(Tournament).where(Tournament.organiser_id == user_id).order_by(Tournament.id)
    )
    entries = await db.execute(
        select(Entry, Tournament.name)
        .join(Tournament, Tournament.id == Entry.tournament_id)
        .where((Entry.user_id == user_id) | (Entry.partner_id == user_id))
        .order_by(Entry.id)
    )
    return {
        "tournaments_organised": [
            {
                "id": t.id,
                "name": t.name,
                "format": t.format,
                "status": t.status,
                "created_at": utc_iso(t.created_at),
            }
            for t in organised
        ],
        "tournament_entries": [
            {
                "tournament_id": e.tournament_id,
                "tournament": name,
                "entry_id": e.id,
                "team": e.name,
                "as": "registered" if e.user_id == user_id else "partner",
                "status": e.status,
                "paid": e.paid,
                "created_at": utc_iso(e.created_at),
            }
            for e, name in entries.all()
        ],
    }
