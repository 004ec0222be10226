"""Play again: the next game with the same players, seats and rules, opened exactly once.

Whoever asks first (on any server process) opens it: the new table and its bot seats are
inserted in the same transaction as ``UPDATE tables SET next_code = ... WHERE id = old AND
next_code IS NULL``. If that UPDATE finds the column already set, another request won: the
transaction is rolled back (no second table) and the winner's code is read instead. The
people's seats stay free and are kept for them for a while; each person's browser takes its
own seat with its own seat token (``Room.join(kept_for_you=True)``), so no token is ever sent
to anyone else.
"""

from __future__ import annotations

import time

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from app.tables import tokens
from app.tables.live import LiveTable
from app.tables.models import Seat, Table

# How long the people's seats wait for them before anyone (or a bot) may take them.
KEEP_SEATS_SECONDS = 180.0


async def next_code(*, db: AsyncEngine, table_id: int) -> str | None:
    """The invite code of the game opened after this table, if any."""
    async with db.connect() as conn:
        return await conn.scalar(select(Table.next_code).where(Table.id == table_id))


async def open_next(*, db: AsyncEngine, old: LiveTable) -> tuple[str, bool]:
    """The next game's invite code, and whether this call opened it."""
    code = tokens.new_invite_code()
    people = tuple(i for i, seat in enumerate(old.seats) if seat is not None and not seat.bot)
    options = old.options.model_copy(
        update={
            "reserved": people,
            "reserved_until": time.time() + KEEP_SEATS_SECONDS if people else None,
            "practice": None,  # a practice table's next game is a game, dealt at random
            "deals_of": None,
        }
    )
    async with db.connect() as conn:
        transaction = await conn.begin()
        host = await conn.scalar(select(Table.host_token_hash).where(Table.id == old.table_id))
        new_id = await conn.scalar(
            insert(Table)
            .values(invite_code=code, options=options.to_json(), version=0, host_token_hash=host)
            .returning(Table.id)
        )
        bots = [
            {
                "table_id": new_id,
                "seat": index,
                "name": seat.name,
                # A bot's token is never used by anyone: a fresh random one, hashed.
                "token_hash": tokens.hash_token(tokens.new_seat_token()),
                "is_bot": True,
                "bot_level": seat.bot_level,
            }
            for index, seat in enumerate(old.seats)
            if seat is not None and seat.bot
        ]
        if bots:
            await conn.execute(insert(Seat), bots)
        claimed = await conn.execute(
            update(Table)
            .where(Table.id == old.table_id, Table.next_code.is_(None))
            .values(next_code=code)
        )
        if claimed.rowcount == 1:
            await transaction.commit()
            return code, True
        await transaction.rollback()
    existing = await next_code(db=db, table_id=old.table_id)
    assert existing is not None  # the UPDATE found it set
    return existing, False
