"""ratings, matchmaking and chat safety (issue 17)

Revision ID: 0005_ratings_safety
Revises: 0004_table_clock
"""

from collections.abc import Sequence

revision: str = "0005_ratings_safety"
down_revision: str | None = "0004_table_clock"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
