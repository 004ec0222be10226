"""group seasons (issue 40, point 1): how a group cuts its games into seasons (the calendar
year when it has no row)

Revision ID: a40a1b2c3d4e
Revises: f3b8d2a6c41e
Create Date: 2026-11-27 22:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "a40a1b2c3d4e"
down_revision: str | None = "f3b8d2a6c41e"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "group_seasons",
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("starts", sa.String(length=400), nullable=False),
        sa.Column("every", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["groups.id"],
            name=op.f("fk_group_seasons_group_id_groups"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("group_id", name=op.f("pk_group_seasons")),
    )


def downgrade() -> None:
    op.drop_table("group_seasons")
