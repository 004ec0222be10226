"""The ``jobs`` table: one row per piece of background work (a hand's review, a reminder).

A job is ``queued`` until a worker claims it (``running``, with a lease: ``lease_owner`` and
``lease_expires``), then ``done`` or, after ``max_attempts`` failures, ``failed`` with its
``last_error``. ``key`` makes a job unique (one review per hand, one reminder per table
version): enqueueing it twice does nothing. Only the open jobs (queued, running) are in the
claim index, so the finished history costs the worker nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, CreatedAt, Id, JsonType

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
OPEN = (QUEUED, RUNNING)
_OPEN_SQL = sa.text("status IN ('queued', 'running')")


class Job(Base):
    __tablename__ = "jobs"
    __table_args__ = (
        # The claim's index: open jobs only, in the order they are served.
        sa.Index(
            "ix_jobs_open",
            "priority",
            "run_after",
            "id",
            postgresql_where=_OPEN_SQL,
            sqlite_where=_OPEN_SQL,
        ),
    )

    id: Mapped[Id]
    kind: Mapped[str] = mapped_column(sa.String(32))
    # Unique per piece of work ("review:12:3"): a second enqueue of the same work is a no-op.
    key: Mapped[str] = mapped_column(sa.String(128), unique=True)
    # What the job is about: ids only, never a card (a review: the table and the hand number).
    table_id: Mapped[int | None] = mapped_column(
        sa.ForeignKey("tables.id", ondelete="CASCADE"), default=None, index=True
    )
    hand_number: Mapped[int | None] = mapped_column(default=None)
    version: Mapped[int | None] = mapped_column(default=None)  # the table's, for reminders
    payload: Mapped[dict[str, Any] | None] = mapped_column(JsonType, default=None)
    status: Mapped[str] = mapped_column(sa.String(16), default=QUEUED, server_default=QUEUED)
    # Higher first; within a priority, the earliest ``run_after`` first.
    priority: Mapped[int] = mapped_column(default=0, server_default="0")
    attempts: Mapped[int] = mapped_column(default=0, server_default="0")
    max_attempts: Mapped[int] = mapped_column(default=3, server_default="3")
    lease_owner: Mapped[str | None] = mapped_column(sa.String(64), default=None)
    lease_expires: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True), default=None)
    run_after: Mapped[datetime] = mapped_column(
        sa.DateTime(timezone=True), server_default=sa.func.now()
    )
    last_error: Mapped[str | None] = mapped_column(sa.String(500), default=None)
    created_at: Mapped[CreatedAt]
    updated_at: Mapped[datetime] = mapped_column(
        sa.DateTime(timezone=True), server_default=sa.func.now()
    )
