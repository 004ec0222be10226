"""Database reads and writes for tables (keyword-only functions over an AsyncSession).

Every change to a table goes through :func:`commit_change`, which bumps ``tables.version``
under a compare-and-set guard and writes the new rows in the same transaction: if another
writer got there first, nothing is written and :class:`StaleWrite` is raised.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Row, bindparam, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from app.db import Base
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
    *, session: AsyncSession, invite_code: str, options: dict[str, Any], host_token_hash: str | None
) -> Table:
    table = Table(
        invite_code=invite_code, options=options, version=0, host_token_hash=host_token_hash
    )
    session.add(table)
    await session.flush()
    return table


async def has_seat_token(*, engine: AsyncEngine, table_id: int, token_hash: str) -> bool:
    """Whether a seat of this table holds the token (an indexed lookup, no replay)."""
    query = select(Seat.seat).where(Seat.table_id == table_id, Seat.token_hash == token_hash)
    async with engine.connect() as conn:
        return (await conn.execute(query)).first() is not None


async def host_token_hash(*, engine: AsyncEngine, invite_code: str) -> str | None:
    """The stored hash of the table's host token (None: unknown table or no host)."""
    query = select(Table.host_token_hash).where(Table.invite_code == invite_code)
    async with engine.connect() as conn:
        return (await conn.execute(query)).scalar_one_or_none()


async def hand_seed(*, engine: AsyncEngine, table_id: int, number: int) -> int | None:
    """The secret deal seed of one hand (the bot runner derives its decision seeds from it)."""
    query = select(Hand.seed).where(Hand.table_id == table_id, Hand.number == number)
    async with engine.connect() as conn:
        return (await conn.execute(query)).scalar_one_or_none()


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


@dataclass(frozen=True, slots=True)
class NewerRows:
    """What was committed to a table after a known state, all read in one snapshot."""

    version: int
    seats: Sequence[Row[int, str, str, bool, str | None]]  # all of them
    hands: Sequence[Row[int, int, int]]
    actions: Sequence[Row[int, int, int, dict[str, Any]]]


async def load_newer(
    *, engine: AsyncEngine, table_id: int, version: int, hand_number: int, seq: int
) -> NewerRows | None:
    """Every seat, the hands after ``hand_number`` and the actions after ``seq``, if the table
    moved past ``version`` (else None)."""
    async with engine.connect() as conn:
        # One snapshot for all reads: the version must label exactly the rows read.
        conn = await conn.execution_options(isolation_level="REPEATABLE READ")
        newer = await conn.scalar(select(Table.version).where(Table.id == table_id))
        if newer is None or newer <= version:
            return None
        seats = await conn.execute(
            select(Seat.seat, Seat.name, Seat.token_hash, Seat.is_bot, Seat.bot_level).where(
                Seat.table_id == table_id
            )
        )
        hands = await conn.execute(
            select(Hand.number, Hand.dealer, Hand.seed)
            .where(Hand.table_id == table_id, Hand.number > hand_number)
            .order_by(Hand.number)
        )
        actions = await conn.execute(
            select(Action.seq, Action.hand_number, Action.seat, Action.action)
            .where(Action.table_id == table_id, Action.seq > seq)
            .order_by(Action.seq)
        )
        return NewerRows(newer, seats.all(), hands.all(), actions.all())


@dataclass(frozen=True, slots=True)
class Change:
    """New rows for one table, written together with its version bump (plain column dicts)."""

    seats: Sequence[dict[str, Any]] = ()
    hands: Sequence[dict[str, Any]] = ()
    actions: Sequence[dict[str, Any]] = ()
    # Seats whose existing rows the rows in ``seats`` replace (a person taking a bot's seat).
    replaced: Sequence[int] = ()


# Built once: the write path runs on every action, and constructing and caching a statement
# costs more CPU than executing a prepared one.
_BUMP = (
    update(Table)
    .where(Table.id == bindparam("table_id"), Table.version == bindparam("expected"))
    .values(version=bindparam("expected") + 1)
)
# Core inserts on the tables themselves: no ORM unit of work, no RETURNING of defaults.
_INSERTS = tuple(
    (field, insert(Base.metadata.tables[model.__tablename__]))
    for field, model in (("seats", Seat), ("hands", Hand), ("actions", Action))
)


async def commit_change(
    *, engine: AsyncEngine, table_id: int, expected_version: int, change: Change
) -> int:
    """Write ``change`` and bump the table's version in one transaction; return the new version.

    Raises:
        StaleWrite: the version moved on (another writer), or a unique key (seat, seq, hand
            number) was taken by one; nothing was written.
    """
    try:
        async with engine.begin() as conn:
            bumped = await conn.execute(_BUMP, {"table_id": table_id, "expected": expected_version})
            if bumped.rowcount != 1:
                raise StaleWrite(f"table {table_id} is no longer at version {expected_version}")
            if change.replaced:
                gone = Seat.table_id == table_id, Seat.seat.in_(change.replaced)
                await conn.execute(delete(Seat).where(*gone))
            for field, statement in _INSERTS:
                rows = getattr(change, field)
                if rows:
                    await conn.execute(statement, list(rows))
    except IntegrityError as exc:
        raise StaleWrite(str(exc.orig)) from exc
    return expected_version + 1
