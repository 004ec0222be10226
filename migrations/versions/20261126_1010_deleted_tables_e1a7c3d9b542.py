"""deleted tables: what remains of a table whose history its host (or the retention job)
deleted, so its pages answer 410 Gone and its group's standings say a table was deleted

Revision ID: e1a7c3d9b542
Revises: d5a1e9c3f7b2
Create Date: 2026-11-26 10:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "e1a7c3d9b542"
down_revision: str | None = "d5a1e9c3f7b2"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "deleted_tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("invite_code", sa.String(length=64), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.Column(
            "deleted_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["groups.id"],
            name=op.f("fk_deleted_tables_group_id_groups"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_deleted_tables")),
        sa.UniqueConstraint("invite_code", name=op.f("uq_deleted_tables_invite_code")),
    )
    op.create_index(op.f("ix_deleted_tables_group_id"), "deleted_tables", ["group_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_deleted_tables_group_id"), table_name="deleted_tables")
    op.drop_table("deleted_tables")
