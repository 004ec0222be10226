"""Alembic environment: migrates the database named by ``sqlalchemy.url`` when a caller set it
(app.migrate, the tests), else by ``DATABASE_URL`` through the app's settings."""

from __future__ import annotations

from logging.config import fileConfig

from alembic import context
from sqlalchemy import Connection, engine_from_config, pool, text

import app.jobs.models  # noqa: F401  (registers the jobs table)
import app.notify.models  # noqa: F401  (registers the push tables)
import app.tables.models  # noqa: F401  (registers the tables on Base.metadata)
from app.config import Settings, sync_database_url
from app.db import Base
from app.migrate import MIGRATION_LOCK

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata


def _url() -> str:
    url = config.get_main_option("sqlalchemy.url") or Settings().database_url
    return sync_database_url(url)


def run_migrations_offline() -> None:
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connectable = engine_from_config(
        {"sqlalchemy.url": _url()}, prefix="sqlalchemy.", poolclass=pool.NullPool
    )
    with connectable.connect() as connection:
        _migration_lock(connection, "pg_advisory_lock")
        try:
            # batch mode lets future ALTERs work on SQLite, which cannot alter most constraints.
            context.configure(
                connection=connection, target_metadata=target_metadata, render_as_batch=True
            )
            with context.begin_transaction():
                context.run_migrations()
        finally:
            _migration_lock(connection, "pg_advisory_unlock")
    connectable.dispose()


def _migration_lock(connection: Connection, function: str) -> None:
    """PostgreSQL: take or release the session-level lock that makes processes starting
    together migrate one after the other (each reads the schema's version under the lock, so
    the later ones have nothing left to do). SQLite serves one process only."""
    if connection.dialect.name == "postgresql":
        connection.execute(text(f"SELECT {function}(:key)"), {"key": MIGRATION_LOCK})
        connection.commit()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
