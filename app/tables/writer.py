"""How a room commits a change: one ``commit`` call, two ways of doing it.

- :class:`SqlAlchemyWriter` (SQLite, and any database SQLAlchemy speaks): a transaction of a
  few statements, :func:`repository.commit_change`.
- :class:`PostgresWriter`: the whole change in *one* statement on an autocommit connection of
  its own pool, so an action costs one network round trip instead of four (BEGIN, the version
  bump, the insert, COMMIT). Then it tells ``committed`` (the fan-out, which announces the
  change to the other processes in batches on a connection of its own).

The announcement is deliberately not part of the commit's statement: a transaction that
NOTIFYs holds PostgreSQL's notification-queue lock through its commit, WAL flush included,
so such commits run one at a time across the whole database. Measured here with eight
connections: 11,500 commits/s without NOTIFY, 4,900 with it; on a disk with slower flushes
the gap grows. Batches keep that serial part to one short transaction per batch.

Both raise :class:`repository.StaleWrite` when the version guard (or a unique key) shows that
another writer got there first, and then nothing was written.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, Protocol

import psycopg
from psycopg_pool import AsyncConnectionPool
from sqlalchemy.ext.asyncio import AsyncEngine

from app.tables import repository
from app.tables.repository import Change, StaleWrite


class ChangeWriter(Protocol):
    async def commit(self, *, table_id: int, expected_version: int, change: Change) -> int:
        """Write ``change`` if the table is still at ``expected_version``; the new version.

        Raises:
            StaleWrite: another writer moved the table on; nothing was written.
        """
        ...

    async def close(self) -> None: ...


class SqlAlchemyWriter:
    def __init__(self, db_engine: AsyncEngine) -> None:
        self._engine = db_engine

    async def commit(self, *, table_id: int, expected_version: int, change: Change) -> int:
        return await repository.commit_change(
            engine=self._engine, table_id=table_id, expected_version=expected_version, change=change
        )

    async def close(self) -> None:
        """Nothing of its own to close (the engine belongs to the app)."""


# Every sub-statement hangs off ``bump``: when the version guard fails it yields no row, and
# then nothing is inserted or updated. The rows come as JSON arrays (0..n rows each)
# so that one prepared statement serves every kind of change. A person taking a bot's seat
# updates that seat's row in place (the version guard already proved the seat was the bot's).
_COMMIT = """
WITH bump AS (
    UPDATE tables SET version = version + 1
    WHERE id = %(table_id)s AND version = %(expected)s
    RETURNING id
), replaced_seats AS (
    UPDATE seats SET name = r.name, token_hash = r.token_hash, is_bot = r.is_bot,
                     bot_level = r.bot_level
    FROM bump, jsonb_to_recordset(%(replaced_seats)s::jsonb)
        AS r(seat int, name text, token_hash text, is_bot bool, bot_level text)
    WHERE seats.table_id = bump.id AND seats.seat = r.seat
), new_seats AS (
    INSERT INTO seats (table_id, seat, name, token_hash, is_bot, bot_level)
    SELECT bump.id, r.seat, r.name, r.token_hash, r.is_bot, r.bot_level
    FROM bump, jsonb_to_recordset(%(new_seats)s::jsonb)
        AS r(seat int, name text, token_hash text, is_bot bool, bot_level text)
), new_hands AS (
    INSERT INTO hands (table_id, number, dealer, seed)
    SELECT bump.id, r.number, r.dealer, r.seed
    FROM bump, jsonb_to_recordset(%(hands)s::jsonb) AS r(number int, dealer int, seed bigint)
), new_actions AS (
    INSERT INTO actions (table_id, seq, hand_number, seat, action)
    SELECT bump.id, r.seq, r.hand_number, r.seat, r.action
    FROM bump, jsonb_to_recordset(%(actions)s::jsonb)
        AS r(seq int, hand_number int, seat int, action jsonb)
)
SELECT id FROM bump
"""

# Told (table id, new version) after each commit; must not block.
Committed = Callable[[int, int], None]


class PostgresWriter:
    """Commits changes in one round trip each and tells ``committed`` about each."""

    def __init__(
        self,
        conninfo: str,
        *,
        committed: Committed | None = None,
        min_size: int = 2,
        max_size: int = 8,
    ) -> None:
        self._committed = committed
        # Autocommit: the statement is the transaction. The pool grows to ``max_size`` when
        # commits queue (concurrent commits share the WAL flushes) and shrinks when idle; a
        # connection that breaks fails one commit and is replaced. With the database gone, a
        # commit gives up after ``timeout`` (PoolTimeout, an OperationalError: the client is
        # told ``unavailable``) instead of holding the table's lock past a graceful shutdown.
        self._pool = AsyncConnectionPool(
            conninfo,
            min_size=min_size,
            max_size=max_size,
            kwargs={"autocommit": True},
            open=False,
            timeout=5.0,
            name="mu-writer",
        )

    async def open(self) -> None:
        """Start connecting in the background, ahead of the first commit (which would
        otherwise open the pool); a database that is down does not stop the app starting."""
        await self._pool.open()

    async def close(self) -> None:
        await self._pool.close()

    async def commit(self, *, table_id: int, expected_version: int, change: Change) -> int:
        params = _parameters(table_id, expected_version, change)
        if self._pool.closed:
            await self._pool.open()  # an app served without its lifespan (some tests)
        try:
            async with self._pool.connection() as conn:
                cursor = await conn.execute(_COMMIT, params)
                bumped = cursor.rowcount == 1
        except psycopg.errors.IntegrityError as exc:
            raise StaleWrite(str(exc)) from exc
        if not bumped:
            raise StaleWrite(f"table {table_id} is no longer at version {expected_version}")
        if self._committed is not None:
            self._committed(table_id, expected_version + 1)
        return expected_version + 1


def _parameters(table_id: int, expected_version: int, change: Change) -> dict[str, Any]:
    replaced = set(change.replaced)
    return {
        "table_id": table_id,
        "expected": expected_version,
        "replaced_seats": _rows([row for row in change.seats if row["seat"] in replaced]),
        "new_seats": _rows([row for row in change.seats if row["seat"] not in replaced]),
        "hands": _rows(change.hands),
        "actions": _rows(change.actions),
    }


def _rows(rows: Iterable[dict[str, Any]]) -> str:
    return json.dumps(list(rows), separators=(",", ":"))
