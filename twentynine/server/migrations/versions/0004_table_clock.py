"""the turn clock (issue 17): a table's seconds a move (0: no clock)

Revision ID: 0004_table_clock
Revises: 0003_accounts_admin
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_table_clock"
down_revision: str | None = "0003_accounts_admin"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # tables from before had no clock: 0 for every row already there
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(
            sa.Column("turn_seconds", sa.Integer(), nullable=False, server_default="0")
        )


def downgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("turn_seconds")
