"""tables.short_code: six characters from an unambiguous alphabet that the table display shows
to be typed on the home page or after /j/ (issue 38, point 5); every existing table gets one

Revision ID: f3b8d2a6c41e
Revises: e1a7c3d9b542
Create Date: 2026-11-27 19:00:00
"""

import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "f3b8d2a6c41e"
down_revision: str | None = "e1a7c3d9b542"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# As app/tables/tokens.py (a migration does not import the app: it must not change later).
_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
_LENGTH = 6


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("short_code", sa.String(length=8), nullable=True))
    tables = sa.table("tables", sa.column("id", sa.Integer), sa.column("short_code", sa.String))
    conn = op.get_bind()
    taken: set[str] = set()
    for (table_id,) in conn.execute(sa.select(tables.c.id)).all():
        code = ""
        while not code or code in taken:
            code = "".join(secrets.choice(_ALPHABET) for _ in range(_LENGTH))
        taken.add(code)
        conn.execute(tables.update().where(tables.c.id == table_id).values(short_code=code))
    with op.batch_alter_table("tables") as batch:
        batch.alter_column("short_code", existing_type=sa.String(length=8), nullable=False)
        batch.create_unique_constraint(op.f("uq_tables_short_code"), ["short_code"])


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_constraint(op.f("uq_tables_short_code"), type_="unique")
        batch.drop_column("short_code")
