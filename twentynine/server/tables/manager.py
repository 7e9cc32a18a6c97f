"""The live tables of this process: loaded from the store on first use, kept in memory."""

from __future__ import annotations

import asyncio

from ...engine.records import RulesSpec
from ..settings import Settings
from .runtime import Seat, TableInfo, TableRuntime
from .store import TableStore


class TableManager:
    def __init__(self, store: TableStore, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.tables: dict[str, TableRuntime] = {}
        self.lock = asyncio.Lock()

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
                    name=s.bot.capitalize()
                    if s.bot and not s.bot.startswith("http")
                    else ("Bot" if s.bot else names.get(s.user_id or 0, "")),
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
                invite_code=row.invite_code,
            )
            runtime = TableRuntime(
                info, seats, self.store, self.settings, row.version, row.status, row.state
            )
            self.tables[table_id] = runtime
            runtime.start()
            return runtime

    def forget(self, table_id: str) -> None:
        self.tables.pop(table_id, None)

    async def stop(self) -> None:
        for runtime in list(self.tables.values()):
            await runtime.stop()
        self.tables.clear()
