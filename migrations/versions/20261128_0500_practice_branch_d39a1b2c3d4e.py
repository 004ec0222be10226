"""practice tables and games on an earlier game's deals (issue 39)

``tables.branch`` (JSON, null for every other table) holds the seeds and dealers of the deals a
table is dealt from (a practice table: one hand's, and the moves before the chosen moment; a
group's game on an earlier game's deals: every hand's), used as its hands are dealt
(``app/tables/live.py``, ``Branch``). Server-side only, like ``hands.seed``. Where it branched from, for the way back, is the table option ``practice``;
``tables.branched_from`` (indexed) is that hand's id, so that a hand page finds the tables that
played its deal again without a scan; ``tables.deals_of`` (indexed) is the id of the game whose
deals a group's game replays, so that the group's comparison page finds both.

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
        batch.add_column(sa.Column("deals_of", sa.Integer(), nullable=True))
        batch.create_index(batch.f("ix_tables_deals_of"), ["deals_of"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_index(batch.f("ix_tables_deals_of"))
        batch.drop_column("deals_of")
        batch.drop_index(batch.f("ix_tables_branched_from"))
        batch.drop_column("branched_from")
        batch.drop_column("branch")
