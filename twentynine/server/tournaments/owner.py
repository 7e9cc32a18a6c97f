"""The owner that advances tournaments: one process at a time per tournament.

Every process runs one ``TournamentOwner``. It holds a lease per running tournament (a
compare-and-set on the tournament's row: ``lease_owner``/``lease_until``, renewed while the
process lives, taken over when it lapses) and, for the tournaments it holds, takes the next
step: a match whose table's stored deals decide it gets its result, a table whose players did
not come within the grace period gets bots (or the match is forfeited), a finished round makes
the next one (its matches stored and their tables opened in one transaction), the last one
the final ranking. Each step is stored (with a compare-and-set on the tournament's version)
before anyone is told. The tables package tells the owner when a tournament table's deal ended
(``on_deal_end``), so a result flows back at once; a poll catches the rest (other processes'
deals, restarts)."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import secrets
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI
from sqlalchemy import or_, select, update

from ..db import utcnow
from ..tables.models import TableSeat
from ..tables.runtime import STANDIN_LEVEL
from .documents import deals_by_table, final_ranking, live_score, matches_of, table_status
from .models import Entry, Match, Tournament
from .results import MatchScore
from .rounds import next_slots, open_round
from .service import Stale, bump, changed_message, entries_of

log = logging.getLogger("twentynine.tournaments")

#: a table-side step to take once the tournament's step is stored: (what, table id)
TableStep = tuple[str, str]


class TournamentOwner:
    def __init__(self, app: FastAPI) -> None:
        self.app = app
        extra = app.state.settings.extra
        self.poll_seconds: float = float(extra.get("tournament_poll_seconds", 0.5))
        self.lease_seconds: float = float(extra.get("tournament_lease_seconds", 10.0))
        self.token = secrets.token_hex(8)
        self.held: dict[int, dt.datetime] = {}
        self.wakeup = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.lock = asyncio.Lock()
        self.pending: set[asyncio.Task[None]] = set()

    @property
    def maker(self) -> Any:
        return self.app.state.sessionmaker

    # -- life ----------------------------------------------------------------------------------
    async def start(self, _app: FastAPI | None = None) -> None:
        self.app.state.tables.store.deal_listeners.append(self.on_deal_end)
        self.task = asyncio.create_task(self._run(), name="tournament-owner")

    async def stop(self, _app: FastAPI | None = None) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        with contextlib.suppress(Exception):  # let another process take over at once
            async with self.maker() as db:
                await db.execute(
                    update(Tournament)
                    .where(Tournament.lease_owner == self.token)
                    .values(lease_owner="", lease_until=None)
                )
                await db.commit()

    async def _run(self) -> None:
        while True:
            try:
                await self.tick()
            except Exception:
                log.exception("tournaments: a step failed (tried again shortly)")
            self.wakeup.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wakeup.wait(), self.poll_seconds)

    def wake(self) -> None:
        self.wakeup.set()

    async def tick(self) -> None:
        async with self.maker() as db:
            rows = (
                await db.execute(
                    select(Tournament.id, Tournament.lease_owner, Tournament.lease_until).where(
                        Tournament.status == "running"
                    )
                )
            ).all()
        now = utcnow()
        for tid, owner, until in rows:
            if owner not in ("", self.token) and until is not None and until > now:
                self.held.pop(tid, None)
                continue  # another process holds it
            if await self._lease(tid):
                await self.advance(tid)

    async def _lease(self, tid: int) -> bool:
        now = utcnow()
        until = self.held.get(tid)
        if until is not None and (until - now).total_seconds() > self.lease_seconds / 2:
            return True
        new_until = now + dt.timedelta(seconds=self.lease_seconds)
        async with self.maker() as db:
            done = await db.execute(
                update(Tournament)
                .where(
                    Tournament.id == tid,
                    or_(
                        Tournament.lease_owner == self.token,
                        Tournament.lease_until.is_(None),
                        Tournament.lease_until < now,
                    ),
                )
                .values(lease_owner=self.token, lease_until=new_until)
            )
            await db.commit()
        if done.rowcount == 1:
            self.held[tid] = new_until
            return True
        self.held.pop(tid, None)
        return False

    async def kick(self, tid: int) -> None:
        """Take the next step of ``tid`` now if this process may (else its owner will)."""
        if await self._lease(tid):
            await self.advance(tid)

    async def on_deal_end(self, table_id: str) -> None:
        """A deal of a table was stored (called in the table's order: do not wait here)."""
        runtime = self.app.state.tables.tables.get(table_id)
        if runtime is not None and runtime.info.kind != "tournament":
            return  # no match is played there: no need to look (every deal's end comes here)
        task = asyncio.get_running_loop().create_task(self._deal_ended(table_id))
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def _deal_ended(self, table_id: str) -> None:
        async with self.maker() as db:
            m = await db.scalar(select(Match).where(Match.table_id == table_id))
        if m is None:
            return
        # the deal is stored (the table stored it before telling anyone): pages show the score
        await self.app.state.live.broadcast(
            {"type": "tournament_score", "tournament_id": m.tournament_id, "match_id": m.id}
        )
        with contextlib.suppress(Exception):
            await self.kick(m.tournament_id)

    # -- a step ----------------------------------------------------------------------------------
    async def advance(self, tid: int) -> None:
        async with self.lock:
            for _ in range(3):
                try:
                    table_steps, notices = await self._step(tid)
                except Stale:
                    continue
                break
            else:
                return
        for what, table_id in table_steps:
            try:
                await self._table_step(what, table_id)
            except Exception:
                log.exception("tournament %s: %s of table %s failed", tid, what, table_id)
        for user_ids, message in notices:
            if user_ids is None:
                await self.app.state.live.broadcast(message)
            else:
                await self.app.state.live.send(user_ids, message)

    async def _step(
        self, tid: int
    ) -> tuple[list[TableStep], list[tuple[list[int] | None, dict[str, Any]]]]:
        table_steps: list[TableStep] = []
        notices: list[tuple[list[int] | None, dict[str, Any]]] = []
        async with self.maker() as db:
            t = await db.get(Tournament, tid)
            if t is None or t.status != "running":
                return [], []
            entries = await entries_of(db, tid)
            teams = {e.id: e for e in entries if e.seed}
            matches = await matches_of(db, tid)
            current = [m for m in matches if m.round_no == t.current_round and m.kind != "bye"]
            tables = await table_status(db, [m.table_id for m in current if m.table_id])
            deals = await deals_by_table(
                db, [m.table_id for m in current if m.table_id and m.status != "done"]
            )
            now = utcnow()
            stepped = False
            for m in current:
                row = tables.get(m.table_id or "")
                if m.status == "done":
                    if row is not None and row.status != "closed":
                        table_steps.append(("close", row.id))
                    continue
                if row is None:
                    continue
                score = live_score(t, deals.get(row.id, []), cards=False)
                if score.decided:
                    score = live_score(t, deals[row.id])  # with the card points
                    record(m, score, t.format == "knockout", teams, now)
                    stepped = True
                    table_steps.append(("close", row.id))
                elif row.status in ("playing", "paused"):
                    if m.status == "waiting":
                        m.status = "playing"
                        stepped = True
                elif row.status == "waiting":
                    late = now >= m.opened_at + dt.timedelta(seconds=t.grace_seconds)
                    if late and t.no_show == "forfeit":
                        await forfeit(db, m, t.format == "knockout", teams, now)
                        stepped = True
                        table_steps.append(("close", row.id))
                    else:
                        table_steps.append(("fill" if late else "start", row.id))
            if all(m.status == "done" for m in current):
                # a Swiss's matching takes a while for a large field (0.1-0.2 s for 128 teams,
                # benchmarks/tournament.py): off the event loop, which the tables share
                slots = await asyncio.to_thread(next_slots, t, list(teams.values()), matches)
                if slots is None:
                    t.status = "finished"
                    t.finished_at = now
                    t.ranking = final_ranking(t, list(teams.values()), matches)
                    place = {e: p for p, e in t.ranking}
                    for e in teams.values():
                        notices.append(
                            (
                                people(e),
                                {
                                    "type": "tournament_finished",
                                    "tournament_id": t.id,
                                    "tournament": t.name,
                                    "entry_id": e.id,
                                    "place": place.get(e.id),
                                },
                            )
                        )
                else:
                    t.current_round += 1
                    new = await open_round(db, t, t.current_round, slots, teams)
                    for m in new:
                        notices += match_notices(t, m, teams)
                        if m.table_id:
                            table_steps.append(("start", m.table_id))
                stepped = True
            if stepped:
                await bump(db, t)
                await db.commit()
                notices.append((None, changed_message(t.id, t.version)))
        return table_steps, notices

    async def _table_step(self, what: str, table_id: str) -> None:
        runtime = await self.app.state.tables.get(table_id)
        if runtime is None:
            return
        if what == "close":
            if runtime.status != "closed":
                await runtime.close(None, force=True)
            return

        async def start() -> None:
            if runtime.status != "waiting":
                return
            if what == "fill":  # the grace period is over: bots play for whoever is not here
                for seat in runtime.seats:
                    if not seat.bot and not seat.joined:
                        seat.joined = True
                        seat.standin = STANDIN_LEVEL
            if all(s.bot or (s.user_id is not None and s.joined) for s in runtime.seats):
                await runtime.start_game()

        await runtime.submit(start)


def people(e: Entry) -> list[int]:
    return [u for u in (e.user_id, e.partner_id) if u is not None]


def match_notices(
    t: Tournament, m: Match, teams: dict[int, Entry]
) -> list[tuple[list[int] | None, dict[str, Any]]]:
    out: list[tuple[list[int] | None, dict[str, Any]]] = []
    if m.kind == "bye":
        e = teams[m.entry_a]
        out.append(
            (
                people(e),
                {
                    "type": "tournament_bye",
                    "tournament_id": t.id,
                    "tournament": t.name,
                    "round": m.round_no,
                    "entry_id": e.id,
                },
            )
        )
        return out
    assert m.entry_b is not None
    for mine, theirs in ((m.entry_a, m.entry_b), (m.entry_b, m.entry_a)):
        out.append(
            (
                people(teams[mine]),
                {
                    "type": "tournament_match",
                    "tournament_id": t.id,
                    "tournament": t.name,
                    "round": m.round_no,
                    "match_id": m.id,
                    "table_id": m.table_id,
                    "entry_id": mine,
                    "opponent": teams[theirs].name,
                },
            )
        )
    return out


def record(
    m: Match, score: MatchScore, knockout: bool, teams: dict[int, Entry], now: dt.datetime
) -> None:
    """Store what the table's deals decided."""
    winner = None if score.winner is None else (m.entry_a if score.winner == 0 else m.entry_b)
    if winner is None and knockout:  # cannot happen (a knockout match plays on); be safe
        winner = higher_seed(m, teams)
    set_result(m, winner, list(score.score), list(score.cards), score.deals, now)


def set_result(
    m: Match,
    winner: int | None,
    score: Sequence[int],
    cards: Sequence[int],
    deals: int,
    now: dt.datetime,
    **extra: Any,
) -> None:
    m.status = "done"
    m.winner = winner
    if winner is None:
        m.points_a = m.points_b = 0.5
    else:
        m.points_a = 1.0 if winner == m.entry_a else 0.0
        m.points_b = 1.0 - m.points_a
    m.cards_a, m.cards_b = int(cards[0]), int(cards[1])
    m.result = {"score": list(score), "deals": deals, "forfeit": False, **extra}
    m.finished_at = now


def higher_seed(m: Match, teams: dict[int, Entry]) -> int:
    a, b = teams[m.entry_a], teams[m.entry_b or m.entry_a]
    return a.id if a.seed <= b.seed else b.id


async def forfeit(
    db: Any, m: Match, knockout: bool, teams: dict[int, Entry], now: dt.datetime
) -> None:
    """The grace period is over and someone is missing: their team forfeits (both missing:
    in a knockout the higher seed goes through, elsewhere neither team scores)."""
    seats = list(await db.scalars(select(TableSeat).where(TableSeat.table_id == m.table_id)))
    missing = [False, False]
    for s in seats:
        if s.user_id is not None and not s.bot and not s.joined:
            missing[s.seat & 1] = True
    if missing == [False, False]:
        missing = [True, True]  # the table never started: nobody can be blamed more
    if missing[0] and missing[1]:
        winner = higher_seed(m, teams) if knockout else None
    else:
        winner = m.entry_b if missing[0] else m.entry_a
    set_result(m, winner, [0, 0], [0, 0], 0, now, forfeit=True)
    m.result = {**(m.result or {}), "forfeit": True}
    if winner is None:
        m.points_a = m.points_b = 0.0


def install(app: FastAPI) -> None:
    """Give the app its tournament owner (started with the app, after the tables)."""
    owner = TournamentOwner(app)
    app.state.tournaments = owner
    app.state.startup_hooks.append(owner.start)
    app.state.shutdown_hooks.append(owner.stop)
