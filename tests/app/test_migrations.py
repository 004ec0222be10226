"""Alembic is the only schema path: the migrations build exactly the models' schema, and
they run down and up again, on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine

import app.tables.models  # noqa: F401  (registers the tables)
from app.config import sync_database_url
from app.db import Base
from app.migrate import alembic_config
from tests.app import databases


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def fresh_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with databases.database(request.param, tmp_path) as url:
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
