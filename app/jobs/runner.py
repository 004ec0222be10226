"""The job loop: claim the next job, run its kind's handler, record the outcome.

One :class:`JobRunner` per process that does background work (``python -m app.worker``, or the
web process itself when ``REVIEW_WORKERS`` > 0). It works one job at a time (a review spreads
its CPU work over the review pool itself). Idle, it waits for a ``mu_jobs`` notification
(PostgreSQL) or its poll interval, whichever comes first: one indexed query on the open jobs
per interval, nothing else.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import psycopg
import sqlalchemy.exc
from sqlalchemy.ext.asyncio import AsyncEngine

from app.jobs import queue
from app.jobs.models import FAILED
from app.jobs.queue import Claimed

log = logging.getLogger(__name__)
# What a poll raises while the database is away (down, restarting, unreachable).
_UNANSWERED = (sqlalchemy.exc.OperationalError, sqlalchemy.exc.InterfaceError)
Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


def worker_name() -> str:
    """This process's name on its leases (host, pid and a random tag: unique per start)."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"


class NotYet(Exception):  # noqa: N818 (a signal, not an error)
    """The job is not due yet: put it back until ``run_after`` (no attempt is counted)."""

    def __init__(self, run_after: datetime) -> None:
        super().__init__(run_after.isoformat())
        self.run_after = run_after


class Unrecoverable(Exception):
    """The job can never succeed (e.g. its hand is gone): failed at once, no retries."""


class LeaseLost(Exception):  # noqa: N818
    """Another worker took the job over (this one stalled past its lease): stop, write nothing."""


class Lease:
    """A claimed job's lease, renewed by its handler while it works (each progress write)."""

    def __init__(self, runner: JobRunner, job: Claimed) -> None:
        self._runner = runner
        self.job = job
        self.worker = runner.name

    async def renew(self) -> None:
        """Extend the lease. Raises LeaseLost when another worker took the job over."""
        runner = self._runner
        if not await queue.renew(
            runner.db, self.job.id, worker=self.worker, now=runner.clock(), lease=runner.lease
        ):
            raise LeaseLost(f"job {self.job.id}")


class Handler:
    """What a kind of job does: ``run`` the job; ``failed`` once it failed for good."""

    async def run(self, lease: Lease) -> None:
        raise NotImplementedError

    async def failed(self, job: Claimed, reason: str) -> None:
        """The job failed for good (its last attempt, or an unrecoverable error)."""


class JobRunner:
    def __init__(
        self,
        *,
        db_engine: AsyncEngine,
        handlers: dict[str, Handler],
        poll_seconds: float = 1.0,
        lease_seconds: float = 60.0,
        listen_url: str | None = None,
        name: str | None = None,
        clock: Clock = utc_now,
    ) -> None:
        self.db = db_engine
        self.handlers = handlers
        self.poll = poll_seconds
        self.lease = timedelta(seconds=lease_seconds)
        self.name = name or worker_name()
        self.clock = clock
        self._listen_url = listen_url  # PostgreSQL (libpq URL): LISTEN mu_jobs
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._listener: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._wake = asyncio.Event()
        self._task = asyncio.create_task(self._run(), name="jobs")
        if self._listen_url is not None:
            self._listener = asyncio.create_task(self._listen(self._listen_url), name="jobs wake")

    def wake(self) -> None:
        """A job may be waiting (this process enqueued one): look now."""
        self._wake.set()

    async def close(self) -> None:
        for task in (self._listener, self._task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def _run(self) -> None:
        away = False  # the database did not answer the last poll
        while True:
            try:
                while await self.run_once():
                    pass  # more may be waiting
                if away:
                    log.info("jobs: the database answers again")
                    away = False
            except asyncio.CancelledError:
                raise
            except (OSError, psycopg.OperationalError, *_UNANSWERED) as exc:
                # The database is away (down, restarting, unreachable): one warning when it
                # goes, one line when it is back, nothing per poll meanwhile.
                if not away:
                    log.warning(
                        "jobs: the database does not answer (%s); retrying", type(exc).__name__
                    )
                    away = True
            except Exception:  # anything else is a bug worth its traceback
                log.exception("job poll failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll)
            self._wake.clear()

    async def _listen(self, url: str) -> None:
        lost = False  # said once per outage, not per retry
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(url, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {queue.CHANNEL}")
                    if lost:
                        log.info("job wake-ups: listening again")
                        lost = False
                    async for _note in conn.notifies():
                        self._wake.set()
            except asyncio.CancelledError:
                raise
            except Exception:
                if not lost:
                    log.warning("job wake-ups: LISTEN lost, polling meanwhile")
                    lost = True
                await asyncio.sleep(max(self.poll, 5.0))

    async def run_once(self, kinds: tuple[str, ...] | None = None) -> bool:
        """Claim and run one job (of ``kinds``, default: every kind this runner handles);
        whether there was one."""
        job = await queue.claim(
            self.db,
            worker=self.name,
            now=self.clock(),
            lease=self.lease,
            kinds=kinds or tuple(self.handlers),
        )
        if job is None:
            return False
        await self.run(job)
        return True

    async def run(self, job: Claimed) -> None:
        handler = self.handlers[job.kind]
        lease = Lease(self, job)
        try:
            await handler.run(lease)
        except asyncio.CancelledError:
            raise  # shutdown: the lease runs out and another worker takes the job over
        except NotYet as later:
            await queue.later(self.db, job.id, worker=self.name, run_after=later.run_after)
            return
        except LeaseLost:
            log.warning("job %s (%s): taken over by another worker", job.id, job.kind)
            return
        except Exception as exc:
            await self._failed(handler, job, exc)
            return
        await queue.complete(self.db, job.id, worker=self.name, now=self.clock())

    async def _failed(self, handler: Handler, job: Claimed, exc: Exception) -> None:
        reason = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        final = isinstance(exc, Unrecoverable)
        if not final:
            log.error("job %s (%s) attempt %d failed: %s", job.id, job.kind, job.attempts, reason,
                      exc_info=exc)  # fmt: skip
        status = await queue.fail(
            self.db, job, worker=self.name, error=reason, now=self.clock(), final=final
        )
        if status == FAILED:
            await handler.failed(job, reason)
