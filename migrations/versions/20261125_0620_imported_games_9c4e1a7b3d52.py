"""imported hand and game files (engine/notation.py): imported_games

Revision ID: 9c4e1a7b3d52
Revises: 7b2d4e6f8a10
Create Date: 2026-11-25 06:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "9c4e1a7b3d52"
down_revision: str | None = "7b2d4e6f8a10"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "imported_games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=64), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_imported_games")),
        sa.UniqueConstraint("code", name=op.f("uq_imported_games_code")),
    )


def downgrade() -> None:
    op.drop_table("imported_games")
