"""the turn clock (issue 17)

Revision ID: 0004_table_clock
Revises: 0003_accounts_admin
"""

from collections.abc import Sequence

revision: str = "0004_table_clock"
down_revision: str | None = "0003_accounts_admin"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
