"""tier requests, invitations by mail, account data (issue 16)

Revision ID: 0003_accounts_admin
Revises: 0002_live
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_accounts_admin"
down_revision: str | None = "0002_live"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("deleted_at", sa.DateTime(), nullable=True))

    op.create_table(
        "tier_requests",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("tier", sa.String(length=20), nullable=False),
        sa.Column("note", sa.String(length=500), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("decided_at", sa.DateTime(), nullable=True),
        sa.Column("decided_by", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_tier_requests_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["decided_by"],
            ["users.id"],
            name=op.f("fk_tier_requests_decided_by_users"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tier_requests")),
    )
    with op.batch_alter_table("tier_requests", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tier_requests_user_id"), ["user_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_tier_requests_status"), ["status"], unique=False)

    op.create_table(
        "friend_invitations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("inviter_id", sa.Integer(), nullable=False),
        sa.Column("email", sa.String(length=320), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["inviter_id"],
            ["users.id"],
            name=op.f("fk_friend_invitations_inviter_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_friend_invitations")),
        sa.UniqueConstraint("inviter_id", "email", name=op.f("uq_friend_invitations_inviter_id")),
    )
    with op.batch_alter_table("friend_invitations", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_friend_invitations_email"), ["email"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_friend_invitations_inviter_id"), ["inviter_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("friend_invitations", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_friend_invitations_inviter_id"))
        batch_op.drop_index(batch_op.f("ix_friend_invitations_email"))
    op.drop_table("friend_invitations")
    with op.batch_alter_table("tier_requests", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tier_requests_status"))
        batch_op.drop_index(batch_op.f("ix_tier_requests_user_id"))
    op.drop_table("tier_requests")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("deleted_at")
