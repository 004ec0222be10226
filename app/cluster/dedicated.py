"""The fan-out's dedicated connections (listen, notify): kept open for ever, reconnecting; and
sending notifications, batched (:class:`Outbox`)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

import psycopg

from app import logging as log

# Reconnect pauses (seconds): quick at first, then gentle on a database down for longer.
BACKOFF = (0.1, 0.5, 1.0, 2.0, 5.0)


async def keep_connected(
    conninfo: str,
    down_event: str,
    session: Callable[[psycopg.AsyncConnection[Any]], Awaitable[None]],
    options: dict[str, Any] | None = None,
) -> None:
    """Run ``session`` on a fresh autocommit connection (made with psycopg ``options``) for
    ever, reconnecting with backoff whenever the connection or the session fails (or the
    session returns)."""
    attempt = 0
    while True:
        try:
            connect = psycopg.AsyncConnection.connect(conninfo, autocommit=True, **(options or {}))
            async with await connect as conn:
                attempt = 0
                await session(conn)
        except (psycopg.Error, OSError) as exc:
            if attempt == 0:  # once per outage, not per retry (the session says when it is back)
                log.event(down_event, error=type(exc).__name__, retry=BACKOFF[attempt])
        await asyncio.sleep(BACKOFF[attempt])
        attempt = min(attempt + 1, len(BACKOFF) - 1)


async def send_notifications(
    conn: psycopg.AsyncConnection[Any], channel: str, batch: list[str]
) -> None:
    """Send every note of ``batch`` on ``channel``: ``pg_notify`` over an array, one statement
    and one round trip however many notes."""
    await conn.execute(
        "SELECT pg_notify(%s, note) FROM unnest(%s::text[]) AS note", (channel, batch)
    )


async def send_once(
    conninfo: str, channel: str, batch: list[str], options: dict[str, Any] | None = None
) -> None:
    """Send ``batch`` on a connection of its own (at shutdown); nothing if the database is
    away (the other processes' resync heals a lost note)."""
    with contextlib.suppress(psycopg.Error, OSError):
        connect = psycopg.AsyncConnection.connect(
            conninfo, autocommit=True, connect_timeout=2, **(options or {})
        )
        async with await connect as conn:
            await send_notifications(conn, channel, batch)


# At most this many notifications per round trip (keeps one statement's parameters bounded).
BATCH = 500


class Outbox:
    """The notes a process has to send on ``channel``: queued without waiting, sent in batches
    (one round trip each) on the notify connection while it is up."""

    def __init__(self, channel: str) -> None:
        self._channel = channel
        self._queue: asyncio.Queue[str] = asyncio.Queue()

    def put(self, text: str) -> None:
        self._queue.put_nowait(text)

    async def send_forever(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """Send what is queued, batch by batch (a failure loses the batch in hand)."""
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty() and len(batch) < BATCH:
                batch.append(self._queue.get_nowait())
            await send_notifications(conn, self._channel, batch)

    async def flush(self, conninfo: str, options: dict[str, Any] | None = None) -> None:
        """Send what is still queued on a connection of its own (graceful shutdown)."""
        batch = []
        while not self._queue.empty():
            batch.append(self._queue.get_nowait())
        if batch:
            await send_once(conninfo, self._channel, batch, options)
