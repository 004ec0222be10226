"""Reading what other processes committed to a table, on a connection of its own.

The fan-out (``fanout.py``) hears that a table moved on; :meth:`LogReader.catch_up` reads the
new actions from the log and replays them onto the room's state (``app/tables/replay.py``, the
server's one replay). The room applies the result under its lock (``Room.catch_up``).
"""

from __future__ import annotations

import asyncio
from typing import Any

import psycopg
from psycopg.rows import namedtuple_row
from sqlalchemy.ext.asyncio import AsyncEngine

from app.tables import live as tables_live
from app.tables import replay
from app.tables.live import LiveTable
from app.tables.replay import ReplayError
from app.tables.rows import ActionRow

# The table's version and its actions after a given seq, in one statement (so one snapshot).
# Sent as plain SQL on a dedicated autocommit connection: through the pool every read also
# cost a BEGIN and a ROLLBACK round trip, most of the fan-out's CPU in a profile.
_NEWER = """
    SELECT t.version, a.seq, a.hand_number, a.seat, a.action
    FROM tables t LEFT JOIN actions a ON a.table_id = t.id AND a.seq > %(seq)s
    WHERE t.id = %(table_id)s ORDER BY a.seq
"""


class LogReader:
    """One per process: reads the log's news for the fan-out (``Fanout.refresh``)."""

    def __init__(
        self, *, conninfo: str, db: AsyncEngine, options: dict[str, Any] | None = None
    ) -> None:
        self._conninfo = conninfo
        self._options = options or {}
        self._db = db
        self._conn: psycopg.AsyncConnection[Any] | None = None
        self._lock = asyncio.Lock()

    async def close(self) -> None:
        if self._conn is not None:
            await self._conn.close()

    async def catch_up(self, live: LiveTable) -> LiveTable | None:
        """``live`` plus what was committed after it, or None when nothing was.

        The usual change is one action in the current hand: one statement reads the version
        and the new actions together (a single statement sees a single snapshot). Only when
        that does not account for the whole version jump (a seat was taken) or a new hand
        was dealt are the seats and hands read too.
        """
        try:
            rows = await self._read_newer(live.table_id, live.seq)
        except (psycopg.Error, OSError):
            return await self._catch_up_all(live)  # the pool's connections may still work
        if not rows or rows[0].version <= live.version:
            return None
        actions = [
            ActionRow(row.seq, row.hand_number, row.seat, row.action)
            for row in rows
            if row.seq is not None
        ]
        # A host's marker may come with a seat row replaced: read the seats too.
        host_marks = any(tables_live.is_host_mark(row.action) for row in actions)
        if rows[0].version - live.version == len(actions) and not host_marks:
            try:
                after = replay.advance(live, version=rows[0].version, actions=actions)
            except ReplayError:
                after = None  # actions of a hand dealt meanwhile: read the hands too
            if after is not None and not after.needs_deal:
                return after
        return await self._catch_up_all(live)

    async def _read_newer(self, table_id: int, seq: int) -> list[Any]:
        async with self._lock:  # one connection: no two tasks may open it
            if self._conn is None or self._conn.closed:
                self._conn = await psycopg.AsyncConnection.connect(
                    self._conninfo, autocommit=True, row_factory=namedtuple_row, **self._options
                )
            reader = self._conn
        try:
            cursor = await reader.execute(_NEWER, {"table_id": table_id, "seq": seq})
            return await cursor.fetchall()
        except (psycopg.Error, OSError):
            await reader.close()
            raise

    async def _catch_up_all(self, live: LiveTable) -> LiveTable | None:
        """``live`` plus the seats, hands and actions committed after it, or None."""
        return await replay.load_newer(db_engine=self._db, live=live)
