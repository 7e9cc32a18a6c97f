"""What the tests of a single migration on a SQLite file share: the file brought to a revision
(as the server runs the migrations), a table's columns, and a step back down."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import command

from twentynine.server import migrate


def sqlite_at(tmp_path: Path, revision: str) -> tuple[str, sa.Engine]:
    """A new database file migrated up to ``revision``: the server's URL for it, and a plain
    engine on it to write the rows from before and read them back."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
    migrate.upgrade(url, revision)
    return url, sa.create_engine(f"sqlite:///{tmp_path / 'old.db'}")


def columns(engine: sa.Engine, table: str) -> set[str]:
    return {c["name"] for c in sa.inspect(engine).get_columns(table)}


def downgrade(url: str, revision: str) -> None:
    command.downgrade(migrate.alembic_config(url), revision)
