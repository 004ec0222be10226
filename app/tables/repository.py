"""Database reads for tables, and the creation of one (keyword-only functions).

Every later change to a table goes through the one writer, ``writer.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession

from app.tables import tokens
from app.tables.models import Action, Hand, Seat, Table
from app.tables.rows import ActionRow, HandRow, SeatRow


@dataclass(frozen=True, slots=True)
class TableRows:
    """Everything needed to rebuild a table by replaying it through the engine."""

    table: Table
    seats: list[SeatRow]
    hands: list[HandRow]  # in order
    actions: list[ActionRow]  # in order


@dataclass(frozen=True, slots=True)
class NewerRows:
    """What a table holds beyond a known state, all read in one snapshot at ``version``."""

    version: int
    seats: list[SeatRow]  # all of them
    hands: list[HandRow]  # the newer ones, in order
    actions: list[ActionRow]  # the newer ones, in order


async def create_table(
    *,
    session: AsyncSession,
    invite_code: str,
    options: dict[str, Any],
    host_token_hash: str | None,
    branch: dict[str, Any] | None = None,
    branched_from: int | None = None,
    deals_of: int | None = None,
) -> Table:
    table = Table(
        invite_code=invite_code,
        options=options,
        version=0,
        host_token_hash=host_token_hash,
        branch=branch,
        branched_from=branched_from,
        deals_of=deals_of,
    )
    session.add(table)
    await session.flush()
    return table


async def has_seat_token(*, db: AsyncEngine, table_id: int, token_hash: str) -> bool:
    """Whether a seat of this table holds the token (an indexed lookup, no replay)."""
    query = select(Seat.seat).where(Seat.table_id == table_id, Seat.token_hash == token_hash)
    async with db.connect() as conn:
        return (await conn.execute(query)).first() is not None


async def host_token_hash(*, db: AsyncEngine, invite_code: str) -> str | None:
    """The stored hash of the table's host token (None: unknown table or no host)."""
    query = select(Table.host_token_hash).where(Table.invite_code == invite_code)
    async with db.connect() as conn:
        return (await conn.execute(query)).scalar_one_or_none()


async def short_code(*, db: AsyncEngine, invite_code: str) -> str | None:
    """The table's short code (None: unknown table)."""
    query = select(Table.short_code).where(Table.invite_code == invite_code)
    async with db.connect() as conn:
        return (await conn.execute(query)).scalar_one_or_none()


async def invite_code_of_short(*, db: AsyncEngine, short_code: str) -> str | None:
    """The invite code of the table with this short code (as stored: lower case), if any."""
    query = select(Table.invite_code).where(Table.short_code == short_code)
    async with db.connect() as conn:
        return (await conn.execute(query)).scalar_one_or_none()


async def is_host(*, db: AsyncEngine, invite_code: str, token: str | None) -> bool:
    """Whether ``token`` is the table's host token (it may seat bots)."""
    if not token:
        return False
    stored = await host_token_hash(db=db, invite_code=invite_code)
    return stored is not None and tokens.matches(token, stored)


async def hand_seed(*, db: AsyncEngine, table_id: int, number: int) -> int | None:
    """The secret deal seed of one hand (the bot runner derives its decision seeds from it)."""
    query = select(Hand.seed).where(Hand.table_id == table_id, Hand.number == number)
    async with db.connect() as conn:
        return (await conn.execute(query)).scalar_one_or_none()


async def load_table(*, session: AsyncSession, invite_code: str) -> TableRows | None:
    table = await session.scalar(select(Table).where(Table.invite_code == invite_code))
    if table is None:
        return None
    return TableRows(table, *await _rows(session, table.id, hand_number=0, seq=0))


async def load_after(
    *, session: AsyncSession, table_id: int, hand_number: int, seq: int
) -> tuple[list[SeatRow], list[HandRow], list[ActionRow]]:
    """Every seat, the hands after ``hand_number`` and the actions after ``seq``."""
    return await _rows(session, table_id, hand_number=hand_number, seq=seq)


async def load_newer(
    *, db: AsyncEngine, table_id: int, version: int, hand_number: int, seq: int
) -> NewerRows | None:
    """Every seat, the hands after ``hand_number`` and the actions after ``seq``, if the table
    moved past ``version`` (else None)."""
    async with db.connect() as conn:
        # One snapshot for all reads: the version must label exactly the rows read.
        conn = await conn.execution_options(isolation_level="REPEATABLE READ")
        newer = await conn.scalar(select(Table.version).where(Table.id == table_id))
        if newer is None or newer <= version:
            return None
        return NewerRows(newer, *await _rows(conn, table_id, hand_number=hand_number, seq=seq))


async def load_hand(
    *, db: AsyncEngine, table_id: int, number: int
) -> tuple[dict[str, Any], HandRow, list[ActionRow]] | None:
    """The table's options, hand ``number`` and that hand's actions in order (None: no such
    table or hand): what replaying that one hand needs, however long the table's history."""
    async with db.connect() as conn:
        options = await conn.scalar(select(Table.options).where(Table.id == table_id))
        hand = (
            await conn.execute(
                select(*_HAND).where(Hand.table_id == table_id, Hand.number == number)
            )
        ).first()
        if options is None or hand is None:
            return None
        actions = await conn.execute(
            select(*_ACTION)
            .where(Action.table_id == table_id, Action.hand_number == number)
            .order_by(Action.seq)
        )
        return options, HandRow._make(hand), [ActionRow._make(row) for row in actions]


# The columns of each row type, in its fields' order.
_SEAT = (Seat.seat, Seat.name, Seat.token_hash, Seat.is_bot, Seat.bot_level)
_HAND = (Hand.number, Hand.dealer, Hand.seed)
_ACTION = (Action.seq, Action.hand_number, Action.seat, Action.action)


async def _rows(
    db: AsyncSession | AsyncConnection, table_id: int, *, hand_number: int, seq: int
) -> tuple[list[SeatRow], list[HandRow], list[ActionRow]]:
    """All seats of the table, its hands after ``hand_number``, its actions after ``seq``."""
    seats = await db.execute(select(*_SEAT).where(Seat.table_id == table_id).order_by(Seat.seat))
    hands = await db.execute(
        select(*_HAND)
        .where(Hand.table_id == table_id, Hand.number > hand_number)
        .order_by(Hand.number)
    )
    actions = await db.execute(
        select(*_ACTION).where(Action.table_id == table_id, Action.seq > seq).order_by(Action.seq)
    )
    return (
        [SeatRow._make(row) for row in seats],
        [HandRow._make(row) for row in hands],
        [ActionRow._make(row) for row in actions],
    )
