"""ratings, matchmaking and chat safety (issue 17)

Revision ID: 0005_ratings_safety
Revises: 0004_table_clock
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_ratings_safety"
down_revision: str | None = "0004_table_clock"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _user(column: str) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(column, sa.Integer(), nullable=False)


def _user_fk(table: str, column: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        [column], ["users.id"], name=op.f(f"fk_{table}_{column}_users"), ondelete="CASCADE"
    )


def upgrade() -> None:
    # a rated table (tables from before are not)
    with op.batch_alter_table("game_tables", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
        )

    # ratings
    op.create_table(
        "player_ratings",
        _user("user_id"),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("last_game_at", sa.DateTime(), nullable=True),
        _user_fk("player_ratings", "user_id"),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_player_ratings")),
    )
    op.create_index(op.f("ix_player_ratings_rating"), "player_ratings", ["rating"])
    op.create_table(
        "rated_games",
        sa.Column("table_id", sa.String(length=16), nullable=False),
        sa.Column("game_no", sa.Integer(), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(length=12), nullable=False),
        sa.Column("rated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "game_no", name=op.f("pk_rated_games")),
    )
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        _user("user_id"),
        sa.Column("table_id", sa.String(length=16), nullable=False),
        sa.Column("game_no", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("result", sa.String(length=8), nullable=False),
        sa.Column("reason", sa.String(length=12), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        _user_fk("rating_changes", "user_id"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_changes")),
    )
    op.create_index(op.f("ix_rating_changes_user_id"), "rating_changes", ["user_id"])

    # matchmaking
    op.create_table(
        "rated_queue",
        _user("user_id"),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("joined_at", sa.DateTime(), nullable=False),
        sa.Column("table_id", sa.String(length=16), nullable=True),
        sa.Column("matched_at", sa.DateTime(), nullable=True),
        _user_fk("rated_queue", "user_id"),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_rated_queue")),
    )
    op.create_index(op.f("ix_rated_queue_joined_at"), "rated_queue", ["joined_at"])

    # chat safety
    for name in ("chat_mutes", "user_blocks"):
        op.create_table(
            name,
            _user("owner_id"),
            _user("target_id"),
            sa.Column("created_at", sa.DateTime(), nullable=False),
            _user_fk(name, "owner_id"),
            _user_fk(name, "target_id"),
            sa.PrimaryKeyConstraint("owner_id", "target_id", name=op.f(f"pk_{name}")),
        )
        op.create_index(op.f(f"ix_{name}_target_id"), name, ["target_id"])
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer(), nullable=False),
        _user("reporter_id"),
        sa.Column("message_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(length=16), nullable=False),
        sa.Column("author_id", sa.Integer(), nullable=True),
        sa.Column("author_name", sa.String(length=60), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("reason", sa.String(length=300), nullable=False),
        sa.Column("context", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("closed_by", sa.Integer(), nullable=True),
        sa.Column("closed_at", sa.DateTime(), nullable=True),
        _user_fk("chat_reports", "reporter_id"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_reports")),
    )
    op.create_index(op.f("ix_chat_reports_message_id"), "chat_reports", ["message_id"])
    op.create_index(op.f("ix_chat_reports_status"), "chat_reports", ["status"])


def downgrade() -> None:
    op.drop_index(op.f("ix_chat_reports_status"), table_name="chat_reports")
    op.drop_index(op.f("ix_chat_reports_message_id"), table_name="chat_reports")
    op.drop_table("chat_reports")
    for name in ("user_blocks", "chat_mutes"):
        op.drop_index(op.f(f"ix_{name}_target_id"), table_name=name)
        op.drop_table(name)
    op.drop_index(op.f("ix_rated_queue_joined_at"), table_name="rated_queue")
    op.drop_table("rated_queue")
    op.drop_index(op.f("ix_rating_changes_user_id"), table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_table("rated_games")
    op.drop_index(op.f("ix_player_ratings_rating"), table_name="player_ratings")
    op.drop_table("player_ratings")
    with op.batch_alter_table("game_tables", schema=None) as batch_op:
        batch_op.drop_column("rated")
