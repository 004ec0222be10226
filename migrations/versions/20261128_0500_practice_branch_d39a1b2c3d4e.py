"""practice tables (issue 39): a table may be opened on a finished hand at one moment

``tables.branch`` (JSON, null for every other table) holds the seed and dealer of the hand the
practice table branched from and the moves before that moment; the table deals its first hand
from them when its seats are taken (``app/tables/live.py``, ``Branch``). Server-side only, like
``hands.seed``. Where it branched from, for the way back, is the table option ``practice``;
``tables.branched_from`` (indexed) is that hand's id, so that a hand page finds the tables that
played its deal again without a scan.

Revision ID: d39a1b2c3d4e
Revises: c40c2d3e4f5a
Create Date: 2026-11-28 05:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "d39a1b2c3d4e"
down_revision: str | None = "c40c2d3e4f5a"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        json = sa.JSON().with_variant(JSONB(), "postgresql")
        batch.add_column(sa.Column("branch", json, nullable=True))
        batch.add_column(sa.Column("branched_from", sa.Integer(), nullable=True))
        batch.create_index(batch.f("ix_tables_branched_from"), ["branched_from"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_index(batch.f("ix_tables_branched_from"))
        batch.drop_column("branched_from")
        batch.drop_column("branch")
