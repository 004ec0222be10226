"""Stored hand reviews: the queue of finished hands to review, claims, progress, results.

Exactly once across processes: a hand gets its ``pending`` row by an INSERT that does nothing
when the row is there, and a process works on it only after a conditional UPDATE from
``pending`` (or from a ``running`` claim older than the stale limit: its process died) to
``running`` under its own name changed one row.  Progress and the result are written under
the same name, so a process whose claim was taken over cannot overwrite the new claimant.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncEngine

from app.history.models import HandReview
from app.tables.models import Hand, Table

PENDING, RUNNING, DONE, FAILED = "pending", "running", "done", "failed"


class Candidate(NamedTuple):
    """A hand without a review row, and its table's version when it was read."""

    table_id: int
    invite_code: str
    hand_number: int
    version: int


class Claimable(NamedTuple):
    table_id: int
    invite_code: str
    hand_number: int


@dataclass(frozen=True, slots=True)
class ReviewState:
    """A stored review as the API reads it."""

    status: str
    progress: int
    total: int
    result: dict[str, Any] | None


async def unreviewed(*, db: AsyncEngine, limit: int) -> list[Candidate]:
    """Hands (oldest first) that have no review row yet: finished or still being played."""
    query = (
        sa.select(Hand.table_id, Table.invite_code, Hand.number, Table.version)
        .join(Table, Table.id == Hand.table_id)
        .outerjoin(
            HandReview,
            sa.and_(HandReview.table_id == Hand.table_id, HandReview.hand_number == Hand.number),
        )
        .where(HandReview.id.is_(None))
        .order_by(Hand.id)
        .limit(limit)
    )
    async with db.connect() as conn:
        return [Candidate._make(row) for row in await conn.execute(query)]


async def add_pending(*, db: AsyncEngine, table_id: int, hand_number: int) -> None:
    """The row of a finished hand, ``pending``; nothing if it is there already."""
    values = {"table_id": table_id, "hand_number": hand_number, "status": PENDING}
    insert = (postgresql.insert if db.dialect.name == "postgresql" else sqlite.insert)(HandReview)
    statement = insert.values(values).on_conflict_do_nothing(
        index_elements=["table_id", "hand_number"]
    )
    async with db.begin() as conn:
        await conn.execute(statement)


def _claimable_where(stale_before: datetime) -> sa.ColumnElement[bool]:
    return sa.or_(
        HandReview.status == PENDING,
        sa.and_(HandReview.status == RUNNING, HandReview.claimed_at < stale_before),
    )


async def claimable(*, db: AsyncEngine, stale_before: datetime, limit: int) -> list[Claimable]:
    """Pending reviews and abandoned claims, oldest first."""
    query = (
        sa.select(HandReview.table_id, Table.invite_code, HandReview.hand_number)
        .join(Table, Table.id == HandReview.table_id)
        .where(_claimable_where(stale_before))
        .order_by(HandReview.id)
        .limit(limit)
    )
    async with db.connect() as conn:
        return [Claimable._make(row) for row in await conn.execute(query)]


async def claim(
    *,
    db: AsyncEngine,
    table_id: int,
    hand_number: int,
    worker: str,
    now: datetime,
    stale_before: datetime,
) -> bool:
    """Take the review for ``worker``: True for exactly one of several claimants."""
    statement = (
        sa.update(HandReview)
        .where(
            HandReview.table_id == table_id,
            HandReview.hand_number == hand_number,
            _claimable_where(stale_before),
        )
        .values(status=RUNNING, claimed_by=worker, claimed_at=now, progress=0)
    )
    async with db.begin() as conn:
        return (await conn.execute(statement)).rowcount == 1


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
    query = sa.select(
        HandReview.status, HandReview.progress, HandReview.total, HandReview.result
    ).where(HandReview.table_id == table_id, HandReview.hand_number == hand_number)
    async with db.connect() as conn:
        row = (await conn.execute(query)).first()
    return None if row is None else ReviewState(*row)
