"""web push: vapid_keys (the server's key pair), push_subscriptions (per seat) and push_sent
(one row per push sent: the exactly-once guard); hands.created_at (when a correspondence
table's first turn of a hand began)

Revision ID: b7d2e4f1a9c3
Revises: 5d2e8c41a9b7
Create Date: 2026-11-25 06:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "b7d2e4f1a9c3"
down_revision: str | None = "5d2e8c41a9b7"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _created_at() -> sa.Column[sa.DateTime]:
    return sa.Column(
        "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
    )


def upgrade() -> None:
    with op.batch_alter_table("hands") as batch:
        batch.add_column(_created_at())
    op.create_table(
        "vapid_keys",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("private_key", sa.String(length=64), nullable=False),
        sa.Column("public_key", sa.String(length=128), nullable=False),
        _created_at(),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_vapid_keys")),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("endpoint", sa.String(length=1024), nullable=False),
        sa.Column("p256dh", sa.String(length=128), nullable=False),
        sa.Column("auth", sa.String(length=64), nullable=False),
        sa.Column("lang", sa.String(length=8), nullable=False),
        _created_at(),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["tables.id"],
            name=op.f("fk_push_subscriptions_table_id_tables"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_push_subscriptions")),
        sa.UniqueConstraint(
            "table_id", "seat", "endpoint", name=op.f("uq_push_subscriptions_table_id_seat_endpoint")
        ),
    )
    op.create_table(
        "push_sent",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("subscription_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        _created_at(),
        sa.ForeignKeyConstraint(
            ["subscription_id"],
            ["push_subscriptions.id"],
            name=op.f("fk_push_sent_subscription_id_push_subscriptions"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name=op.f("fk_push_sent_table_id_tables"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_push_sent")),
        sa.UniqueConstraint(
            "subscription_id",
            "table_id",
            "version",
            "kind",
            name=op.f("uq_push_sent_subscription_id_table_id_version_kind"),
        ),
    )


def downgrade() -> None:
    op.drop_table("push_sent")
    op.drop_table("push_subscriptions")
    op.drop_table("vapid_keys")
    with op.batch_alter_table("hands") as batch:
        batch.drop_column("created_at")
