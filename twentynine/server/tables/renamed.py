"""A player who takes a new name keeps their seats: each open table where they sit shows the
new name to everyone there, on whichever process holds it, and a table named after them as
its host ("Asha's table", the name the server gives when the host gives none) is named after
the new name."""

from __future__ import annotations

import logging

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from .errors import TableError
from .manager import TableManager
from .models import GameTable
from .service import default_name, open_tables_of

log = logging.getLogger("twentynine.tables")


async def rename_at_tables(
    tables: TableManager, db: AsyncSession, user_id: int, old: str, new: str
) -> int:
    """Give ``user_id``'s seats at their open tables the name ``new`` (they were ``old``);
    how many tables changed."""
    # the two defaults: "Asha's game" (hosted) and "Asha's table" (every other kind)
    for kind, of_kind in (("hosted", GameTable.kind == "hosted"), ("", GameTable.kind != "hosted")):
        await db.execute(
            update(GameTable)
            .where(
                GameTable.host_id == user_id,
                GameTable.status != "closed",
                of_kind,
                GameTable.name == default_name(kind, old),
            )
            .values(name=default_name(kind, new))
        )
    await db.commit()
    changed = 0
    for table_id in await open_tables_of(db, user_id):
        runtime = await tables.get(table_id)
        if runtime is None:
            continue
        try:
            changed += await runtime.rename(user_id, new)
        except TableError as e:  # closed meanwhile: nothing there to rename
            log.info("table %s: seat not renamed: %s", table_id, e)
        except Exception:  # the new name is stored: the seat shows it when next loaded
            log.exception("table %s: seat not renamed", table_id)
    return changed
