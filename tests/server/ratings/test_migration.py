"""Migration 0005 (ratings, matchmaking, chat safety) on a database holding data from before:
existing tables become unrated, the new tables are there and empty, and it downgrades."""

from __future__ import annotations

import asyncio
from pathlib import Path

import sqlalchemy as sa
from alembic import command

from twentynine.server import migrate
from twentynine.server.db import make_engine
from twentynine.server.settings import normalise_database_url

from ..conftest import PG_URL, _database_url, _drop_database, _fresh_database

NEW_TABLES = {
    "player_ratings",
    "rated_games",
    "rating_changes",
    "rated_queue",
    "chat_mutes",
    "user_blocks",
    "chat_reports",
}


async def run(url: str, statements: list[str]) -> list[object]:
    """Run SQL on ``url``; the first column of each statement's first row (None for writes)."""
    engine = make_engine(url)
    out: list[object] = []
    async with engine.begin() as db:
        for sql in statements:
            result = await db.execute(sa.text(sql))
            out.append(result.scalar() if result.returns_rows else None)
    await engine.dispose()
    return out


async def schema(url: str) -> tuple[set[str], set[str]]:
    """The database's tables, and the columns of game_tables."""
    engine = make_engine(url)
    async with engine.connect() as db:
        tables, columns = await db.run_sync(
            lambda c: (
                set(sa.inspect(c).get_table_names()),
                {col["name"] for col in sa.inspect(c).get_columns("game_tables")},
            )
        )
    await engine.dispose()
    return tables, columns


def check(url: str) -> None:
    url = normalise_database_url(url)
    migrate.upgrade(url, "0004_table_clock")
    asyncio.run(
        run(
            url,
            [
                "INSERT INTO users (id, email, first_name, tier, is_admin, disabled, created_at,"
                " avatar, card_deck, table_theme, language) VALUES (1, 'a@example.com', 'A',"
                " 'basic', false, false, '2026-01-01', '', 'classic', 'green', 'en')",
                "INSERT INTO game_tables (id, kind, host_id, name, rules, conference_url,"
                " spectators_see, takeover_seconds, status, version, created_at, updated_at)"
                " VALUES ('old', 'public', 1, 'Old', '{}', '', 'none', 60, 'waiting', 0,"
                " '2026-01-01', '2026-01-01')",
            ],
        )
    )
    migrate.upgrade(url)
    (rated,) = asyncio.run(run(url, ["SELECT rated FROM game_tables WHERE id = 'old'"]))
    assert rated in (False, 0)
    tables, columns = asyncio.run(schema(url))
    assert tables >= NEW_TABLES and "rated" in columns
    command.downgrade(migrate.alembic_config(url), "0004_table_clock")
    tables, columns = asyncio.run(schema(url))
    assert not NEW_TABLES & tables and "rated" not in columns
    assert asyncio.run(run(url, ["SELECT name FROM game_tables"])) == ["Old"]
    migrate.upgrade(url)


def test_0005_upgrades_a_database_with_data_and_downgrades(tmp_path: Path) -> None:
    check(f"sqlite+aiosqlite:///{tmp_path / 'm.db'}")
    if PG_URL:
        fresh = asyncio.run(_fresh_database(PG_URL))
        try:
            check(_database_url(PG_URL, fresh))
        finally:
            asyncio.run(_drop_database(PG_URL, fresh))
