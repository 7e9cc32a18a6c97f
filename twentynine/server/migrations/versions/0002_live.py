"""the live channel (issue 16): each person's recent messages for catch-up, their counter, and
the notice preferences

Revision ID: 0002_live
Revises: 703face78ad6
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002_live"
down_revision: str | None = "703face78ad6"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "live_streams",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("last_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_live_streams_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_live_streams")),
    )
    op.create_table(
        "live_messages",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_live_messages_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_id", "id", name=op.f("pk_live_messages")),
    )
    with op.batch_alter_table("live_messages", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_live_messages_created_at"), ["created_at"], unique=False
        )
    op.create_table(
        "live_prefs",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("sound", sa.Boolean(), nullable=False),
        sa.Column("notify", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_live_prefs_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_live_prefs")),
    )


def downgrade() -> None:
    op.drop_table("live_prefs")
    with op.batch_alter_table("live_messages", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_live_messages_created_at"))
    op.drop_table("live_messages")
    op.drop_table("live_streams")
