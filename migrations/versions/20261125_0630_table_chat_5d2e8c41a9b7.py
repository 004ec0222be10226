"""table chat and play again: chat (one row per line said at a table, by seat and time);
tables.next_code (the table "Play again" opened after this one, set exactly once)

Revision ID: 5d2e8c41a9b7
Revises: 9c4e1a7b3d52
Create Date: 2026-11-25 05:45:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "5d2e8c41a9b7"
down_revision: str | None = "9c4e1a7b3d52"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("CURRENT_TIMESTAMP"),
            nullable=False,
        ),
        sa.Column("text", sa.String(length=400), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    # The chat of one table in order: the table page's recent lines, the history's whole talk.
    op.create_index("ix_chat_table_id_id", "chat", ["table_id", "id"])
    # Null until someone asks to play again; then set once, by a conditional UPDATE.
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("next_code", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("next_code")
    op.drop_index("ix_chat_table_id_id", table_name="chat")
    op.drop_table("chat")
