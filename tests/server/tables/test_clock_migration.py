"""Migration 0004 on a database holding tables from before: each gets no clock (0), nothing
else changes, and the step goes back down cleanly."""

from __future__ import annotations

import json
from pathlib import Path

import sqlalchemy as sa

from twentynine.server import migrate

from ..migrations import columns, downgrade, sqlite_at

BEFORE = "0003_accounts_admin"
CLOCK = "0004_table_clock"


def test_tables_from_before_get_no_clock(tmp_path: Path) -> None:
    url, engine = sqlite_at(tmp_path, BEFORE)
    state = {"dealer": 1, "deck": [], "actions": [], "standins": {"2": "intermediate"}}
    with engine.begin() as db:
        db.execute(
            sa.text(
                "INSERT INTO game_tables (id, kind, name, rules, conference_url, spectators_see,"
                " takeover_seconds, status, version, state, created_at, updated_at) VALUES"
                " ('old1', 'public', 'Old', :rules, '', 'none', 60, 'playing', 7, :state,"
                " '2026-01-01 00:00:00', '2026-01-01 00:00:00')"
            ),
            {
                "rules": json.dumps({"preset": "standard", "options": {}}),
                "state": json.dumps(state),
            },
        )
    assert "turn_seconds" not in columns(engine, "game_tables")

    migrate.upgrade(url, CLOCK)
    with engine.connect() as db:
        row = db.execute(sa.text("SELECT turn_seconds, version, state FROM game_tables")).one()
    assert row.turn_seconds == 0 and row.version == 7 and json.loads(row.state) == state

    downgrade(url, BEFORE)
    assert "turn_seconds" not in columns(engine, "game_tables")
    with engine.connect() as db:
        assert db.execute(sa.text("SELECT id, version FROM game_tables")).one() == ("old1", 7)
    migrate.upgrade(url)  # and on to the newest
    assert "turn_seconds" in columns(engine, "game_tables")
    engine.dispose()
