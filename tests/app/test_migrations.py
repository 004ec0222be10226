"""Alembic is the only schema path: the migrations build exactly the models' schema, and
they run down and up again, on SQLite and on PostgreSQL."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine

import app.models  # noqa: F401  (registers every package's models on Base.metadata)
from app.config import sync_database_url
from app.db import Base
from app.migrate import MIGRATION_LOCK, alembic_config, upgrade_head
from tests.app import databases


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def fresh_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    # Migrated by Alembic itself, not copied from a template: the migrations are under test.
    with databases.database(request.param, tmp_path, migrate=True) as url:
        yield url


def schema_differences(url: str) -> list[object]:
    engine = create_engine(sync_database_url(url))
    try:
        with engine.connect() as conn:
            return list(compare_metadata(MigrationContext.configure(conn), Base.metadata))
    finally:
        engine.dispose()


def test_migrations_match_the_models(fresh_database: str) -> None:
    assert schema_differences(fresh_database) == []


def test_downgrade_and_upgrade_again(fresh_database: str) -> None:
    config = alembic_config(fresh_database)
    command.downgrade(config, "base")
    command.upgrade(config, "head")
    assert schema_differences(fresh_database) == []


@pytest.mark.postgres
@pytest.mark.processes
def test_processes_starting_together_migrate_one_after_the_other(tmp_path: Path) -> None:
    """``alembic upgrade head`` at start takes a PostgreSQL advisory lock: while another
    process holds it, an upgrade waits (and does nothing to the schema); then several upgrades
    started at once all succeed, one of them doing the work."""
    with databases.database("postgres", tmp_path) as url:
        config = alembic_config(url)
        command.downgrade(config, "base")
        with psycopg.connect(databases._admin_conninfo(url), autocommit=True) as holder:
            holder.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
            waiting = threading.Thread(target=upgrade_head, args=(url,))
            waiting.start()
            waiting.join(timeout=2)
            assert waiting.is_alive()  # blocked behind the lock ...
            assert holder.execute("SELECT count(*) FROM alembic_version").fetchone() == (0,)
            holder.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
        waiting.join(timeout=60)
        assert not waiting.is_alive() and schema_differences(url) == []  # ... then done
        command.downgrade(config, "base")
        # Separate processes (Alembic's context is one per process, not per thread).
        script = "import sys; from app.migrate import upgrade_head; upgrade_head(sys.argv[1])"
        racers = [
            subprocess.Popen([sys.executable, "-c", script, url], cwd=databases.ROOT)
            for _ in range(4)
        ]
        assert [racer.wait(timeout=120) for racer in racers] == [0, 0, 0, 0]
        assert schema_differences(url) == []
