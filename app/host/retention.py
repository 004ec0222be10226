"""The operator's retention (``RETENTION_DAYS``, off by default): once a day a ``retention``
job deletes the history of every table with no action for that many days, as the host's
deletion does (``deletion.purge``: a tombstone, pages 410), and queues the next day's job.

The job's key is the day (``retention:2026-11-26``), so however many processes queue it,
it runs once a day.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from app.host.deletion import purge
from app.jobs import queue
from app.jobs.rows import BACKLOG, JobRow
from app.jobs.runner import Handler, Lease
from app.tables.models import Action, Table

RETENTION = "retention"


def retention_job(day: datetime) -> JobRow:
    start = datetime(day.year, day.month, day.day, tzinfo=UTC)
    return JobRow(RETENTION, f"{RETENTION}:{start.date().isoformat()}", priority=BACKLOG,
                  run_after=start)  # fmt: skip


async def schedule(db: AsyncEngine, now: datetime) -> None:
    """Queue today's retention job (no-op when some process queued it already)."""
    await queue.enqueue(db, retention_job(now), table_id=None, now=now)


async def expired(db: AsyncEngine, *, days: int, now: datetime) -> list[int]:
    """Tables with no action (and, without any, opened) more than ``days`` days before now."""
    last_action = (
        sa.select(sa.func.max(Action.created_at))
        .where(Action.table_id == Table.id)
        .scalar_subquery()
    )
    cutoff = now - timedelta(days=days)
    query = sa.select(Table.id).where(sa.func.coalesce(last_action, Table.created_at) < cutoff)
    async with db.connect() as conn:
        return list((await conn.scalars(query)).all())


class Retention(Handler):
    def __init__(self, db: AsyncEngine, *, days: int) -> None:
        self._db = db
        self._days = days

    async def run(self, lease: Lease) -> None:
        now = datetime.now(UTC)
        for table_id in await expired(self._db, days=self._days, now=now):
            await purge(self._db, table_id, reason="retention")
            await lease.renew()
        tomorrow = now + timedelta(days=1)
        await queue.enqueue(self._db, retention_job(tomorrow), table_id=None, now=now)
