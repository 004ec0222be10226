"""``python -m app.worker``: run the background jobs (hand reviews, correspondence reminders)
without serving HTTP, against the same ``DATABASE_URL`` as the web processes.

Run as many as wanted, on any machine that reaches the database: each claims its own jobs
(PostgreSQL ``FOR UPDATE SKIP LOCKED``), and a worker that dies leaves its job to another once
the lease runs out. The web processes then run with ``REVIEW_WORKERS=0``. The review pool has
``REVIEW_WORKERS`` processes here too (at least 1). SIGTERM/SIGINT stop it: the job under way
is abandoned and taken over by another worker after ``JOB_LEASE_SECONDS``.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal

from app import background, db
from app import logging as log
from app.config import Settings
from app.migrate import upgrade_head
from app.notify.sender import Notifier
from app.tables.store import Store
from app.tables.writer import create_writer


async def run(settings: Settings, stop: asyncio.Event | None = None) -> None:
    """Run the job loop until ``stop`` is set (or SIGTERM/SIGINT)."""
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    options = settings.psycopg_options()
    db_engine = db.create_engine(
        settings.connection_url, pool_size=settings.db_pool_size, options=options
    )
    sessions = db.create_session_factory(db_engine)
    # Reminders load tables through a store; this process never commits to a table.
    writer = create_writer(
        database_url=settings.connection_url,
        db_engine=db_engine,
        pool_size=1,
        options=options,
    )
    notifier = Notifier(db_engine=db_engine, settings=settings)
    jobs = background.build(
        settings,
        db_engine=db_engine,
        notifier=notifier,
        processes=max(1, settings.review_workers),
        store=Store(db=db_engine, sessions=sessions, writer=writer),
    )
    try:
        await notifier.keys()
        jobs.start()
        log.event("worker_started", worker=jobs.runner.name)
        await stop.wait()
    finally:
        await jobs.close()
        await notifier.close()
        await writer.close()
        await db_engine.dispose()
        log.event("worker_stopped", worker=jobs.runner.name)


def main() -> None:
    settings = Settings()
    log.configure(settings.log_level, settings.log_format)
    upgrade_head(settings.direct_url)
    asyncio.run(run(settings))


if __name__ == "__main__":
    main()
