"""Database plumbing: the declarative base, the async engine and its session factory."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

import sqlalchemy as sa
from sqlalchemy import MetaData, event
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import DeclarativeBase, mapped_column

from app.config import async_database_url

# Explicit constraint names, so Alembic migrations stay identical on SQLite and Postgres.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


SessionFactory = async_sessionmaker[AsyncSession]

# The columns every table repeats, declared once (SQLAlchemy's Annotated column types).
JsonType = sa.JSON().with_variant(JSONB(), "postgresql")
Id = Annotated[int, mapped_column(primary_key=True)]
CreatedAt = Annotated[
    datetime, mapped_column(sa.DateTime(timezone=True), server_default=sa.func.now())
]

POOL_SIZE = 4  # the default of DB_POOL_SIZE (app/config.py: the connection budget)


def _tune_sqlite(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers run beside the single writer; foreign keys are off by default in SQLite.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def create_engine(
    database_url: str, *, pool_size: int = POOL_SIZE, options: dict[str, Any] | None = None
) -> AsyncEngine:
    """An async engine for a plain or driver-qualified URL; on PostgreSQL a fixed pool of
    ``pool_size`` connections made with psycopg ``options`` (``Settings.psycopg_options``)."""
    url = async_database_url(database_url)
    if url.startswith("sqlite"):
        # Tables write concurrently from one process; wait for SQLite's file lock, don't fail.
        db = create_async_engine(url, connect_args={"timeout": 30})
        event.listen(db.sync_engine, "connect", _tune_sqlite)
        return db
    # A fixed pool without overflow: overflow connections are closed on return and opened
    # again under load, and a PostgreSQL connect costs more than the commit it serves; when
    # all are busy, writers queue (their commits share the WAL flushes anyway).
    # No pre-ping: it would add a round trip to every action; a dropped connection fails one
    # request and is replaced, and pool_recycle retires idle ones before servers drop them.
    return create_async_engine(
        url,
        pool_size=pool_size,
        max_overflow=0,
        pool_timeout=30,
        pool_recycle=1800,
        connect_args=options or {},
    )


def create_session_factory(db: AsyncEngine) -> SessionFactory:
    return async_sessionmaker(db, expire_on_commit=False)
