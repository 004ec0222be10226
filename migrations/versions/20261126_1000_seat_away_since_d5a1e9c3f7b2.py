"""seats.away_since: when the person in a seat went away, so that the bots' takeover clock
continues on a new driver (another process, a restart) instead of starting over

Revision ID: d5a1e9c3f7b2
Revises: c4f8a2e6d1b9
Create Date: 2026-11-26 10:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "d5a1e9c3f7b2"
down_revision: str | None = "c4f8a2e6d1b9"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("away_since", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("away_since")
