"""The background jobs (``app/jobs``) a table's change makes due, enqueued by the room in the
change's own commit."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from app.jobs.rows import JobRow, remind_at, reminder_job, review_job
from app.tables.live import LiveTable
from app.tables.writer import Change


def jobs_due(before: LiveTable, after: LiveTable, *, version: int) -> list[JobRow]:
    """The jobs of the change ``before`` → ``after`` (committed as ``version``):

    - a hand ended (the engine recorded its row on the sheet): its review;
    - a correspondence table in play whose turn (re)started (an action or a deal): the
      reminder of that turn, due shortly before its move time runs out.
    """
    jobs = []
    if len(after.game.rows) > len(before.game.rows):
        jobs.append(review_job(after.table_id, before.hand_number))
    options = after.options
    # A pause marker (a holiday, a vote) moves the log on, not the game.
    marked = after.game is before.game and after.pause != before.pause
    moved = not marked and (after.seq != before.seq or after.hand_number != before.hand_number)
    if (
        moved
        and options.pace == "correspondence"
        and after.status == "playing"
        and after.hand is not None
        and after.hand.to_move is not None
    ):
        at = remind_at(options.move_hours, datetime.now(UTC))
        jobs.append(reminder_job(after.table_id, version, at))
    return jobs


def with_jobs_due(before: LiveTable, after: LiveTable, change: Change) -> Change:
    """``change`` (``before`` → ``after``, the next version) with the jobs it makes due."""
    jobs = jobs_due(before, after, version=before.version + 1)
    return replace(change, jobs=[*change.jobs, *jobs]) if jobs else change
