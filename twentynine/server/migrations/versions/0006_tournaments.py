"""tournaments (issue 18): tournaments, their entries, matches and the organiser's log

Revision ID: 0006_tournaments
Revises: 0005_ratings_safety
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_tournaments"
down_revision: str | None = "0005_ratings_safety"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("organiser_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("rules_text", sa.Text(), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("format", sa.String(length=12), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("team_mode", sa.String(length=12), nullable=False),
        sa.Column("match_deals", sa.Integer(), nullable=False),
        sa.Column("max_teams", sa.Integer(), nullable=False),
        sa.Column("opens_at", sa.DateTime(), nullable=True),
        sa.Column("closes_at", sa.DateTime(), nullable=True),
        sa.Column("conference_url", sa.String(length=500), nullable=False),
        sa.Column("conference_per_match", sa.Boolean(), nullable=False),
        sa.Column("entry_note", sa.Text(), nullable=False),
        sa.Column("approval", sa.Boolean(), nullable=False),
        sa.Column("no_show", sa.String(length=8), nullable=False),
        sa.Column("grace_seconds", sa.Integer(), nullable=False),
        sa.Column("third_place", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("current_round", sa.Integer(), nullable=False),
        sa.Column("ranking", sa.JSON(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("lease_owner", sa.String(length=40), nullable=False),
        sa.Column("lease_until", sa.DateTime(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=True),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["organiser_id"], ["users.id"], name=op.f("fk_tournaments_organiser_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
    )
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_tournaments_organiser_id"), ["organiser_id"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_tournaments_status"), ["status"], unique=False)

    op.create_table(
        "tournament_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("partner_id", sa.Integer(), nullable=True),
        sa.Column("bot", sa.String(length=20), nullable=False),
        sa.Column("partner_bot", sa.String(length=20), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("paid", sa.Boolean(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["partner_id"], ["users.id"], name=op.f("fk_tournament_entries_partner_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_entries_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_tournament_entries_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_entries")),
    )
    with op.batch_alter_table("tournament_entries", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_tournament_entries_partner_id"), ["partner_id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_tournament_entries_tournament_id"), ["tournament_id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_tournament_entries_user_id"), ["user_id"], unique=False
        )

    op.create_table(
        "tournament_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("action", sa.String(length=40), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_log_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_tournament_log_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_log")),
    )
    with op.batch_alter_table("tournament_log", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_tournament_log_tournament_id"), ["tournament_id"], unique=False
        )

    op.create_table(
        "tournament_matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("round_no", sa.Integer(), nullable=False),
        sa.Column("slot", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("entry_a", sa.Integer(), nullable=False),
        sa.Column("entry_b", sa.Integer(), nullable=True),
        sa.Column("table_id", sa.String(length=16), nullable=True),
        sa.Column("conference_url", sa.String(length=500), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("points_a", sa.Float(), nullable=False),
        sa.Column("points_b", sa.Float(), nullable=False),
        sa.Column("cards_a", sa.Integer(), nullable=False),
        sa.Column("cards_b", sa.Integer(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("opened_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["entry_a"],
            ["tournament_entries.id"],
            name=op.f("fk_tournament_matches_entry_a_tournament_entries"),
        ),
        sa.ForeignKeyConstraint(
            ["entry_b"],
            ["tournament_entries.id"],
            name=op.f("fk_tournament_matches_entry_b_tournament_entries"),
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_matches_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_matches")),
    )
    with op.batch_alter_table("tournament_matches", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_tournament_matches_table_id"), ["table_id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_tournament_matches_tournament_id"), ["tournament_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("tournament_matches", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_matches_tournament_id"))
        batch_op.drop_index(batch_op.f("ix_tournament_matches_table_id"))

    op.drop_table("tournament_matches")
    with op.batch_alter_table("tournament_log", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_log_tournament_id"))

    op.drop_table("tournament_log")
    with op.batch_alter_table("tournament_entries", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_entries_user_id"))
        batch_op.drop_index(batch_op.f("ix_tournament_entries_tournament_id"))
        batch_op.drop_index(batch_op.f("ix_tournament_entries_partner_id"))

    op.drop_table("tournament_entries")
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournaments_status"))
        batch_op.drop_index(batch_op.f("ix_tournaments_organiser_id"))

    op.drop_table("tournaments")
