"""The one writer of tables: a change (seats, hands, logged actions) and its version bump.

:meth:`Writer.commit` has one contract on every database:

- The table's ``version`` goes up by one under a compare-and-set guard; if another writer
  moved the table on, nothing is written and :class:`StaleWrite` is raised.
- A unique key that is already taken (a seat, a hand number, an action's ``seq``, a token
  hash) is another writer too: :class:`StaleWrite`, and nothing is written.
- Seats, hands, actions and jobs (``Change.jobs``: the review of a hand the change ended, a
  reminder of the turn it began) are written together with the bump, or not at all; a job
  whose key is already queued is not enqueued again (and is no conflict).
- A person taking a bot's seat (``Change.replaced``) updates that seat's row in place: the row
  keeps its id. The version guard proves the seat was the bot's when the change was computed.
- A change may carry the table's new host token hash (the host handed the role over): set
  with the bump, so host actions racing the handover are applied once (the version guard).
- A change made by a seat's token (``Change.acting``: an action, an undo) is written only if
  that token still holds the seat, checked in the same statement as the version: a person
  removed or replaced through another process can never act again, however stale this
  process's copy of the table.
- The writer tells nobody: the room that committed tells its listeners (the fan-out
  announces the change to the other processes in batches, on a connection of its own).

How a change is written is the database's business, one small private strategy each:

- PostgreSQL (:class:`_OneStatement`): the whole change in *one* statement on an autocommit
  connection of the writer's own pool, so an action costs one network round trip instead of
  four (BEGIN, the version bump, the insert, COMMIT).
- Anything else SQLAlchemy speaks, i.e. SQLite (:class:`_Transaction`): a transaction of a few
  statements.

The announcement is deliberately not part of the commit's statement: a transaction that
NOTIFYs holds PostgreSQL's notification-queue lock through its commit, WAL flush included,
so such commits run one at a time across the whole database. Measured here with eight
connections: 11,500 commits/s without NOTIFY, 4,900 with it; on a disk with slower flushes
the gap grows. Batches keep that serial part to one short transaction per batch.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple, Protocol

import psycopg
from psycopg_pool import AsyncConnectionPool
from sqlalchemy import bindparam, exists, insert, update
from sqlalchemy.dialects import sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import is_postgres, libpq_url
from app.db import Base
from app.jobs.models import Job
from app.jobs.rows import JobRow
from app.tables.models import Action, Hand, Seat, Table
from app.tables.rows import ActionRow, HandRow, SeatRow


class StaleWrite(Exception):
    """The table changed in the database since this process last read it; nothing was
    written."""


class Acting(NamedTuple):
    """The seat a change is made for and the token hash that must still hold it."""

    seat: int
    token_hash: str


@dataclass(frozen=True, slots=True)
class Change:
    """New rows for one table, written together with its version bump."""

    seats: Sequence[SeatRow] = ()
    hands: Sequence[HandRow] = ()
    actions: Sequence[ActionRow] = ()
    # Seats whose existing rows the rows in ``seats`` update in place (a person taking a
    # bot's seat); every other row in ``seats`` is a new one.
    replaced: Sequence[int] = ()
    # Background work this change makes due (app/jobs), enqueued in the same commit.
    jobs: Sequence[JobRow] = ()
    # A new host token's hash (the host handed the role over): the old token is dead.
    host_token_hash: str | None = None
    # Who makes the change (seat, token hash): written only while that token holds the seat.
    acting: Acting | None = None


class Writer:
    """Commits changes through its database's strategy."""

    def __init__(self, strategy: _Strategy) -> None:
        self._strategy = strategy

    @property
    def strategy(self) -> str:
        """How it writes: ``"one statement"`` (PostgreSQL) or ``"transaction"``."""
        return self._strategy.name

    async def open(self) -> None:
        """Get ready ahead of the first commit (PostgreSQL: start connecting its pool in the
        background; a database that is down does not stop the app starting)."""
        await self._strategy.open()

    async def close(self) -> None:
        await self._strategy.close()

    async def commit(self, *, table_id: int, expected_version: int, change: Change) -> int:
        """Write ``change`` if the table is still at ``expected_version``; the new version.

        Raises:
            StaleWrite: another writer moved the table on (or took a unique key); nothing
                was written.
        """
        if not await self._strategy.write(table_id, expected_version, change):
            raise StaleWrite(f"table {table_id} is no longer at version {expected_version}")
        return expected_version + 1


def create_writer(
    *,
    database_url: str,
    db_engine: AsyncEngine,
    pool_size: int = 3,
    options: dict[str, Any] | None = None,
) -> Writer:
    """The writer for the database at ``database_url`` (``db_engine`` is the app's engine);
    on PostgreSQL its own pool of at most ``pool_size`` connections made with psycopg
    ``options``."""
    if is_postgres(database_url):
        conninfo = libpq_url(database_url)
        strategy = _OneStatement(conninfo, max_size=pool_size, options=options or {})
        return Writer(strategy)
    return Writer(_Transaction(db_engine))


class _Strategy(Protocol):
    name: str

    async def write(self, table_id: int, expected_version: int, change: Change) -> bool:
        """Write ``change`` with the version bump; False (and nothing written) when the guard
        failed. Raises StaleWrite when a unique key was taken (and nothing is written)."""
        ...

    async def open(self) -> None: ...

    async def close(self) -> None: ...


# -- SQLAlchemy: a transaction --------------------------------------------------------------

# Built once: the write path runs on every action, and constructing and caching a statement
# costs more CPU than executing a prepared one.
_BUMP = (
    update(Table)
    .where(Table.id == bindparam("table_id"), Table.version == bindparam("expected"))
    .values(version=bindparam("expected") + 1)
)
_SEATS = Base.metadata.tables[Seat.__tablename__]
# The same bump, only while the acting token still holds its seat (``Change.acting``).
_BUMP_ACTING = _BUMP.where(
    exists()
    .where(_SEATS.c.table_id == bindparam("table_id"))
    .where(_SEATS.c.seat == bindparam("acting_seat"))
    .where(_SEATS.c.token_hash == bindparam("acting_token"))
)
_NEW_HOST = (
    update(Table).where(Table.id == bindparam("table_id")).values(host_token_hash=bindparam("host"))
)
# The row stays (and keeps its id); its occupant changes. The WHERE parameters must not be
# named after columns: those names are taken by the SET clause.
_REPLACE_SEAT = (
    update(_SEATS)
    .where(_SEATS.c.table_id == bindparam("at_table"), _SEATS.c.seat == bindparam("at_seat"))
    .values({name: bindparam(name) for name in ("name", "token_hash", "is_bot", "bot_level")})
)
# Core inserts on the tables themselves: no ORM unit of work, no RETURNING of defaults.
_INSERT_SEATS = insert(_SEATS)
_INSERT_HANDS = insert(Base.metadata.tables[Hand.__tablename__])
_INSERT_ACTIONS = insert(Base.metadata.tables[Action.__tablename__])
_INSERT_JOBS = sqlite.insert(Base.metadata.tables[Job.__tablename__]).on_conflict_do_nothing(
    index_elements=["key"]
)


class _Transaction:
    name = "transaction"

    def __init__(self, db_engine: AsyncEngine) -> None:
        self._db = db_engine

    async def write(self, table_id: int, expected_version: int, change: Change) -> bool:
        replaced = set(change.replaced)
        try:
            async with self._db.begin() as conn:
                guard: dict[str, object] = {"table_id": table_id, "expected": expected_version}
                bump = _BUMP
                if change.acting is not None:
                    bump = _BUMP_ACTING
                    guard |= {"acting_seat": change.acting.seat}
                    guard |= {"acting_token": change.acting.token_hash}
                if (await conn.execute(bump, guard)).rowcount != 1:
                    return False  # nothing else was run: the transaction commits nothing
                if change.host_token_hash is not None:
                    await conn.execute(
                        _NEW_HOST, {"table_id": table_id, "host": change.host_token_hash}
                    )
                for row in change.seats:
                    if row.seat in replaced:
                        where = {"at_table": table_id, "at_seat": row.seat}
                        await conn.execute(_REPLACE_SEAT, {**row._asdict(), **where})
                new_seats = [row for row in change.seats if row.seat not in replaced]
                for statement, rows in (
                    (_INSERT_SEATS, new_seats),
                    (_INSERT_HANDS, change.hands),
                    (_INSERT_ACTIONS, change.actions),
                ):
                    if rows:
                        await conn.execute(statement, _of_table(table_id, rows))
                if change.jobs:
                    await conn.execute(_INSERT_JOBS, _jobs_of_table(table_id, change.jobs))
        except IntegrityError as exc:
            raise StaleWrite(str(exc.orig)) from exc
        return True

    async def open(self) -> None:
        """Nothing of its own to open (the engine belongs to the app)."""

    async def close(self) -> None:
        """Nothing of its own to close (the engine belongs to the app)."""


def _of_table(table_id: int, rows: Iterable[NamedTuple]) -> list[dict[str, Any]]:
    return [{**row._asdict(), "table_id": table_id} for row in rows]


def _jobs_of_table(table_id: int, rows: Iterable[JobRow]) -> list[dict[str, Any]]:
    now = datetime.now(UTC)
    return [
        {**row._asdict(), "table_id": table_id, "run_after": row.run_after or now} for row in rows
    ]


# -- PostgreSQL: one statement ----------------------------------------------------------------

# Every sub-statement hangs off ``bump``: when the version guard fails it yields no row, and
# then nothing is inserted or updated. The rows come as JSON arrays (0..n rows each)
# so that one prepared statement serves every kind of change.
_COMMIT = """
WITH bump AS (
    UPDATE tables SET version = version + 1,
                      host_token_hash = coalesce(%(host)s, host_token_hash)
    WHERE id = %(table_id)s AND version = %(expected)s
      AND (%(acting_seat)s::int IS NULL OR EXISTS (
          SELECT 1 FROM seats
          WHERE seats.table_id = %(table_id)s AND seats.seat = %(acting_seat)s::int
            AND seats.token_hash = %(acting_token)s::text))
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
), new_jobs AS (
    INSERT INTO jobs (kind, key, table_id, hand_number, version, priority, run_after)
    SELECT r.kind, r.key, bump.id, r.hand_number, r.version, r.priority,
           coalesce(r.run_after, now())
    FROM bump, jsonb_to_recordset(%(jobs)s::jsonb)
        AS r(kind text, key text, hand_number int, version int, priority int,
             run_after timestamptz)
    ON CONFLICT (key) DO NOTHING
)
SELECT id FROM bump
"""


class _OneStatement:
    name = "one statement"

    def __init__(
        self, conninfo: str, *, max_size: int = 3, options: dict[str, Any] | None = None
    ) -> None:
        # Autocommit: the statement is the transaction. The pool grows to ``max_size`` when
        # commits queue (concurrent commits share the WAL flushes) and shrinks when idle; a
        # connection that breaks fails one commit and is replaced. With the database gone, a
        # commit gives up after ``timeout`` (PoolTimeout, an OperationalError: the client is
        # told ``unavailable``) instead of holding the table's lock past a graceful shutdown.
        self._pool = AsyncConnectionPool(
            conninfo,
            min_size=1,
            max_size=max_size,
            kwargs={**(options or {}), "autocommit": True},
            open=False,
            timeout=5.0,
            name="mu-writer",
        )

    async def open(self) -> None:
        await self._pool.open()

    async def close(self) -> None:
        await self._pool.close()

    async def write(self, table_id: int, expected_version: int, change: Change) -> bool:
        params = _parameters(table_id, expected_version, change)
        if self._pool.closed:
            await self._pool.open()  # an app served without its lifespan (some tests)
        try:
            async with self._pool.connection() as conn:
                cursor = await conn.execute(_COMMIT, params)
                return cursor.rowcount == 1
        except psycopg.errors.IntegrityError as exc:
            raise StaleWrite(str(exc)) from exc


def _parameters(table_id: int, expected_version: int, change: Change) -> dict[str, Any]:
    replaced = set(change.replaced)
    return {
        "table_id": table_id,
        "expected": expected_version,
        "replaced_seats": _rows([row for row in change.seats if row.seat in replaced]),
        "new_seats": _rows([row for row in change.seats if row.seat not in replaced]),
        "hands": _rows(change.hands),
        "actions": _rows(change.actions),
        "jobs": _rows(change.jobs),
        "host": change.host_token_hash,
        "acting_seat": change.acting.seat if change.acting else None,
        "acting_token": change.acting.token_hash if change.acting else None,
    }


def _rows(rows: Iterable[NamedTuple]) -> str:
    return json.dumps([row._asdict() for row in rows], separators=(",", ":"), default=_moment)


def _moment(value: object) -> str:
    if isinstance(value, datetime):  # a job's run_after
        return value.isoformat()
    raise TypeError(f"not JSON: {type(value).__name__}")
