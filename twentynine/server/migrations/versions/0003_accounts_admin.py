"""tier requests, invitations by mail, account data (issue 16)

Revision ID: 0003_accounts_admin
Revises: 0002_live
"""

from collections.abc import Sequence

revision: str = "0003_accounts_admin"
down_revision: str | None = "0002_live"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
