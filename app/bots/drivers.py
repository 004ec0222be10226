"""One driver per table: across server processes exactly one moves a table's bots and runs
its away/takeover clock.

Every process with a socket at a table follows its bots (``runner.py``); only the process
that holds the table's **lease** drives them. The lease is a PostgreSQL session advisory lock
``pg_try_advisory_lock(NAMESPACE, table id)`` held on one dedicated autocommit connection per
process (:class:`Leases`):

* every ``resync_seconds`` (and at once when a table starts being followed) the process tries
  the locks of the tables it follows and does not drive yet, and unlocks those it no longer
  follows; a gained lease wakes the table's bots;
* a process that dies loses its connection and with it its locks at once, so another process
  that follows the table takes it over at its next round: within ``resync_seconds`` of
  PostgreSQL noticing (at once for a killed process; a vanished host within the server's TCP
  keepalive);
* if the lock connection fails, the process drives nothing until it has reconnected and taken
  the locks again (a lost connection means lost locks: never two drivers).

The driver tells the other processes its stand-ins and takeover deadlines (``wire.Standing``,
relayed by the fan-out) so every view shows the same. With SQLite or a single process
(``MULTI_PROCESS`` off) the process drives every table (:class:`Always`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import psycopg

from app import logging as log

# The advisory locks' first key: "mü" tables' drivers, apart from any other advisory lock.
NAMESPACE = 0x6D75
# Reconnect pauses of the lock connection (seconds).
BACKOFF = (0.1, 0.5, 1.0, 2.0, 5.0)


@dataclass(frozen=True, slots=True)
class Hooks:
    """What a driver asks of the bots runner: ``followed`` says which tables this process
    follows, ``gained`` is told of a lease taken, ``renew`` is called every round (the driver
    announces its standing)."""

    followed: Callable[[], Iterable[int]] = tuple
    gained: Callable[[int], None] = lambda _table_id: None
    renew: Callable[[], None] = lambda: None


class Drivers:
    """Which tables this process drives. The base drives every table (one process)."""

    def drives(self, table_id: int) -> bool:
        return True

    def follow(self, table_id: int) -> None:
        """A table's bots are followed here now: try its lease soon."""

    async def start(self, hooks: Hooks) -> None:
        """Begin, calling back the bots runner through ``hooks``."""

    async def close(self) -> None:
        """Give up every lease (shutdown)."""


Always = Drivers


class Leases(Drivers):
    """Advisory-lock leases on PostgreSQL (several processes)."""

    def __init__(self, *, conninfo: str, resync_seconds: float) -> None:
        self._conninfo = conninfo
        self._resync_seconds = resync_seconds
        self._held: set[int] = set()
        self._poke = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._hooks = Hooks()

    def drives(self, table_id: int) -> bool:
        return table_id in self._held

    @property
    def held(self) -> frozenset[int]:
        return frozenset(self._held)

    def follow(self, table_id: int) -> None:
        if table_id not in self._held:
            self._poke.set()

    async def start(self, hooks: Hooks) -> None:
        self._hooks = hooks
        self._task = asyncio.create_task(self._run_forever(), name="bot-drivers")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        self._held.clear()  # the connection closed with the task: the locks are gone

    async def _run_forever(self) -> None:
        attempt = 0
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self._conninfo, autocommit=True
                ) as conn:
                    attempt = 0
                    await self._hold(conn)
            except (psycopg.Error, OSError) as exc:
                log.event("drivers_down", error=type(exc).__name__, retry=BACKOFF[attempt])
            finally:
                # Whatever happened to the connection, its locks may be gone: drive nothing.
                if self._held:
                    log.event("leases_lost", tables=len(self._held))
                self._held.clear()
            await asyncio.sleep(BACKOFF[attempt])
            attempt = min(attempt + 1, len(BACKOFF) - 1)

    async def _hold(self, conn: psycopg.AsyncConnection[Any]) -> None:
        while True:
            self._poke.clear()
            await self.round(conn)
            self._hooks.renew()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._poke.wait(), self._resync_seconds)

    async def round(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """Unlock the tables no longer followed, try to lock the followed ones not driven."""
        followed = set(self._hooks.followed())
        gone = sorted(self._held - followed)
        if gone:
            await conn.execute(
                "SELECT pg_advisory_unlock(%s, id) FROM unnest(%s::int[]) AS id",
                (NAMESPACE, gone),
            )
            self._held.difference_update(gone)
        wanted = sorted(followed - self._held)
        if not wanted:
            return
        cursor = await conn.execute(
            "SELECT id, pg_try_advisory_lock(%s, id) FROM unnest(%s::int[]) AS id",
            (NAMESPACE, wanted),
        )
        for table_id, locked in await cursor.fetchall():
            if locked:
                self._held.add(table_id)
                log.event("driving", table=table_id)
                self._hooks.gained(table_id)
