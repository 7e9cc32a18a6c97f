"""Creating a tournament, registering, the organiser's decisions, and reading it back whole.

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
from ..accounts.service import normalise_email
from ..db import utcnow
from ..history.models import DealHistory
from ..tables.models import GameTable
from ..tables.service import AccessError, rules_spec
from .models import Entry, Match, Tournament, TournamentLog
from .results import MatchScore, deal_result, match_score
from .schemas import AddBots, CreateTournament, Register
from .standings import KnockoutMatch, Line, Result, knockout_ranking, standings

#: entries that hold a place in the field
ACTIVE = ("partner", "pending", "entered")


class Stale(Exception):
    """The tournament moved on meanwhile (another process or request took a step)."""


def fail(status: int, detail: str, reason: str | None = None) -> AccessError:
    return AccessError(status, detail, reason)


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
    names = await names_of(db, {i for i in (entry.user_id, entry.partner_id) if i})
    default = " & ".join(names.get(i, "") for i in (entry.user_id, entry.partner_id) if i)
    if entry.user_id == old:
        entry.user_id = new.id
    else:
        entry.partner_id = new.id
    if entry.name == default:  # the name was the players' names: it follows them
        names[new.id] = new.first_name
        entry.name = " & ".join(names[i] for i in (entry.user_id, entry.partner_id) if i)
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


# -- reading it back ---------------------------------------------------------------------------
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


def iso(when: dt.datetime | None) -> str | None:
    return None if when is None else when.replace(tzinfo=dt.UTC).isoformat()


async def names_of(db: AsyncSession, ids: set[int]) -> dict[int, str]:
    ids.discard(0)
    if not ids:
        return {}
    return {u.id: u.first_name for u in await db.scalars(select(User).where(User.id.in_(ids)))}


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
        "registration_opens_at": iso(t.opens_at),
        "registration_closes_at": iso(t.closes_at),
    }


async def listing(db: AsyncSession, viewer: User | None = None) -> list[dict[str, Any]]:
    rows = list(await db.scalars(select(Tournament).order_by(Tournament.id.desc()).limit(200)))
    names = await names_of(db, {t.organiser_id for t in rows})
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
    names = await names_of(db, ids)
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
        started_at=iso(t.started_at),
        finished_at=iso(t.finished_at),
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


async def forget_entrant(db: AsyncSession, user_id: int, former: str) -> None:
    """An entrant's account is being deleted (its name still stored): its entries in events not
    started are withdrawn (a partner may enter again), and a team name made of the players'
    first names says ``former`` in its place. An event under way keeps its teams."""
    rows = await db.execute(
        select(Entry, Tournament)
        .join(Tournament, Tournament.id == Entry.tournament_id)
        .where((Entry.user_id == user_id) | (Entry.partner_id == user_id))
    )
    for entry, t in rows.all():
        players = [i for i in (entry.user_id, entry.partner_id) if i]
        names = await names_of(db, set(players))
        changed = entry.name == " & ".join(names.get(i, "") for i in players)
        if changed:
            entry.name = " & ".join(former if i == user_id else names.get(i, "") for i in players)
        if t.status == "registration" and entry.status in ACTIVE:
            entry.status = "withdrawn"
            log(db, t, None, "withdrawn", entry=entry.id, account_deleted=True)
            changed = True
        if changed:
            await bump(db, t)


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
                "created_at": iso(t.created_at),
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
                "created_at": iso(e.created_at),
            }
            for e, name in entries.all()
        ],
    }
