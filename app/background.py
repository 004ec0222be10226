"""The job loop of a process: its handlers (reviews, reminders, the deleted tables' purge,
the retention job) on the process's database."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings, libpq_url
from app.history.review_worker import ReviewWorker
from app.host import retention
from app.host.deletion import PURGE, Purger
from app.jobs.rows import REMINDER, REVIEW
from app.jobs.runner import JobRunner
from app.notify.pace import Reminders
from app.notify.sender import Notifier
from app.room.hub import Hub
from app.tables.store import Store


@dataclass
class Jobs:
    runner: JobRunner
    reviews: ReviewWorker
    reminders: Reminders
    # RETENTION_DAYS: today's retention job is queued at start (then each day by the job).
    retention_days: int | None = None
    _scheduled: set[asyncio.Task[None]] = field(default_factory=set)

    def start(self) -> None:
        self.runner.start()
        if self.retention_days is not None:
            task = asyncio.get_running_loop().create_task(
                retention.schedule(self.runner.db, datetime.now(UTC))
            )
            self._scheduled.add(task)
            task.add_done_callback(self._scheduled.discard)

    async def close(self) -> None:
        await self.runner.close()
        await self.reviews.close()


def build(
    settings: Settings,
    *,
    db_engine: AsyncEngine,
    notifier: Notifier,
    processes: int,
    hub: Hub | None = None,
    store: Store | None = None,
) -> Jobs:
    """The job loop and its handlers; ``hub``: the web process's rooms (presence for the
    reminders), ``store``: how a worker without rooms loads a table."""
    reviews = ReviewWorker(
        db_engine=db_engine, processes=processes, idle=settings.review_priority == "idle"
    )
    reminders = Reminders(db_engine=db_engine, notifier=notifier, hub=hub, store=store)
    runner = JobRunner(
        db_engine=db_engine,
        handlers={
            REVIEW: reviews,
            REMINDER: reminders,
            PURGE: Purger(db_engine),
            **(
                {retention.RETENTION: retention.Retention(db_engine, days=settings.retention_days)}
                if settings.retention_days is not None
                else {}
            ),
        },
        poll_seconds=settings.job_poll_seconds,
        lease_seconds=settings.job_lease_seconds,
        listen_url=libpq_url(settings.direct_url) if settings.uses_postgres else None,
    )
    return Jobs(runner, reviews, reminders, settings.retention_days)
