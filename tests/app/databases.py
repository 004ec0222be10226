"""Throw-away databases for the server tests, migrated with Alembic like production ones."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
from sqlalchemy.engine import make_url

from app.migrate import upgrade_head

POSTGRES_ENV = "MU_TEST_POSTGRES_URL"
ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def sqlite_database(folder: Path) -> Iterator[str]:
    url = f"sqlite:///{folder / 'mu.db'}"
    upgrade_head(url)
    yield url


def _admin_conninfo(server_url: str) -> str:
    # psycopg wants a libpq URL: drop any SQLAlchemy driver suffix.
    return make_url(server_url).set(drivername="postgresql").render_as_string(hide_password=False)


@contextmanager
def postgres_database(server_url: str) -> Iterator[str]:
    """A fresh database with a random name on ``server_url``'s server, dropped afterwards."""
    name = f"mu_test_{secrets.token_hex(6)}"
    admin = _admin_conninfo(server_url)
    try:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
    except psycopg.OperationalError:
        # The named database may not exist yet; every server has the "postgres" one.
        admin = make_url(admin).set(database="postgres").render_as_string(hide_password=False)
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
    url = make_url(admin).set(database=name).render_as_string(hide_password=False)
    try:
        upgrade_head(url)
        yield url
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def postgres_server_url() -> str | None:
    return os.environ.get(POSTGRES_ENV) or None


@contextmanager
def database(kind: str, folder: Path) -> Iterator[str]:
    """A migrated throw-away database: ``"sqlite"`` (a file in ``folder``) or ``"postgres"``
    (a new database on MU_TEST_POSTGRES_URL's server; the test is skipped when that is unset)."""
    if kind == "sqlite":
        with sqlite_database(folder) as url:
            yield url
        return
    server = postgres_server_url()
    if server is None:
        pytest.skip(f"{POSTGRES_ENV} is not set")
    with postgres_database(server) as url:
        yield url
