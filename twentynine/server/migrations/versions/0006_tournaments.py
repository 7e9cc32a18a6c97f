"""tournaments (issue 18)

Revision ID: 0006_tournaments
Revises: 0005_ratings_safety
"""

from collections.abc import Sequence

revision: str = "0006_tournaments"
down_revision: str | None = "0005_ratings_safety"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
