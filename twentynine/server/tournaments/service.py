"""Creating a tournament, registering, and the organiser's decisions on the entries (reading it
back is ``documents.py``; what it keeps of an account, ``account_data.py``).

Every change is stored before anyone is told of it; a change that depends on where the
tournament stands bumps its ``version`` with a compare-and-set (``bump``), so two processes (or
an organiser and the owner advancing it) never take the same step twice."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from ..accounts.models import CAN_HOST, User
from ..accounts.service import first_names, normalise_email
from ..db import utcnow
from ..tables.service import AccessError, rules_spec
from .models import Entry, Match, Tournament, TournamentLog
from .schemas import AddBots, CreateTournament, Register

#: entries that hold a place in the field
ACTIVE = ("partner", "pending", "entered")


class Stale(Exception):
    """The tournament moved on meanwhile (another process or request took a step)."""


def fail(status: int, detail: str, reason: str | None = None) -> AccessError:
    return AccessError(status, detail, reason)


def changed_message(tournament_id: int, version: int) -> dict[str, Any]:
    """What every open page (the event's, the lists of events) is told once ``version`` of the
    event is stored."""
    return {"type": "tournament_changed", "tournament_id": tournament_id, "version": version}


def players_name(entry: Entry, names: dict[int, str]) -> str:
    """The team name an entry has when its players gave none: their first names (``names``,
    by id), "Ana & Bo"."""
    return " & ".join(names.get(i, "") for i in (entry.user_id, entry.partner_id) if i)


async def bump(db: AsyncSession, t: Tournament) -> None:
    """Claim the next version of ``t`` (compare-and-set); raises ``Stale`` if it was taken."""
    done = await db.execute(
        update(Tournament)
        .where(Tournament.id == t.id, Tournament.version == t.version)
        .values(version=t.version + 1)
        .execution_options(synchronize_session=False)
    )
    if done.rowcount != 1:  # type: ignore[attr-defined]
        raise Stale(f"tournament {t.id} changed meanwhile")
    t.version += 1


def log(db: AsyncSession, t: Tournament, user_id: int | None, action: str, **detail: Any) -> None:
    db.add(TournamentLog(tournament_id=t.id, user_id=user_id, action=action, detail=detail))


# -- create and register ---------------------------------------------------------------------
async def create(db: AsyncSession, organiser: User, body: CreateTournament) -> Tournament:
    if not CAN_HOST.get(organiser.tier, False):
        raise fail(403, "organising a tournament needs a standard account", "cannot_organise")
    spec = rules_spec(body.rules)
    t = Tournament(
        organiser_id=organiser.id,
        name=body.name.strip(),
        description=body.description,
        rules_text=body.rules_text,
        rules=spec.to_json(),
        format=body.format,
        rounds=body.rounds or 0,
        team_mode=body.team_mode,
        match_deals=body.match_deals,
        max_teams=body.max_teams or 16,
        opens_at=body.registration_opens_at,
        closes_at=body.registration_closes_at,
        conference_url=body.conference_url,
        conference_per_match=body.conference_per_match,
        entry_note=body.entry_note,
        approval=body.approval,
        no_show=body.no_show,
        grace_seconds=body.grace_seconds,
        third_place=body.third_place,
        status="registration",
    )
    db.add(t)
    await db.flush()
    log(db, t, organiser.id, "created")
    await db.commit()
    return t


async def get(db: AsyncSession, tournament_id: int) -> Tournament:
    t = await db.get(Tournament, tournament_id)
    if t is None:
        raise fail(404, "no such tournament", "no_tournament")
    return t


def as_organiser(t: Tournament, user: User) -> None:
    if t.organiser_id != user.id:
        raise fail(403, "only the tournament's organiser may do this", "organiser_only")


async def entries_of(db: AsyncSession, tournament_id: int) -> list[Entry]:
    return list(
        await db.scalars(
            select(Entry).where(Entry.tournament_id == tournament_id).order_by(Entry.id)
        )
    )


def teams_held(entries: Sequence[Entry]) -> int:
    """Teams the active entries make: a pair or a bot team is one, two people alone make one."""
    whole = sum(1 for e in entries if e.status in ACTIVE and (e.partner_id or e.bot))
    alone = sum(1 for e in entries if e.status in ACTIVE and not (e.partner_id or e.bot))
    return whole + (alone + 1) // 2


def registration_open(t: Tournament, now: dt.datetime) -> bool:
    if t.status != "registration":
        return False
    if t.opens_at is not None and now < t.opens_at:
        return False
    return t.closes_at is None or now < t.closes_at


def entered_by(entries: Sequence[Entry], user_id: int) -> Entry | None:
    for e in entries:
        if e.status in ACTIVE and user_id in (e.user_id, e.partner_id):
            return e
    return None


async def register(db: AsyncSession, t: Tournament, user: User, body: Register) -> Entry:
    if user.is_guest:
        raise fail(403, "guests cannot enter a tournament; sign in with email", "guest_entry")
    if not registration_open(t, utcnow()):
        raise fail(409, "registration is closed", "registration_closed")
    entries = await entries_of(db, t.id)
    if entered_by(entries, user.id) is not None:
        raise fail(409, "you are already registered in this tournament", "registered")
    partner: User | None = None
    if body.partner_email:
        if t.team_mode == "individuals":
            raise fail(422, "players register alone here: the organiser draws the pairs", "alone")
        partner = await db.scalar(
            select(User).where(User.email == normalise_email(body.partner_email))
        )
        if partner is None or partner.disabled or partner.is_guest:
            raise fail(404, "no player with that email", "no_player")
        if partner.id == user.id:
            raise fail(422, "your partner is someone else", "partner_is_you")
        if entered_by(entries, partner.id) is not None:
            raise fail(
                409,
                f"{partner.first_name} is already registered in this tournament",
                "partner_registered",
            )
    whole = partner is not None
    held = teams_held(entries)
    alone = sum(1 for e in entries if e.status in ACTIVE and not (e.partner_id or e.bot))
    needs = held + 1 if whole or alone % 2 == 0 else held
    if needs > t.max_teams:
        raise fail(409, "the field is full", "field_full")
    status = "partner" if partner is not None else ("pending" if t.approval else "entered")
    names = [user.first_name] + ([partner.first_name] if partner else [])
    entry = Entry(
        tournament_id=t.id,
        user_id=user.id,
        partner_id=partner.id if partner else None,
        name=body.name.strip() or " & ".join(names),
        status=status,
    )
    db.add(entry)
    await bump(db, t)
    await db.flush()
    log(db, t, user.id, "registered", entry=entry.id)
    await db.commit()
    return entry


async def entry_of(db: AsyncSession, t: Tournament, entry_id: int) -> Entry:
    entry = await db.get(Entry, entry_id)
    if entry is None or entry.tournament_id != t.id:
        raise fail(404, "no such entry", "no_entry")
    return entry


async def confirm(db: AsyncSession, t: Tournament, user: User, entry_id: int) -> Entry:
    entry = await entry_of(db, t, entry_id)
    if entry.partner_id != user.id:
        raise fail(403, "only the partner named in this entry can confirm it", "not_partner")
    if entry.status != "partner":
        raise fail(409, "this entry is not waiting for its partner", "not_waiting_partner")
    if t.status != "registration":
        raise fail(409, "registration is closed", "registration_closed")
    entry.status = "pending" if t.approval else "entered"
    await bump(db, t)
    log(db, t, user.id, "partner_confirmed", entry=entry.id)
    await db.commit()
    return entry


async def approve(db: AsyncSession, t: Tournament, user: User, entry_id: int, paid: bool) -> Entry:
    as_organiser(t, user)
    entry = await entry_of(db, t, entry_id)
    if entry.status not in ("pending", "entered"):
        raise fail(409, f"an entry that is {entry.status} cannot be approved", "not_approvable")
    if t.status != "registration":
        raise fail(409, "the tournament has started", "started")
    entry.status = "entered"
    entry.paid = paid
    await bump(db, t)
    log(db, t, user.id, "approved", entry=entry.id, paid=paid)
    await db.commit()
    return entry


async def withdraw(db: AsyncSession, t: Tournament, user: User, entry_id: int) -> Entry:
    entry = await entry_of(db, t, entry_id)
    if user.id != t.organiser_id and user.id not in (entry.user_id, entry.partner_id):
        raise fail(403, "only the entrants or the organiser can withdraw an entry", "not_yours")
    if t.status != "registration":
        raise fail(
            409, "the tournament has started: the organiser can replace a player", "started_replace"
        )
    if entry.status not in ACTIVE:
        raise fail(409, f"the entry is {entry.status}", "entry_withdrawn")
    entry.status = "withdrawn"
    await bump(db, t)
    log(db, t, user.id, "withdrawn", entry=entry.id)
    await db.commit()
    return entry


async def replace(
    db: AsyncSession, t: Tournament, user: User, entry_id: int, old: int, email: str
) -> tuple[Entry, User]:
    """The organiser puts someone else in an entrant's place (their later matches, and the one
    whose table still waits: see ``waiting_match``); the entry and the one put in."""
    as_organiser(t, user)
    if t.status == "finished":
        raise fail(409, "the tournament is over", "over")
    entry = await entry_of(db, t, entry_id)
    if entry.status not in ACTIVE:
        raise fail(409, f"the entry is {entry.status}", "entry_withdrawn")
    if old not in (entry.user_id, entry.partner_id):
        raise fail(422, "that person is not in this entry", "not_in_entry")
    new = await db.scalar(select(User).where(User.email == normalise_email(email)))
    if new is None or new.disabled or new.is_guest:
        raise fail(404, "no player with that email", "no_player")
    if entered_by(await entries_of(db, t.id), new.id) is not None:
        raise fail(
            409, f"{new.first_name} is already registered in this tournament", "already_entered"
        )
    names = await first_names(db, (entry.user_id, entry.partner_id))
    default = players_name(entry, names)
    if entry.user_id == old:
        entry.user_id = new.id
    else:
        entry.partner_id = new.id
    if entry.name == default:  # the name was the players' names: it follows them
        entry.name = players_name(entry, {**names, new.id: new.first_name})
    await bump(db, t)
    log(db, t, user.id, "replaced", entry=entry.id, out=old, into=new.id)
    await db.commit()
    return entry, new


async def waiting_match(db: AsyncSession, t: Tournament, entry_id: int) -> Match | None:
    """The entry's match of the current round while its table waits for its players."""
    found: Match | None = await db.scalar(
        select(Match).where(
            Match.tournament_id == t.id,
            Match.round_no == t.current_round,
            Match.status == "waiting",
            Match.table_id.is_not(None),
            (Match.entry_a == entry_id) | (Match.entry_b == entry_id),
        )
    )
    return found


async def add_bots(db: AsyncSession, t: Tournament, user: User, body: AddBots) -> list[Entry]:
    as_organiser(t, user)
    if t.status != "registration":
        raise fail(409, "the tournament has started", "started")
    entries = await entries_of(db, t.id)
    if teams_held(entries) + body.teams > t.max_teams:
        room = t.max_teams - teams_held(entries)
        raise fail(409, f"the field is full: room for {room} more", "field_full")
    count = sum(1 for e in entries if e.bot)
    added = []
    for i in range(body.teams):
        entry = Entry(
            tournament_id=t.id,
            bot=body.level,
            name=f"{body.level.capitalize()} bots {count + i + 1}",
            status="entered",
        )
        db.add(entry)
        added.append(entry)
    await bump(db, t)
    await db.flush()
    log(db, t, user.id, "bots_added", teams=body.teams, level=body.level)
    await db.commit()
    return added


# -- the field at the start ------------------------------------------------------------------
def form_teams(entries: Sequence[Entry], rng: random.Random) -> list[Entry]:
    """The teams that play, seeded in the order they entered: entries waiting for a partner or
    for approval are left out; people who entered alone are drawn into random pairs (the odd
    one out gets a bot partner)."""
    entered = [e for e in entries if e.status == "entered"]
    for e in entries:
        if e.status in ("partner", "pending"):
            e.status = "withdrawn"  # never completed: not in the field
    alone = [e for e in entered if not (e.partner_id or e.bot)]
    rng.shuffle(alone)
    for first, second in zip(alone[::2], alone[1::2], strict=False):
        first.partner_id = second.user_id
        first.name = f"{first.name} & {second.name}"
        second.status = "merged"
    if len(alone) % 2:
        alone[-1].partner_bot = "intermediate"
    teams = [e for e in entered if e.status == "entered"]
    for seed, e in enumerate(teams, start=1):
        e.seed = seed
    return teams
