"""A table's chat: lines said at the table, stored with it (append-only).

The chat is not part of the game: it carries no version and never goes through the game's
writer, so talking can never make a move stale. A line is stored before anyone is told of it.
"""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.tables.models import ChatLine

# What a table page receives on opening; the history shows the whole chat.
RECENT_LINES = 50


class ChatRow(NamedTuple):
    id: int
    seat: int
    at: datetime
    text: str


async def add_line(*, db: AsyncEngine, table_id: int, seat: int, text: str) -> ChatRow:
    """Store one line; returns it with its id and time (the database's clock)."""
    statement = (
        insert(ChatLine)
        .values(table_id=table_id, seat=seat, text=text)
        .returning(ChatLine.id, ChatLine.seat, ChatLine.created_at, ChatLine.text)
    )
    async with db.begin() as conn:
        row = (await conn.execute(statement)).one()
    return ChatRow._make(row)


async def lines(
    *, db: AsyncEngine, table_id: int, limit: int | None = RECENT_LINES
) -> list[ChatRow]:
    """The table's last ``limit`` lines (None: all of them), oldest first."""
    query = (
        select(ChatLine.id, ChatLine.seat, ChatLine.created_at, ChatLine.text)
        .where(ChatLine.table_id == table_id)
        .order_by(ChatLine.id.desc())
    )
    if limit is not None:
        query = query.limit(limit)
    async with db.connect() as conn:
        rows = (await conn.execute(query)).all()
    return [ChatRow._make(row) for row in reversed(rows)]
