"""Since when the people at a table have been away: the bots' takeover clock, kept in the
database (``seats.away_since``) so that a new driver of the table (another process, or the
same one after a restart) continues it instead of starting it over.

Only the table's driver (``app/bots/drivers.py``) writes it; these writes do not change the
table's version (they are no part of the game).
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from app.tables.models import Seat


async def away_since(*, db: AsyncEngine, table_id: int) -> dict[int, float]:
    """The seats whose person is marked away: seat -> since when (Unix time)."""
    query = select(Seat.seat, Seat.away_since).where(
        Seat.table_id == table_id, Seat.away_since.is_not(None), Seat.is_bot.is_(False)
    )
    async with db.connect() as conn:
        rows = (await conn.execute(query)).all()
    return {seat: _unix(since) for seat, since in rows if since is not None}


async def mark(*, db: AsyncEngine, table_id: int, changes: dict[int, float | None]) -> None:
    """Mark each seat's person away since the given Unix time, or back (None)."""
    if not changes:
        return
    async with db.begin() as conn:
        for seat, since in changes.items():
            when = None if since is None else datetime.fromtimestamp(since, UTC)
            await conn.execute(
                update(Seat)
                .where(Seat.table_id == table_id, Seat.seat == seat, Seat.is_bot.is_(False))
                .values(away_since=when)
            )


def _unix(when: datetime) -> float:
    # SQLite hands back naive datetimes: they were written in UTC.
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.timestamp()
