"""Closing a table from outside it (an admin, or its host's account deleted)."""

from __future__ import annotations

from typing import Any


async def close_table(app: Any, table_id: str) -> bool:
    """Close the open table ``table_id`` for good, as its host's close does (everyone at it is
    told), and tell its people's open pages; False if there is no open table by that id."""
    tables = app.state.tables
    if table_id not in tables.tables:  # a closed table is not brought back into memory
        loaded = await tables.store.load(table_id)
        if loaded is None or loaded[0].status == "closed":
            return False
    runtime = await tables.get(table_id)
    if runtime is None or runtime.status == "closed":
        return False
    people = {s.user_id for s in runtime.seats if s.user_id is not None}
    if runtime.info.host_id is not None:
        people.add(runtime.info.host_id)
    await runtime.close(None, force=True)
    tables.forget(table_id)
    await runtime.stop()
    await app.state.live.send(
        people, {"type": "table_changed", "table_id": table_id, "status": "closed"}
    )
    return True
