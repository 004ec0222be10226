"""The push tables' reads and writes: subscriptions per seat and the exactly-once claims."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db import Base
from app.notify.models import PushSent, PushSubscription

_SUBS = Base.metadata.tables[PushSubscription.__tablename__]
_SENT = Base.metadata.tables[PushSent.__tablename__]


def insert_ignoring_conflicts(
    conn: AsyncConnection, table: sa.Table, values: dict[str, Any]
) -> sa.Insert:
    """INSERT … ON CONFLICT DO NOTHING in the connection's dialect (SQLite, PostgreSQL)."""
    if conn.dialect.name == "postgresql":
        return postgresql.insert(table).values(values).on_conflict_do_nothing()
    return sqlite.insert(table).values(values).on_conflict_do_nothing()


@dataclass(frozen=True, slots=True)
class Subscription:
    id: int
    seat: int
    endpoint: str
    p256dh: str
    auth: str
    lang: str

    def info(self) -> dict[str, Any]:
        """The form pywebpush takes (a browser's PushSubscription JSON)."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


async def subscribe(
    db_engine: AsyncEngine,
    *,
    table_id: int,
    seat: int,
    endpoint: str,
    p256dh: str,
    auth: str,
    lang: str,
) -> None:
    """Store (or renew: new keys, new language) a browser's subscription for a seat."""
    where = (_SUBS.c.table_id == table_id) & (_SUBS.c.seat == seat) & (_SUBS.c.endpoint == endpoint)
    async with db_engine.begin() as conn:
        await conn.execute(sa.delete(_SUBS).where(where))
        await conn.execute(
            sa.insert(_SUBS).values(
                table_id=table_id, seat=seat, endpoint=endpoint, p256dh=p256dh, auth=auth, lang=lang
            )
        )


async def unsubscribe(db_engine: AsyncEngine, *, table_id: int, seat: int, endpoint: str) -> bool:
    """Remove a seat's subscription; whether there was one."""
    where = (_SUBS.c.table_id == table_id) & (_SUBS.c.seat == seat) & (_SUBS.c.endpoint == endpoint)
    async with db_engine.begin() as conn:
        return (await conn.execute(sa.delete(_SUBS).where(where))).rowcount > 0


async def forget(db_engine: AsyncEngine, subscription_id: int) -> None:
    """Drop a subscription the push service no longer knows (404/410)."""
    async with db_engine.begin() as conn:
        await conn.execute(sa.delete(_SUBS).where(_SUBS.c.id == subscription_id))


async def of_seats(
    db_engine: AsyncEngine, *, table_id: int, seats: Sequence[int]
) -> list[Subscription]:
    if not seats:
        return []
    query = (
        sa.select(
            _SUBS.c.id, _SUBS.c.seat, _SUBS.c.endpoint, _SUBS.c.p256dh, _SUBS.c.auth, _SUBS.c.lang
        )
        .where(_SUBS.c.table_id == table_id, _SUBS.c.seat.in_(list(seats)))
        .order_by(_SUBS.c.id)
    )
    async with db_engine.connect() as conn:
        return [Subscription(*row) for row in (await conn.execute(query)).all()]


async def claim(
    db_engine: AsyncEngine, *, subscription_id: int, table_id: int, version: int, kind: str
) -> bool:
    """Claim the right to send this push: True exactly once per (subscription, table,
    version, kind), whichever process asks."""
    values = {
        "subscription_id": subscription_id,
        "table_id": table_id,
        "version": version,
        "kind": kind,
    }
    async with db_engine.begin() as conn:
        # RETURNING, not rowcount: psycopg reports no rowcount for a skipped conflict.
        statement = insert_ignoring_conflicts(conn, _SENT, values).returning(_SENT.c.id)
        return (await conn.execute(statement)).first() is not None
