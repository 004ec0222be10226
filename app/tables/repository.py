"""Database reads and writes for tables (keyword-only functions over an AsyncSession).

Every change to a table goes through :func:`commit_change`, which bumps ``tables.version``
under a compare-and-set guard and writes the new rows in the same transaction: if another
writer got there first, nothing is written and :class:`StaleWrite` is raised.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import SessionFactory
from app.tables.models import Action, Hand, Seat, Table


class StaleWrite(Exception):
    """The table changed in the database since this process last read it."""


@dataclass(frozen=True, slots=True)
class TableRows:
    """Everything needed to rebuild a table by replaying it through the engine."""

    table: Table
    seats: Sequence[Seat]
    hands: Sequence[Hand]
    actions: Sequence[Action]


async def create_table(
    *, session: AsyncSession, invite_code: str, options: dict[str, Any]
) -> Table:
    table = Table(invite_code=invite_code, options=options, version=0)
    session.add(table)
    await session.flush()
    return table


async def load_table(*, session: AsyncSession, invite_code: str) -> TableRows | None:
    table = await session.scalar(select(Table).where(Table.invite_code == invite_code))
    if table is None:
        return None
    seats = await session.scalars(select(Seat).where(Seat.table_id == table.id).order_by(Seat.seat))
    hands = await session.scalars(
        select(Hand).where(Hand.table_id == table.id).order_by(Hand.number)
    )
    actions = await session.scalars(
        select(Action).where(Action.table_id == table.id).order_by(Action.seq)
    )
    return TableRows(table, seats.all(), hands.all(), actions.all())


async def _bump_version(*, session: AsyncSession, table_id: int, expected: int) -> None:
    result = await session.execute(
        update(Table)
        .where(Table.id == table_id, Table.version == expected)
        .values(version=expected + 1)
    )
    if result.rowcount != 1:  # type: ignore[attr-defined]
        raise StaleWrite(f"table {table_id} is no longer at version {expected}")


async def commit_change(
    *,
    session_factory: SessionFactory,
    table_id: int,
    expected_version: int,
    rows: Sequence[Seat | Hand | Action],
) -> int:
    """Write ``rows`` and bump the table's version in one transaction; return the new version.

    Raises:
        StaleWrite: the version moved on (another writer), or a unique key (seat, seq, hand
            number) was taken by one; nothing was written.
    """
    try:
        async with session_factory() as session, session.begin():
            await _bump_version(session=session, table_id=table_id, expected=expected_version)
            session.add_all(rows)
    except IntegrityError as exc:
        raise StaleWrite(str(exc.orig)) from exc
    return expected_version + 1
