"""Stored hand reviews: progress and results, and the state a reader is shown.

Which hand is reviewed, when and by whom is the job queue's business (``app/jobs``: a review
job per finished hand, enqueued by the commit that ends it). The worker holding the job writes
the ``hand_reviews`` row under its own name (``claimed_by``): a worker whose lease was taken
over cannot overwrite the new one's progress or result.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncEngine

from app.history.models import HandReview
from app.jobs import queue
from app.jobs.models import FAILED as JOB_FAILED
from app.jobs.models import QUEUED
from app.jobs.models import RUNNING as JOB_RUNNING
from app.jobs.rows import WAITED_FOR, review_job, review_key

PENDING, RUNNING, DONE, FAILED = "pending", "running", "done", "failed"


@dataclass(frozen=True, slots=True)
class ReviewState:
    """A stored review as the API reads it."""

    status: str
    progress: int
    total: int
    result: dict[str, Any] | None
    reason: str | None = None  # why it failed, when it did


async def start(
    *, db: AsyncEngine, table_id: int, hand_number: int, worker: str, now: datetime
) -> bool:
    """The review is being computed by ``worker`` (holding its job); False if it is done."""
    values = {
        "table_id": table_id,
        "hand_number": hand_number,
        "status": RUNNING,
        "claimed_by": worker,
        "claimed_at": now,
        "progress": 0,
    }
    insert = (postgresql.insert if db.dialect.name == "postgresql" else sqlite.insert)(HandReview)
    statement = (
        insert.values(values)
        .on_conflict_do_update(
            index_elements=["table_id", "hand_number"],
            set_={"status": RUNNING, "claimed_by": worker, "claimed_at": now, "progress": 0},
            where=HandReview.status != DONE,
        )
        .returning(HandReview.id)
    )
    async with db.begin() as conn:
        return (await conn.execute(statement)).first() is not None


async def give_up(*, db: AsyncEngine, table_id: int, hand_number: int) -> None:
    """The review job failed for good: the row says so (the reason stays on the job)."""
    statement = (
        sa.update(HandReview)
        .where(
            HandReview.table_id == table_id,
            HandReview.hand_number == hand_number,
            HandReview.status != DONE,
        )
        .values(status=FAILED)
    )
    async with db.begin() as conn:
        await conn.execute(statement)


def _mine(table_id: int, hand_number: int, worker: str) -> sa.ColumnElement[bool]:
    return sa.and_(
        HandReview.table_id == table_id,
        HandReview.hand_number == hand_number,
        HandReview.status == RUNNING,
        HandReview.claimed_by == worker,
    )


async def report(
    *,
    db: AsyncEngine,
    table_id: int,
    hand_number: int,
    worker: str,
    progress: int,
    total: int,
    now: datetime,
) -> bool:
    """Progress of a claimed review (also renews the claim); False if the claim is lost."""
    statement = (
        sa.update(HandReview)
        .where(_mine(table_id, hand_number, worker))
        .values(progress=progress, total=total, claimed_at=now)
    )
    async with db.begin() as conn:
        return (await conn.execute(statement)).rowcount == 1


async def finish(
    *,
    db: AsyncEngine,
    table_id: int,
    hand_number: int,
    worker: str,
    result: dict[str, Any] | None,
) -> bool:
    """Store the result (``done``), or ``failed`` when ``result`` is None."""
    values: dict[str, Any] = {"status": DONE, "result": result}
    if result is None:
        values = {"status": FAILED}
    statement = sa.update(HandReview).where(_mine(table_id, hand_number, worker)).values(values)
    async with db.begin() as conn:
        return (await conn.execute(statement)).rowcount == 1


async def read(*, db: AsyncEngine, table_id: int, hand_number: int) -> ReviewState | None:
    """The review as a reader sees it: its job queued (or waiting for a retry) is
    ``pending``, its job failed for good is ``failed`` with the reason; otherwise the row
    (``running`` with progress, ``done`` with the result). None: no job and no row."""
    job = await queue.state(db, review_key(table_id, hand_number))
    query = sa.select(
        HandReview.status, HandReview.progress, HandReview.total, HandReview.result
    ).where(HandReview.table_id == table_id, HandReview.hand_number == hand_number)
    async with db.connect() as conn:
        row = (await conn.execute(query)).first()
    if job is not None and job.status == QUEUED and (row is None or row.status != DONE):
        return ReviewState(PENDING, 0, 0, None)
    if job is not None and job.status == JOB_FAILED:
        return ReviewState(FAILED, 0, 0, None, job.last_error)
    if row is None:
        return (
            ReviewState(RUNNING, 0, 0, None)
            if job is not None and job.status == JOB_RUNNING
            else None
        )
    return ReviewState(*row)


async def results(*, db: AsyncEngine, table_id: int) -> dict[int, dict[str, Any]]:
    """The stored results of a table's finished reviews, by hand number, in one query (the
    score sheet's summary of the game: no review is started or hurried from there)."""
    query = sa.select(HandReview.hand_number, HandReview.result).where(
        HandReview.table_id == table_id, HandReview.status == DONE
    )
    async with db.connect() as conn:
        rows = (await conn.execute(query)).all()
    return {int(row.hand_number): row.result for row in rows if row.result}


async def wanted(*, db: AsyncEngine, table_id: int, hand_number: int, now: datetime) -> None:
    """Somebody waits for this finished hand's review (its page, the API): its job goes
    before the backlog, and is enqueued if the hand has none (hands finished before the job
    queue existed get theirs this way)."""
    await queue.prioritize(
        db, review_job(table_id, hand_number, WAITED_FOR), table_id=table_id, now=now
    )
