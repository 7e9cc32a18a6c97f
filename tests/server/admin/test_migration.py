"""Migration 0003_accounts_admin on a database holding data from before it: accounts, a
friendship and a table survive the upgrade, the new tables work, and the downgrade undoes it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command

from twentynine.server import migrate
from twentynine.server.settings import normalise_database_url

from ..conftest import PG_URL, _database_url, _drop_database, _fresh_database


@pytest.fixture(params=["sqlite", "postgresql"] if PG_URL else ["sqlite"])
def old_database(request: pytest.FixtureRequest, tmp_path: Path):  # type: ignore[no-untyped-def]
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
        return
    name = asyncio.run(_fresh_database(PG_URL))
    yield normalise_database_url(_database_url(PG_URL, name))
    asyncio.run(_drop_database(PG_URL, name))


def _run(url: str, *statements: str) -> list[list[tuple[object, ...]]]:
    """Run SQL on the database at ``url`` (async drivers, as the app has them)."""
    from sqlalchemy.ext.asyncio import create_async_engine

    async def go() -> list[list[tuple[object, ...]]]:
        engine = create_async_engine(url)
        out: list[list[tuple[object, ...]]] = []
        async with engine.begin() as conn:
            for sql in statements:
                result = await conn.execute(sa.text(sql))
                out.append([tuple(r) for r in result] if result.returns_rows else [])
        await engine.dispose()
        return out

    return asyncio.run(go())


def test_upgrade_keeps_the_data_from_before_and_downgrades(old_database: str) -> None:
    url = old_database
    migrate.upgrade(url, "0002_live")
    _run(
        url,
        "INSERT INTO users (id, email, first_name, tier, is_admin, disabled, created_at,"
        " avatar, card_deck, table_theme, language) VALUES"
        " (1, 'ada@example.com', 'Ada', 'standard', true, false, '2026-01-01', '', 'classic',"
        " 'green', 'en'),"
        " (2, 'bea@example.com', 'Bea', 'basic', false, false, '2026-01-02', '', 'classic',"
        " 'green', 'bn')",
        "INSERT INTO friendships (id, requester_id, addressee_id, status, created_at)"
        " VALUES (1, 1, 2, 'accepted', '2026-01-03')",
    )
    migrate.upgrade(url)
    rows = _run(
        url,
        "SELECT id, email, first_name, tier, language, deleted_at FROM users ORDER BY id",
        "SELECT requester_id, addressee_id, status FROM friendships",
        "INSERT INTO tier_requests (user_id, tier, note, status, created_at)"
        " VALUES (2, 'standard', 'Friday game', 'pending', '2026-01-04')",
        "INSERT INTO friend_invitations (inviter_id, email, created_at)"
        " VALUES (2, 'nia@example.com', '2026-01-04')",
        "SELECT user_id, note, status FROM tier_requests",
    )
    assert rows[0] == [
        (1, "ada@example.com", "Ada", "standard", "en", None),
        (2, "bea@example.com", "Bea", "basic", "bn", None),
    ]
    assert rows[1] == [(1, 2, "accepted")]
    assert rows[4] == [(2, "Friday game", "pending")]

    command.downgrade(migrate.alembic_config(url), "0002_live")
    after = _run(url, "SELECT id, email FROM users ORDER BY id")
    assert after[0] == [(1, "ada@example.com"), (2, "bea@example.com")]
    with pytest.raises(Exception, match="tier_requests"):
        _run(url, "SELECT * FROM tier_requests")
    migrate.upgrade(url)  # and up again
    assert _run(url, "SELECT count(*) FROM friend_invitations")[0] == [(0,)]
