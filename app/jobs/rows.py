"""A job as the writer enqueues it with a table's commit (``Change.jobs``)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import NamedTuple

REVIEW, REMINDER = "review", "reminder"
# Priorities (higher first): work found late, a hand that just ended, a review being waited for.
BACKLOG, NORMAL, WAITED_FOR = 0, 10, 20


class JobRow(NamedTuple):
    kind: str
    key: str
    hand_number: int | None = None
    version: int | None = None
    priority: int = NORMAL
    run_after: datetime | None = None  # None: at once


def review_key(table_id: int, hand_number: int) -> str:
    return f"{REVIEW}:{table_id}:{hand_number}"


def reminder_key(table_id: int, version: int) -> str:
    return f"{REMINDER}:{table_id}:{version}"


def review_job(table_id: int, hand_number: int, priority: int = NORMAL) -> JobRow:
    """The review of a finished hand: the table and the hand number, nothing else."""
    return JobRow(REVIEW, review_key(table_id, hand_number), hand_number, priority=priority)


def reminder_job(table_id: int, version: int, run_after: datetime) -> JobRow:
    """The correspondence reminder of the turn that began at ``version`` (obsolete, and done
    without a push, once the table moved on)."""
    return JobRow(REMINDER, reminder_key(table_id, version), version=version, run_after=run_after)


# The reminder comes this long before the move time runs out (a quarter of it at most).
REMIND_BEFORE = timedelta(hours=2)


def remind_at(move_hours: float, turn_began: datetime) -> datetime:
    """When the seat to move is reminded, for a turn that began at ``turn_began``."""
    allowed = timedelta(hours=move_hours)
    return turn_began + allowed - min(REMIND_BEFORE, allowed / 4)
