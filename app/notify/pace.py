"""Correspondence tables: one reminder push before a player's time for a move runs out.

The time a turn began is read from the database (the latest action's, else the latest deal's
``created_at``), so a restart loses nothing: the next scan after it finds the same turns. Each
reminder is claimed per (subscription, table, version, "reminder") like every push, so it goes
out once however many processes scan and however often.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db import Base
from app.notify.sender import Notifier
from app.realtime.hub import Hub
from app.tables.models import Action, Hand, Table
from app.tables.options import TableOptions

log = logging.getLogger(__name__)
Clock = Callable[[], datetime]
# The reminder comes this long before the move time runs out (a quarter of it at most).
REMIND_BEFORE = timedelta(hours=2)

_TABLES = Base.metadata.tables[Table.__tablename__]
_ACTIONS = Base.metadata.tables[Action.__tablename__]
_HANDS = Base.metadata.tables[Hand.__tablename__]


def utc_now() -> datetime:
    return datetime.now(UTC)


def reminder_due(options: TableOptions, *, turn_began: datetime, now: datetime) -> bool:
    """Whether the seat to move should have been reminded by ``now``."""
    if options.pace != "correspondence":
        return False
    allowed = timedelta(hours=options.move_hours)
    return now - turn_began >= allowed - min(REMIND_BEFORE, allowed / 4)


def _aware(moment: datetime) -> datetime:
    # SQLite hands back CURRENT_TIMESTAMP without a zone; it is UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


_LAST_ACTION = (
    sa.select(sa.func.max(_ACTIONS.c.created_at))
    .where(_ACTIONS.c.table_id == _TABLES.c.id)
    .scalar_subquery()
)
_LAST_DEAL = (
    sa.select(sa.func.max(_HANDS.c.created_at))
    .where(_HANDS.c.table_id == _TABLES.c.id)
    .scalar_subquery()
)
_PLAYING = sa.select(
    _TABLES.c.invite_code, _TABLES.c.options, _LAST_ACTION.label("acted"), _LAST_DEAL.label("dealt")
).where(
    # Only correspondence tables have move times; live ones are never scanned.
    _TABLES.c.options["pace"].as_string() == "correspondence",
    _LAST_DEAL.is_not(None),
)


class Reminders:
    """Scans the correspondence tables every ``every`` seconds (``app.state.reminders``)."""

    def __init__(
        self,
        *,
        db_engine: AsyncEngine,
        hub: Hub,
        notifier: Notifier,
        clock: Clock = utc_now,
        every: float = 300.0,
    ) -> None:
        self._db = db_engine
        self._hub = hub
        self._notifier = notifier
        self._clock = clock
        self._every = every
        self._task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()

    async def scan(self) -> int:
        """Remind every absent seat whose move time is nearly up; the pushes sent."""
        now = self._clock()
        async with self._db.connect() as conn:
            rows = (await conn.execute(_PLAYING)).all()
        sent = 0
        for code, options_json, acted, dealt in rows:
            try:
                sent += await self._remind_if_due(code, options_json, acted, dealt, now)
            except Exception:  # one odd table must not keep the others' reminders back
                log.exception("correspondence reminder for table %s", code)
        return sent

    async def _remind_if_due(
        self,
        code: str,
        options_json: dict[str, object],
        acted: datetime | None,
        dealt: datetime,
        now: datetime,
    ) -> int:
        options = TableOptions.from_json(options_json)
        began = _aware(max(moment for moment in (acted, dealt) if moment is not None))
        if not reminder_due(options, turn_began=began, now=now):
            return 0
        room = await self._hub.room(code)
        if room is None:
            return 0
        snapshot = room.snapshot()
        live = snapshot.live
        seat = live.hand.to_move if live.hand is not None else None
        if live.status != "playing" or seat is None or snapshot.connected[seat]:
            return 0
        info = live.seats[seat]
        if info is None or info.bot:
            return 0
        return await self._notifier.remind(live=live, seat=seat)

    def start(self) -> None:
        self._stop = asyncio.Event()  # one per start: an app may be served again (tests)
        self._task = asyncio.get_running_loop().create_task(self._run(), name="reminders")

    async def close(self) -> None:
        """Stop scanning; a scan under way finishes first (a database read cancelled half-way
        would leave its connection unclosed)."""
        self._stop.set()
        if self._task is not None:
            await self._task

    async def _run(self) -> None:
        while not self._stop.is_set():
            try:
                await self.scan()
            except Exception:  # a database hiccup must not end the reminders for good
                log.exception("correspondence reminders")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), self._every)
