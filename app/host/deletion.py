"""Deleting a table's history: by its host (a finished or abandoned table, confirmed), or by
the operator's retention job (``RETENTION_DAYS``: no action for that long).

A deleted table leaves a :class:`DeletedTable` row (its invite code, its group): its pages and
API answer 410 Gone (``gone.py``). Everything else of the table goes: the ``tables`` row and,
through the foreign keys' ``ON DELETE CASCADE``, its seats, hands, actions, hints, chat,
hand reviews, group seats and jobs.

The host's deletion is two steps: first a ``deleted`` host marker through the room's writer
(every process's room catches up with it and closes its sockets with 4410; the tombstone is
written at once, so every page answers 410 from then on), then, :data:`GRACE` later, a
``purge`` job removes the rows. The grace lets the other processes read the marker before the
rows are gone.

Group standings are read from the tables' histories, so a deleted table no longer counts in
them: the standings page says how many of the group's tables were deleted (``deleted_in``).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from app.host.service import HostRefused, host_check, seat_of
from app.jobs.rows import JobRow
from app.jobs.runner import Handler, Lease
from app.protocol.inbound import ErrorCode
from app.room.edit import Edit
from app.room.hub import Hub
from app.room.room import Room
from app.tables import live as tables_live
from app.tables.live import LiveTable
from app.tables.models import Action, DeletedTable, Table
from app.tables.rows import ActionRow
from app.tables.writer import Change, StaleWrite

PURGE = "purge"
# A table nobody acted at for this long counts as abandoned: its host may delete it.
ABANDONED_AFTER = timedelta(days=1)
# Between the host's deletion (pages 410, sockets closed) and the rows' removal.
GRACE = timedelta(seconds=10)


def purge_job(table_id: int, now: datetime) -> JobRow:
    return JobRow(PURGE, f"{PURGE}:{table_id}", run_after=now + GRACE)


async def last_activity(db: AsyncEngine, table_id: int) -> datetime | None:
    """When the table's last action was logged (or, without one, when it was opened)."""
    last_action = sa.select(sa.func.max(Action.created_at)).where(Action.table_id == table_id)
    query = sa.select(sa.func.coalesce(last_action.scalar_subquery(), Table.created_at)).where(
        Table.id == table_id
    )
    async with db.connect() as conn:
        moment = (await conn.execute(query)).scalar_one_or_none()
    if moment is not None and moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)  # SQLite keeps no zone; the app writes UTC
    return moment


async def delete(
    room: Room,
    hub: Hub,
    *,
    candidates: tuple[str | None, ...],
    host_seat_token: str | None,
    now: datetime,
) -> None:
    """The host deletes the table's history. Raises HostRefused (``not_host``,
    ``not_finished``: still played and not abandoned)."""
    db = room.store.db
    is_the_host = host_check(room, candidates)

    async def check(live: LiveTable) -> None:
        await is_the_host(live)
        last = await last_activity(db, live.table_id)
        abandoned = last is not None and now - last >= ABANDONED_AFTER
        if live.status != "over" and not abandoned:
            raise HostRefused(
                409, ErrorCode.NOT_FINISHED, "only a finished or abandoned table can be deleted"
            )

    def build(live: LiveTable) -> Edit[None]:
        by = seat_of(live, host_seat_token)
        seated = live.seats[by] if by is not None else None
        by_name = seated.name if seated is not None else None
        mark = {"type": tables_live.HOST_MARK, "event": "deleted", "by": by_name}
        after = tables_live.host_mark(live, mark)
        logged = ActionRow(after.seq, live.hand_number, -1, mark)
        return Edit(None, after, Change(actions=[logged], jobs=[purge_job(live.table_id, now)]))

    try:
        await room.apply(build, check=check)
    except StaleWrite:
        raise HostRefused(409, ErrorCode.STALE_VERSION, "the table changed; try again") from None
    # Every page answers 410 from now on; the rooms of every process closed their sockets.
    await _tombstone(db, room.live.invite_code, reason="host")
    hub.discard(room.live.invite_code)


async def _tombstone(db: AsyncEngine, invite_code: str, *, reason: str) -> None:
    group = sa.select(Table.group_id).where(Table.invite_code == invite_code).scalar_subquery()
    insert = sa.insert(DeletedTable).values(invite_code=invite_code, group_id=group, reason=reason)
    async with db.begin() as conn:
        exists = await conn.scalar(
            sa.select(DeletedTable.id).where(DeletedTable.invite_code == invite_code)
        )
        if exists is None:
            await conn.execute(insert)


async def purge(db: AsyncEngine, table_id: int, *, reason: str) -> None:
    """Delete the table and, by cascade, everything of it; leave its tombstone."""
    async with db.connect() as conn:
        code = await conn.scalar(sa.select(Table.invite_code).where(Table.id == table_id))
    if code is None:
        return  # already gone
    await _tombstone(db, code, reason=reason)
    async with db.begin() as conn:
        await conn.execute(sa.delete(Table).where(Table.id == table_id))


async def is_deleted(db: AsyncEngine, invite_code: str) -> bool:
    query = sa.select(DeletedTable.id).where(DeletedTable.invite_code == invite_code)
    async with db.connect() as conn:
        return (await conn.scalar(query)) is not None


async def deleted_in(db: AsyncEngine, group_id: int) -> int:
    """How many of the group's tables were deleted (the standings say so)."""
    query = sa.select(sa.func.count()).where(DeletedTable.group_id == group_id)
    async with db.connect() as conn:
        return int(await conn.scalar(query) or 0)


class Purger(Handler):
    """The ``purge`` job: removes a deleted table's rows once the grace is over."""

    def __init__(self, db: AsyncEngine) -> None:
        self._db = db

    async def run(self, lease: Lease) -> None:
        table_id = lease.job.table_id
        if table_id is not None:
            await purge(self._db, table_id, reason="host")
