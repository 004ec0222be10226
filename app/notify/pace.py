"""Correspondence tables: one reminder push before a player's time for a move runs out.

The commit that starts a turn at a correspondence table enqueues that turn's ``reminder`` job
(``app/jobs``), due shortly before the move time runs out; nothing scans the tables. When the
job runs, it is obsolete if a later turn has its own reminder job (the table moved on), and
put back if its turn began later than the job thought (the time a turn began is read from the
database: the latest action's, else the latest deal's ``created_at``, so a restart loses
nothing; a pause marker begins no turn). A seat on holiday (``app/room/pause.py``) is not
reminded: the job puts itself back to the holiday's end and reminds then, if it is still
that seat's turn; nothing scans the tables for holidays. Each reminder push is also claimed
per (subscription, table, version, "reminder") like every push, so it goes out once however
many workers run.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db import Base
from app.jobs.models import Job
from app.jobs.rows import REMIND_BEFORE, REMINDER, remind_at
from app.jobs.runner import Clock, Handler, JobRunner, Lease, NotYet, utc_now
from app.notify.sender import Notifier
from app.room.hub import Hub
from app.tables.models import Action, Hand, Table
from app.tables.options import TableOptions
from app.tables.pausing import PAUSE_MARK
from app.tables.store import Store

log = logging.getLogger(__name__)
__all__ = ["REMIND_BEFORE", "Reminders", "reminder_due"]

_TABLES = Base.metadata.tables[Table.__tablename__]
_ACTIONS = Base.metadata.tables[Action.__tablename__]
_HANDS = Base.metadata.tables[Hand.__tablename__]


def reminder_due(options: TableOptions, *, turn_began: datetime, now: datetime) -> bool:
    """Whether the seat to move should have been reminded by ``now``."""
    if options.pace != "correspondence":
        return False
    return now >= remind_at(options.move_hours, turn_began)


def _aware(moment: datetime) -> datetime:
    # SQLite hands back CURRENT_TIMESTAMP without a zone; it is UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _turn_query(table_id: int) -> sa.Select[Any]:
    # One table, through its (table_id, ...) unique indexes: never a scan of other tables.
    # A pause marker (a holiday set, a vote) begins no turn.
    marker = sa.func.coalesce(_ACTIONS.c.action["type"].as_string(), "")
    acted = sa.select(sa.func.max(_ACTIONS.c.created_at)).where(
        _ACTIONS.c.table_id == table_id, marker != PAUSE_MARK
    )
    dealt = sa.select(sa.func.max(_HANDS.c.created_at)).where(_HANDS.c.table_id == table_id)
    return sa.select(
        _TABLES.c.invite_code,
        _TABLES.c.options,
        _TABLES.c.version,
        acted.scalar_subquery(),
        dealt.scalar_subquery(),
    ).where(_TABLES.c.id == table_id)


class Reminders(Handler):
    """The ``reminder`` jobs' handler (``app.state.reminders``). ``hub``: the web process's
    rooms, whose presence says who is at the table; a worker without one reads the table from
    the database and reminds the seat to move whether or not its page is open."""

    def __init__(
        self,
        *,
        db_engine: AsyncEngine,
        notifier: Notifier,
        hub: Hub | None = None,
        store: Store | None = None,
        clock: Clock = utc_now,
    ) -> None:
        self._db = db_engine
        self._hub = hub
        self._store = store if store is not None else (hub.store if hub is not None else None)
        self._notifier = notifier
        self._clock = clock
        self.sent = 0  # reminder pushes sent by this handler

    async def scan(self) -> int:
        """Run the reminder jobs due by the clock's ``now`` (tests; the job loop does this in
        service); the pushes sent."""
        runner = JobRunner(db_engine=self._db, handlers={REMINDER: self}, clock=self._clock)
        before = self.sent
        while await runner.run_once():
            pass
        return self.sent - before

    async def run(self, lease: Lease) -> None:
        job = lease.job
        assert job.table_id is not None and job.version is not None
        if await self._obsolete(job.table_id, job.version):
            return
        async with self._db.connect() as conn:
            row = (await conn.execute(_turn_query(job.table_id))).first()
        if row is None:
            return  # the table is gone
        code, options_json, _version, acted, dealt = row
        options = TableOptions.from_json(options_json)
        if options.pace != "correspondence" or dealt is None:
            return
        began = _aware(max(moment for moment in (acted, dealt) if moment is not None))
        due = remind_at(options.move_hours, began)
        if self._clock() < due:
            raise NotYet(due)
        self.sent += await self._remind(code)

    async def _obsolete(self, table_id: int, version: int) -> bool:
        """A later turn of the table has its reminder job: this one's turn is over."""
        newer = sa.select(Job.id).where(
            Job.table_id == table_id, Job.kind == REMINDER, Job.version > version
        )
        async with self._db.connect() as conn:
            return (await conn.execute(newer.limit(1))).first() is not None

    async def _remind(self, code: str) -> int:
        if self._hub is not None:
            room = await self._hub.room(code)
            if room is None:
                return 0
            snapshot = room.snapshot()
            live, connected = snapshot.live, snapshot.connected
        else:
            assert self._store is not None
            loaded = await self._store.load(code)
            if loaded is None:
                return 0
            live, connected = loaded, (False,) * loaded.options.players
        seat = live.hand.to_move if live.hand is not None else None
        if live.status != "playing" or seat is None or connected[seat]:
            return 0
        until = live.pause.holiday_until(seat, self._clock().timestamp())
        if until is not None:  # on holiday: reminded (if still their turn) when it ends
            raise NotYet(datetime.fromtimestamp(until, UTC))
        info = live.seats[seat]
        if info is None or info.bot:
            return 0
        return await self._notifier.remind(live=live, seat=seat)
