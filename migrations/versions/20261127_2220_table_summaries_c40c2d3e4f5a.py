"""table summaries (issue 40): per table, the engine's results its group pages count, with
the table's version they were read at (app/groups/summaries.py); a group's all-time ratings at
a season's start (app/groups/boards.py)

Revision ID: c40c2d3e4f5a
Revises: b40b1c2d3e4f
Create Date: 2026-11-27 22:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "c40c2d3e4f5a"
down_revision: str | None = "b40b1c2d3e4f"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "table_summaries",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("format", sa.Integer(), nullable=False),
        sa.Column("summary", sa.JSON().with_variant(JSONB(), "postgresql"), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["tables.id"],
            name=op.f("fk_table_summaries_table_id_tables"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("table_id", name=op.f("pk_table_summaries")),
    )
    op.create_table(
        "group_rating_starts",
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("scope", sa.String(length=64), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("ratings", sa.JSON().with_variant(JSONB(), "postgresql"), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["groups.id"],
            name=op.f("fk_group_rating_starts_group_id_groups"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("group_id", "scope", name=op.f("pk_group_rating_starts")),
    )


def downgrade() -> None:
    op.drop_table("group_rating_starts")
    op.drop_table("table_summaries")
