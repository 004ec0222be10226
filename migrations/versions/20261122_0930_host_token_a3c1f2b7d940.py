"""host token: tables.host_token_hash (the creator's credential for adding bots)

Revision ID: a3c1f2b7d940
Revises: ee0e844843f6
Create Date: 2026-11-22 09:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "a3c1f2b7d940"
down_revision: str | None = "ee0e844843f6"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Nullable: tables opened before this migration have no host, so nobody can add bots there.
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("host_token_hash", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("host_token_hash")
