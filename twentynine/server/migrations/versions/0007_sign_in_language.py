"""a pending sign-in keeps the page's language: a new account starts in it

Revision ID: 0007_sign_in_language
Revises: 0006_tournaments
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_sign_in_language"
down_revision: str | None = "0006_tournaments"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("login_tokens") as batch:
        batch.add_column(
            sa.Column("language", sa.String(length=8), nullable=False, server_default="")
        )


def downgrade() -> None:
    with op.batch_alter_table("login_tokens") as batch:
        batch.drop_column("language")
