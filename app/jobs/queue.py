"""The job queue's statements: enqueue, claim (a lease), renew, finish, retry or fail.

Exactly one worker holds a job at a time: a claim is one UPDATE of the first claimable row,
chosen on PostgreSQL with ``FOR UPDATE SKIP LOCKED`` (concurrent claimers skip each other's
rows instead of waiting), on SQLite by the one statement itself (SQLite runs writes one at a
time). A claim is a lease until ``lease_expires``; the worker renews it while it works
(each progress write) and every later write is made under its name, so a worker whose lease
was taken over (it stalled or died) changes nothing. Claimable: a ``queued`` job whose
``run_after`` has come, or a ``running`` one whose lease expired. Higher ``priority`` first,
then the earliest ``run_after``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncEngine

from app.jobs.models import DONE, FAILED, QUEUED, RUNNING, Job
from app.jobs.rows import JobRow

log = logging.getLogger(__name__)
CHANNEL = "mu_jobs"  # PostgreSQL: NOTIFY wakes idle workers at once (they poll anyway)
BACKOFF_SECONDS = (5.0, 30.0, 120.0, 600.0)  # before the 2nd, 3rd, ... attempt


@dataclass(frozen=True, slots=True)
class Claimed:
    id: int
    kind: str
    table_id: int | None
    hand_number: int | None
    version: int | None
    attempts: int  # including this one
    max_attempts: int


def backoff(attempts: int) -> timedelta:
    """How long a job that failed its ``attempts``-th time waits before the next."""
    return timedelta(seconds=BACKOFF_SECONDS[min(attempts, len(BACKOFF_SECONDS)) - 1])


def _insert(db: AsyncEngine) -> Any:
    return (postgresql.insert if db.dialect.name == "postgresql" else sqlite.insert)(Job)


async def enqueue(db: AsyncEngine, row: JobRow, *, table_id: int | None, now: datetime) -> bool:
    """Queue ``row`` unless a job with its key exists (whatever its status); whether it was."""
    values = {**row._asdict(), "table_id": table_id, "run_after": row.run_after or now}
    statement = _insert(db).values(values).on_conflict_do_nothing(index_elements=["key"])
    async with db.begin() as conn:
        return (await conn.execute(statement.returning(Job.id))).first() is not None


async def prioritize(
    db: AsyncEngine, row: JobRow, *, table_id: int | None, now: datetime
) -> str | None:
    """Somebody waits for this job: raise a queued one to ``row.priority`` (and let it run
    now), or enqueue it if there is none; the job's status afterwards (None: no job)."""
    raise_it = (
        sa.update(Job)
        .where(Job.key == row.key, Job.status == QUEUED, Job.priority < row.priority)
        .values(priority=row.priority, run_after=sa.func.least(Job.run_after, now)
                if db.dialect.name == "postgresql" else sa.func.min(Job.run_after, now),
                updated_at=now)
    )  # fmt: skip
    async with db.begin() as conn:
        changed = (await conn.execute(raise_it)).rowcount == 1
        status = (await conn.execute(sa.select(Job.status).where(Job.key == row.key))).scalar()
        if status is None:
            values = {**row._asdict(), "table_id": table_id, "run_after": now}
            insert = _insert(db).values(values).on_conflict_do_nothing(index_elements=["key"])
            changed = (await conn.execute(insert.returning(Job.id))).first() is not None
            status = QUEUED
    if changed:
        await wake(db)
    return status


async def wake(db: AsyncEngine) -> None:
    """Tell idle workers on PostgreSQL that a job is waiting (others find it by polling)."""
    if db.dialect.name != "postgresql":
        return
    try:
        async with db.begin() as conn:
            await conn.execute(sa.select(sa.func.pg_notify(CHANNEL, "")))
    except Exception:  # a lost wake-up only costs one poll interval
        log.exception("job wake-up")


def _claimable(now: datetime) -> sa.ColumnElement[bool]:
    return sa.or_(
        sa.and_(Job.status == QUEUED, Job.run_after <= now),
        sa.and_(Job.status == RUNNING, Job.lease_expires < now),
    )


async def claim(
    db: AsyncEngine,
    *,
    worker: str,
    now: datetime,
    lease: timedelta,
    kinds: tuple[str, ...] | None = None,
) -> Claimed | None:
    """Take the next claimable job for ``worker`` (each job goes to one claimer), or None."""
    first = (
        sa.select(Job.id)
        .where(_claimable(now), *(() if kinds is None else (Job.kind.in_(kinds),)))
        .order_by(Job.priority.desc(), Job.run_after, Job.id)
        .limit(1)
    )
    if db.dialect.name == "postgresql":
        first = first.with_for_update(skip_locked=True)
    statement = (
        sa.update(Job)
        .where(Job.id == first.scalar_subquery(), _claimable(now))
        .values(
            status=RUNNING,
            lease_owner=worker,
            lease_expires=now + lease,
            attempts=Job.attempts + 1,
            updated_at=now,
        )
        .returning(
            Job.id,
            Job.kind,
            Job.table_id,
            Job.hand_number,
            Job.version,
            Job.attempts,
            Job.max_attempts,
        )
    )
    async with db.begin() as conn:
        row = (await conn.execute(statement)).first()
    return None if row is None else Claimed(*row)


def _mine(job_id: int, worker: str) -> sa.ColumnElement[bool]:
    return sa.and_(Job.id == job_id, Job.status == RUNNING, Job.lease_owner == worker)


async def _update(db: AsyncEngine, job_id: int, worker: str, **values: Any) -> bool:
    statement = sa.update(Job).where(_mine(job_id, worker)).values(**values)
    async with db.begin() as conn:
        return (await conn.execute(statement)).rowcount == 1


async def renew(
    db: AsyncEngine, job_id: int, *, worker: str, now: datetime, lease: timedelta
) -> bool:
    """Extend ``worker``'s lease; False if it was taken over (stop working on it)."""
    return await _update(db, job_id, worker, lease_expires=now + lease, updated_at=now)


async def complete(db: AsyncEngine, job_id: int, *, worker: str, now: datetime) -> bool:
    return await _update(
        db, job_id, worker, status=DONE, lease_owner=None, lease_expires=None, updated_at=now
    )


async def later(db: AsyncEngine, job_id: int, *, worker: str, run_after: datetime) -> bool:
    """Put the job back until ``run_after`` without counting this attempt (not due yet)."""
    return await _update(
        db,
        job_id,
        worker,
        status=QUEUED,
        run_after=run_after,
        attempts=Job.attempts - 1,
        lease_owner=None,
        lease_expires=None,
        updated_at=sa.func.now(),
    )


async def fail(
    db: AsyncEngine, job: Claimed, *, worker: str, error: str, now: datetime, final: bool = False
) -> str | None:
    """This attempt failed: retry after a backoff, or ``failed`` for good once the attempts
    are used up or the error is ``final`` (``error`` kept either way); the new status (None:
    the lease was lost)."""
    status = FAILED if final or job.attempts >= job.max_attempts else QUEUED
    done = await _update(
        db,
        job.id,
        worker,
        status=status,
        last_error=error[:500],
        run_after=now + backoff(job.attempts),
        lease_owner=None,
        lease_expires=None,
        updated_at=now,
    )
    return status if done else None


@dataclass(frozen=True, slots=True)
class JobState:
    status: str
    last_error: str | None
    priority: int


async def state(db: AsyncEngine, key: str) -> JobState | None:
    query = sa.select(Job.status, Job.last_error, Job.priority).where(Job.key == key)
    async with db.connect() as conn:
        row = (await conn.execute(query)).first()
    return None if row is None else JobState(*row)
