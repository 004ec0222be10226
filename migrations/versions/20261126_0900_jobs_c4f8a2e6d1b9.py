"""jobs: background work as a queue (reviews of finished hands, correspondence reminders)
instead of scans; the reviews left pending and the correspondence tables' current turns are
enqueued here, older finished hands get their review job when somebody opens it

Revision ID: c4f8a2e6d1b9
Revises: b7d2e4f1a9c3
Create Date: 2026-11-26 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "c4f8a2e6d1b9"
down_revision: str | None = "b7d2e4f1a9c3"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_OPEN = sa.text("status IN ('queued', 'running')")


def upgrade() -> None:
    op.create_table(
        "jobs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("key", sa.String(length=128), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=True),
        sa.Column("hand_number", sa.Integer(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=True),
        sa.Column("payload", sa.JSON().with_variant(JSONB(), "postgresql"), nullable=True),
        sa.Column("status", sa.String(length=16), server_default="queued", nullable=False),
        sa.Column("priority", sa.Integer(), server_default="0", nullable=False),
        sa.Column("attempts", sa.Integer(), server_default="0", nullable=False),
        sa.Column("max_attempts", sa.Integer(), server_default="3", nullable=False),
        sa.Column("lease_owner", sa.String(length=64), nullable=True),
        sa.Column("lease_expires", sa.DateTime(timezone=True), nullable=True),
        sa.Column(
            "run_after", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.Column("last_error", sa.String(length=500), nullable=True),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.Column(
            "updated_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name=op.f("fk_jobs_table_id_tables"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_jobs")),
        sa.UniqueConstraint("key", name=op.f("uq_jobs_key")),
    )
    op.create_index(op.f("ix_jobs_table_id"), "jobs", ["table_id"])
    op.create_index(
        "ix_jobs_open",
        "jobs",
        ["priority", "run_after", "id"],
        postgresql_where=_OPEN,
        sqlite_where=_OPEN,
    )
    # Reviews the old scan had queued (or was computing when the server stopped): backlog.
    op.execute(
        "INSERT INTO jobs (kind, key, table_id, hand_number, priority)"
        " SELECT 'review', 'review:' || table_id || ':' || hand_number, table_id, hand_number, 0"
        " FROM hand_reviews WHERE status IN ('pending', 'running')"
    )
    # The turn now running at each correspondence table gets its reminder job (the job works
    # out when the turn began; a table whose game is over is done with at once).
    pace = (
        "options ->> 'pace'"
        if op.get_bind().dialect.name == "postgresql"
        else "json_extract(options, '$.pace')"
    )
    op.execute(
        "INSERT INTO jobs (kind, key, table_id, version, priority)"
        " SELECT 'reminder', 'reminder:' || id || ':' || version, id, version, 10"
        f" FROM tables WHERE {pace} = 'correspondence'"
        " AND EXISTS (SELECT 1 FROM hands WHERE hands.table_id = tables.id)"
    )


def downgrade() -> None:
    op.drop_index("ix_jobs_open", table_name="jobs")
    op.drop_index(op.f("ix_jobs_table_id"), table_name="jobs")
    op.drop_table("jobs")
