"""The database of tables as the layers above see it: one object for the rooms to hold.

A room reads a few things itself (is this a seat's token, the host's token), reloads its
table when another process changed it, and commits every change through the one writer; the
hub loads tables and the bot runner reads deal seeds. Rather than hand each of them the database,
the session factory and the writer one by one, they get this.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncEngine

from app.db import SessionFactory
from app.tables import replay
from app.tables.live import LiveTable
from app.tables.writer import Writer


@dataclass(frozen=True, slots=True)
class Store:
    db: AsyncEngine  # short reads (token lookups, deal seeds)
    sessions: SessionFactory  # whole-table loads
    writer: Writer  # every change

    async def load(self, invite_code: str) -> LiveTable | None:
        """The table rebuilt from the database, or None for an unknown invite code."""
        return await replay.load(session_factory=self.sessions, invite_code=invite_code)

    async def newer(self, live: LiveTable) -> LiveTable | None:
        """``live`` plus what was committed after it (only the newer rows are read), or None
        when nothing was.

        On SQLite (one process, and no snapshot to read the rows and their version in) this
        is the whole table, read again.

        Raises:
            ReplayError: the rows do not continue ``live``; :meth:`load` the whole table.
        """
        if self.db.dialect.name != "postgresql":
            return await self.load(live.invite_code)
        return await replay.load_newer(db_engine=self.db, live=live)
