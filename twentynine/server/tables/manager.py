"""The live tables of this process: loaded from the store on first use, kept in memory while
they are open, and let go of once closed and shown by no page here (``CLOSED_KEPT_S``). A
public table still waiting for players that nobody has had open for a while closes (its
lobby entry would stay for good otherwise: ``close_abandoned``)."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import time
from typing import Any

from sqlalchemy import select

from ...engine.records import RulesSpec
from ..db import utcnow
from ..settings import Settings
from .fanout import PRESENCE_TTL, TABLE_OPEN, Fanout, LocalFanout
from .models import GameTable
from .notices import TableNotices
from .runtime import Seat, TableInfo, TableRuntime, seat_name
from .store import TableStore

log = logging.getLogger("twentynine.tables")
LEASE_EVERY = 2.0
#: every so many lease rounds, the seats drawn as connected on another process are looked up
#: again: a process that died told nobody its connections went (its word lapses in Redis)
RECHECK_EVERY = max(1, round(PRESENCE_TTL / 3 / LEASE_EVERY))
#: how often the closed tables are looked at, and how long one that no page here shows stays in
#: memory (a table closes in many ways: its last person leaves, its match is decided, its game
#: ends; nothing reaches a closed table but the sockets already open on it)
SWEEP_EVERY = 30.0
CLOSED_KEPT_S = 60.0


class TableManager:
    def __init__(self, store: TableStore, settings: Settings, fanout: Fanout | None = None) -> None:
        self.store = store
        self.settings = settings
        self.fanout: Fanout = fanout or LocalFanout()
        self.tables: dict[str, TableRuntime] = {}
        self.lock = asyncio.Lock()
        self.lease_task: asyncio.Task[None] | None = None
        self.sweep_task: asyncio.Task[None] | None = None
        #: closed tables no page here shows: since when (monotonic)
        self.closed_since: dict[str, float] = {}
        #: what pages away from the tables are told (set by the app: tables/notices.py)
        self.notices: TableNotices | None = None

    async def start(self) -> None:
        """Listen to other processes and pick up every table that was in play (after a crash
        or a restart its bots, timers and next deals carry on)."""
        await self.fanout.start(self.on_remote)
        async with self.store.maker() as db:
            ids = list(
                await db.scalars(
                    select(GameTable.id).where(GameTable.status.in_(("playing", "paused")))
                )
            )
        for table_id in ids:
            with contextlib.suppress(Exception):
                await self.get(table_id)
        if not isinstance(self.fanout, LocalFanout):
            self.lease_task = asyncio.create_task(self._leases())
        self.sweep_task = asyncio.create_task(self._sweep(), name="tables-sweep")

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            try:
                await self.let_go_of_closed()
            except Exception:
                log.exception("letting go of closed tables failed")
            try:
                await self.close_abandoned()
            except Exception:
                log.exception("closing abandoned tables failed")

    async def close_abandoned(self) -> list[str]:
        """Close each public table still waiting for players that has not changed for the
        settings' ``abandoned_table_minutes`` and that no page shows (here, or on another
        process): whoever opened or joined it went away without leaving, and the lobby would
        offer it for good. Its people and the lobby's pages are told as for any close. The ids
        closed here (another process may close some: one that leads a table closes it)."""
        quiet = dt.timedelta(minutes=self.settings.abandoned_table_minutes)
        async with self.store.maker() as db:
            ids = list(
                await db.scalars(
                    select(GameTable.id).where(
                        GameTable.kind == "public",
                        GameTable.status == "waiting",
                        GameTable.updated_at < utcnow() - quiet,
                    )
                )
            )
        closed: list[str] = []
        for table_id in ids:
            here = self.tables.get(table_id)
            if here is not None and here.conns:
                continue  # its page is open here
            if await self.fanout.connected(table_id, TABLE_OPEN):
                continue  # … or on another process
            runtime = await self.get(table_id)
            if runtime is None or not runtime.leader:
                continue
            if await runtime.submit(runtime.close_if_abandoned):
                closed.append(table_id)
        return closed

    async def let_go_of_closed(self) -> None:
        """Stop and forget each closed table that no page here has shown for
        ``CLOSED_KEPT_S`` (until then a page may still show its last state)."""
        now = time.monotonic()
        for table_id, runtime in list(self.tables.items()):
            if runtime.status != "closed" or runtime.conns:
                self.closed_since.pop(table_id, None)
                continue
            since = self.closed_since.setdefault(table_id, now)
            if now - since >= CLOSED_KEPT_S:
                self.closed_since.pop(table_id, None)
                self.forget(table_id)
                with contextlib.suppress(Exception):
                    await runtime.stop()

    async def _leases(self) -> None:
        rounds = 0
        while True:
            rounds += 1
            for runtime in list(self.tables.values()):
                try:
                    await runtime.refresh_lead()
                except Exception:
                    log.exception("table %s: lease refresh failed", runtime.info.id)
                if rounds % RECHECK_EVERY == 0:
                    runtime.recheck_elsewhere()
            await asyncio.sleep(LEASE_EVERY)

    async def on_remote(self, table_id: str, message: dict[str, Any]) -> None:
        runtime = self.tables.get(table_id)
        if runtime is not None:
            await runtime.on_remote(message)

    async def get(self, table_id: str) -> TableRuntime | None:
        runtime = self.tables.get(table_id)
        if runtime is not None:
            return runtime
        async with self.lock:
            runtime = self.tables.get(table_id)
            if runtime is not None:
                return runtime
            loaded = await self.store.load(table_id)
            if loaded is None:
                return None
            row, seat_rows = loaded
            names = await self.store.names([s.user_id for s in seat_rows if s.user_id])
            seats = [Seat() for _ in range(4)]
            for s in seat_rows:
                seats[s.seat] = Seat(
                    user_id=s.user_id,
                    name=seat_name(s.user_id, s.bot, names),
                    bot=s.bot,
                    joined=s.joined,
                )
            info = TableInfo(
                id=row.id,
                kind=row.kind,
                host_id=row.host_id,
                rules_spec=RulesSpec.from_json(row.rules),
                name=row.name,
                conference_url=row.conference_url,
                spectators_see=row.spectators_see,
                takeover_seconds=row.takeover_seconds,
                turn_seconds=row.turn_seconds,
                invite_code=row.invite_code,
                rated=row.rated,
            )
            runtime = TableRuntime(
                info,
                seats,
                self.store,
                self.settings,
                row.version,
                row.status,
                row.state,
                fanout=self.fanout,
            )
            runtime.notices = self.notices
            for i, seat in enumerate(seats):  # its people's pages on other processes
                if seat.user_id is not None and not seat.bot:
                    runtime.elsewhere[i] = await self.fanout.connected_elsewhere(table_id, i)
            self.tables[table_id] = runtime
            runtime.start()
        if runtime.leader:  # one process: it runs everything this table had under way
            await runtime.submit(runtime.resume_duties)
        else:
            await runtime.refresh_lead()
            # a change the leading process stored and told between our reading the table and
            # our listing it here was dropped (``on_remote`` knew no such table): read it again
            await runtime.submit(runtime._catch_up)
        return runtime

    def forget(self, table_id: str) -> None:
        self.tables.pop(table_id, None)
        self.closed_since.pop(table_id, None)

    async def stop(self) -> None:
        for task in (self.lease_task, self.sweep_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for runtime in list(self.tables.values()):
            await runtime.stop()
        self.tables.clear()
        await self.store.close()
        await self.fanout.stop()
