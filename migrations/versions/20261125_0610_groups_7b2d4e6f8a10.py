"""groups of friends: groups, group_members (claimed names), group_seats (seats linked to a
claimed name), tables.group_id

Revision ID: 7b2d4e6f8a10
Revises: 5e7a9c1d2b36
Create Date: 2026-11-25 06:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "7b2d4e6f8a10"
down_revision: str | None = "5e7a9c1d2b36"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _created_at() -> sa.Column[object]:
    return sa.Column(
        "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
    )


def upgrade() -> None:
    op.create_table(
        "groups",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        _created_at(),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_groups")),
        sa.UniqueConstraint("code", name=op.f("uq_groups_code")),
    )
    op.create_table(
        "group_members",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=24), nullable=False),
        sa.Column("name_key", sa.String(length=24), nullable=False),
        sa.Column("claim_token_hash", sa.String(length=64), nullable=False),
        _created_at(),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["groups.id"],
            name=op.f("fk_group_members_group_id_groups"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_group_members")),
        sa.UniqueConstraint("claim_token_hash", name=op.f("uq_group_members_claim_token_hash")),
    )
    op.create_index(
        op.f("ix_group_members_name_key"), "group_members", ["name_key"], unique=False
    )
    op.create_table(
        "group_seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name_key", sa.String(length=24), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["groups.id"],
            name=op.f("fk_group_seats_group_id_groups"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["tables.id"],
            name=op.f("fk_group_seats_table_id_tables"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_group_seats")),
        sa.UniqueConstraint("table_id", "seat", name=op.f("uq_group_seats_table_id_seat")),
    )
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("group_id", sa.Integer(), nullable=True))
        batch.create_index(batch.f("ix_tables_group_id"), ["group_id"], unique=False)
        batch.create_foreign_key(
            batch.f("fk_tables_group_id_groups"), "groups", ["group_id"], ["id"], ondelete="SET NULL"
        )


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_constraint(batch.f("fk_tables_group_id_groups"), type_="foreignkey")
        batch.drop_index(batch.f("ix_tables_group_id"))
        batch.drop_column("group_id")
    op.drop_table("group_seats")
    op.drop_index(op.f("ix_group_members_name_key"), table_name="group_members")
    op.drop_table("group_members")
    op.drop_table("groups")
