"""Stored beginner hints: one row per decision a seat asked about (``app/room/hints.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncEngine

from app.tables.models import Hint


async def record(
    *,
    db: AsyncEngine,
    table_id: int,
    hand_number: int,
    seat: int,
    seq: int,
    action: Mapping[str, Any],
) -> None:
    """Note a hint; asking again for the same decision adds nothing."""
    insert = (postgresql.insert if db.dialect.name == "postgresql" else sqlite.insert)(Hint)
    statement = insert.values(
        table_id=table_id, hand_number=hand_number, seat=seat, seq=seq, action=dict(action)
    ).on_conflict_do_nothing(index_elements=["table_id", "hand_number", "seat", "seq"])
    async with db.begin() as conn:
        await conn.execute(statement)


async def taken(*, db: AsyncEngine, table_id: int) -> dict[int, dict[int, int]]:
    """Hints per hand number and seat: ``{hand: {seat: count}}``."""
    query = (
        sa.select(Hint.hand_number, Hint.seat, sa.func.count())
        .where(Hint.table_id == table_id)
        .group_by(Hint.hand_number, Hint.seat)
    )
    out: dict[int, dict[int, int]] = {}
    async with db.connect() as conn:
        for hand, seat, count in await conn.execute(query):
            out.setdefault(hand, {})[seat] = count
    return out


def seats_per_row(hints: dict[int, dict[int, int]], rows: int) -> list[list[int]]:
    """For a score sheet of ``rows`` hands: the seats that took hints in each."""
    return [sorted(hints.get(number, {})) for number in range(1, rows + 1)]
