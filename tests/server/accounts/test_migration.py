"""Migration 0007 on a database holding pending sign-ins and accounts from before: a pending
sign-in gets no language (its new account will be English, as before), nothing else changes,
and the step goes back down cleanly."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa

from twentynine.server import migrate

from ..migrations import columns, downgrade, sqlite_at

BEFORE = "0006_tournaments"
LANGUAGE = "0007_sign_in_language"


def test_sign_ins_from_before_get_no_language(tmp_path: Path) -> None:
    url, engine = sqlite_at(tmp_path, BEFORE)
    with engine.begin() as db:
        db.execute(
            sa.text(
                "INSERT INTO login_tokens (email, first_name, code_hash, link_hash, created_at,"
                " expires_at, attempts, client) VALUES ('old@example.com', 'Old', 'c', 'l',"
                " '2026-01-01 00:00:00', '2099-01-01 00:00:00', 1, '127.0.0.1')"
            )
        )
    assert "language" not in columns(engine, "login_tokens")

    migrate.upgrade(url, LANGUAGE)
    with engine.connect() as db:
        row = db.execute(
            sa.text("SELECT email, first_name, attempts, client, language FROM login_tokens")
        ).one()
    assert tuple(row) == ("old@example.com", "Old", 1, "127.0.0.1", "")

    downgrade(url, BEFORE)
    assert "language" not in columns(engine, "login_tokens")
    with engine.connect() as db:
        assert db.execute(sa.text("SELECT email FROM login_tokens")).one() == ("old@example.com",)
    migrate.upgrade(url)  # and on to the newest
    assert "language" in columns(engine, "login_tokens")
    engine.dispose()
