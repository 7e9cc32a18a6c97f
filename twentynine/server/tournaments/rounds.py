"""The next round of a tournament, and the tables its matches are played at."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from ...engine.records import RulesSpec
from ..db import utcnow
from ..tables.models import GameTable, TableSeat
from ..tables.service import new_id
from .documents import table_of
from .models import Entry, Match, Tournament
from .pairing import (
    knockout_first_round,
    knockout_next,
    round_robin_pairing,
    swiss_pairing,
)

#: one slot of a round: (slot, kind, first entry, second entry or None for a bye)
Slot = tuple[int, str, int, int | None]


def loser_of(m: Match) -> int | None:
    if m.winner is None or m.entry_b is None:
        return None
    return m.entry_b if m.winner == m.entry_a else m.entry_a


def next_slots(
    t: Tournament, teams: Sequence[Entry], matches: Sequence[Match]
) -> list[Slot] | None:
    """The round after ``t.current_round`` (all of whose matches are done), or None when the
    tournament is over."""
    done = t.current_round
    seeded = [e.id for e in sorted(teams, key=lambda e: e.seed)]
    if done >= t.rounds:
        return None
    if t.format == "knockout":
        if done == 0:
            return [
                (i, "match" if b is not None else "bye", a, b)
                for i, (a, b) in enumerate(knockout_first_round(seeded))
            ]
        last = sorted(
            (m for m in matches if m.round_no == done and m.kind != "third_place"),
            key=lambda m: m.slot,
        )
        winners = [m.winner if m.winner is not None else m.entry_a for m in last]
        slots: list[Slot] = [(i, "match", a, b) for i, (a, b) in enumerate(knockout_next(winners))]
        if t.third_place and done + 1 == t.rounds and len(last) == 2:
            losers = [loser_of(m) for m in last]
            if losers[0] is not None and losers[1] is not None:
                slots.append((1, "third_place", losers[0], losers[1]))
        return slots
    if t.format == "swiss":
        lines = table_of(t, teams, matches)
        played = {
            frozenset((m.entry_a, m.entry_b))
            for m in matches
            if m.kind == "match" and m.entry_b is not None
        }
        had_bye = {m.entry_a for m in matches if m.kind == "bye"}
        pairing = swiss_pairing(
            [line.entry for line in lines],
            {line.entry: line.points for line in lines},
            played,
            had_bye,
        )
    else:
        pairing = round_robin_pairing(seeded, done + 1)
    out: list[Slot] = [(i, "match", a, b) for i, (a, b) in enumerate(pairing.matches)]
    if pairing.bye is not None:
        out.append((len(out), "bye", pairing.bye, None))
    return out


def table_rules(t: Tournament) -> dict[str, Any]:
    """The tournament's rules with its match length: a set, or a fixed number of deals."""
    spec = RulesSpec.from_json(t.rules)
    options = dict(spec.options)
    if t.match_deals:
        options.update(game_end="match_rounds", match_rounds=t.match_deals)
    else:
        options["game_end"] = "sets"
    out = RulesSpec(spec.preset, options)
    out.rules  # noqa: B018 - validate
    return out.to_json()


def seats_of_team(e: Entry) -> tuple[tuple[int | None, str], tuple[int | None, str]]:
    """(user id, bot level) of a team's two players."""
    first = (e.user_id, "") if e.user_id is not None else (None, e.bot or "intermediate")
    if e.partner_id is not None:
        second: tuple[int | None, str] = (e.partner_id, "")
    else:
        second = (None, e.partner_bot or e.bot or "intermediate")
    return first, second


def table_link(t: Tournament, match_url: str = "") -> str:
    """The video-call link a match's table gives its players and the organiser: the match's own
    (set on the tournament's page), else the tournament's unless each match has its own."""
    return match_url or ("" if t.conference_per_match else t.conference_url)


def match_table_name(t: Tournament, round_no: int, team_a: str, team_b: str) -> str:
    """A match's table: the event, the round and the two teams."""
    return f"{t.name} · {round_no}: {team_a} – {team_b}"[:80]


async def open_round(
    db: AsyncSession, t: Tournament, round_no: int, slots: Sequence[Slot], teams: dict[int, Entry]
) -> list[Match]:
    """Store the round's matches (byes too) and open a table for each match, its seats given:
    the first team at seats 0 and 2, the second at 1 and 3. People join when they come; bots
    are seated."""
    rules = table_rules(t)
    created = []
    now = utcnow()
    for slot, kind, a, b in slots:
        m = Match(
            tournament_id=t.id,
            round_no=round_no,
            slot=slot,
            kind=kind,
            entry_a=a,
            entry_b=b,
            status="done" if kind == "bye" else "waiting",
            winner=a if kind == "bye" else None,
            points_a=1.0 if kind == "bye" else 0.0,
            opened_at=now,
            finished_at=now if kind == "bye" else None,
        )
        if kind != "bye" and b is not None:
            table = GameTable(
                id=new_id(),
                kind="tournament",
                host_id=t.organiser_id,
                name=match_table_name(t, round_no, teams[a].name, teams[b].name),
                rules=rules,
                conference_url=table_link(t),
                spectators_see="none",  # a match is watched without seeing any hand
                takeover_seconds=min(600, max(1, t.grace_seconds)),
                status="waiting",
            )
            db.add(table)
            await db.flush()
            (a1, a2), (b1, b2) = seats_of_team(teams[a]), seats_of_team(teams[b])
            for seat, (user_id, bot) in enumerate((a1, b1, a2, b2)):
                db.add(
                    TableSeat(
                        table_id=table.id, seat=seat, user_id=user_id, bot=bot, joined=bool(bot)
                    )
                )
            m.table_id = table.id
        db.add(m)
        created.append(m)
    await db.flush()
    return created
