"""Migration 0007 on a database holding pending sign-ins and accounts from before: a pending
sign-in gets no language (its new account will be English, as before), nothing else changes,
and the step goes back down cleanly."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa

from twentynine.server import migrate

BEFORE = "0006_tournaments"
LANGUAGE = "0007_sign_in_language"


def _columns(engine: sa.Engine) -> set[str]:
    return {c["name"] for c in sa.inspect(engine).get_columns("login_tokens")}


def test_sign_ins_from_before_get_no_language(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"  # as the server runs the migrations
    migrate.upgrade(url, BEFORE)
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'old.db'}")
    with engine.begin() as db:
        db.execute(
            sa.text(
                "INSERT INTO login_tokens (email, first_name, code_hash, link_hash, created_at,"
                " expires_at, attempts, client) VALUES ('old@example.com', 'Old', 'c', 'l',"
                " '2026-01-01 00:00:00', '2099-01-01 00:00:00', 1, '127.0.0.1')"
            )
        )
    assert "language" not in _columns(engine)

    migrate.upgrade(url, LANGUAGE)
    with engine.connect() as db:
        row = db.execute(
            sa.text("SELECT email, first_name, attempts, client, language FROM login_tokens")
        ).one()
    assert tuple(row) == ("old@example.com", "Old", 1, "127.0.0.1", "")

    from alembic import command

    command.downgrade(migrate.alembic_config(url), BEFORE)
    assert "language" not in _columns(engine)
    with engine.connect() as db:
        assert db.execute(sa.text("SELECT email FROM login_tokens")).one() == ("old@example.com",)
    migrate.upgrade(url)  # and on to the newest
    assert "language" in _columns(engine)
    engine.dispose()
