"""the live channel (issue 16)

Revision ID: 0002_live
Revises: 703face78ad6
"""

from collections.abc import Sequence

revision: str = "0002_live"
down_revision: str | None = "703face78ad6"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
