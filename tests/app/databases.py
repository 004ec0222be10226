"""Throw-away databases for the server tests, migrated with Alembic like production ones."""

from __future__ import annotations

import atexit
import functools
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


# This process's migrated template database, per server (``CREATE DATABASE … TEMPLATE``):
# migrating takes a second, a copy of a template a few milliseconds (as Django and Zulip do).
_templates: dict[str, str] = {}


def _admin_connect(admin: str) -> tuple[psycopg.Connection[tuple[object, ...]], str]:
    """An autocommit connection to the server; to its "postgres" database if the named one
    does not exist yet (every server has that one)."""
    try:
        return psycopg.connect(admin, autocommit=True), admin
    except psycopg.OperationalError:
        admin = make_url(admin).set(database="postgres").render_as_string(hide_password=False)
        return psycopg.connect(admin, autocommit=True), admin


def _drop(admin: str, name: str) -> None:
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _template(admin: str) -> str:
    """This process's migrated template on ``admin``'s server, made at its first use and
    dropped when the process exits."""
    if admin not in _templates:
        name = f"mu_template_{secrets.token_hex(6)}"
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        atexit.register(_drop, admin, name)
        upgrade_head(make_url(admin).set(database=name).render_as_string(hide_password=False))
        _templates[admin] = name
    return _templates[admin]


@contextmanager
def postgres_database(server_url: str, *, migrate: bool = False) -> Iterator[str]:
    """A fresh migrated database with a random name on ``server_url``'s server, dropped
    afterwards: a copy of this process's template, or (``migrate``) migrated by Alembic."""
    name = f"mu_test_{secrets.token_hex(6)}"
    conn, admin = _admin_connect(_admin_conninfo(server_url))
    with conn:
        if migrate:
            conn.execute(f'CREATE DATABASE "{name}"')
        else:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{_template(admin)}"')
    url = make_url(admin).set(database=name).render_as_string(hide_password=False)
    try:
        if migrate:
            upgrade_head(url)
        yield url
    finally:
        _drop(admin, name)


def postgres_server_url() -> str | None:
    return os.environ.get(POSTGRES_ENV) or None


@functools.cache
def _unreachable(server_url: str) -> str | None:
    """Why the server cannot be used (asked once per run), or None."""
    admin = make_url(_admin_conninfo(server_url)).set(database="postgres")
    try:
        with psycopg.connect(admin.render_as_string(hide_password=False), connect_timeout=3):
            return None
    except psycopg.OperationalError:
        return f"no PostgreSQL answers at {admin.host}:{admin.port or 5432}"


def postgres_server() -> str:
    """The PostgreSQL server the tests may use, else skip the test with one reason for all.

    With ``MU_REQUIRE_POSTGRES`` set (CI) a missing or unreachable server fails the test."""
    server = postgres_server_url()
    reason = f"{POSTGRES_ENV} is not set" if server is None else _unreachable(server)
    if reason is None and server is not None:
        return server
    reason = f"PostgreSQL half skipped: {reason}"
    if os.environ.get("MU_REQUIRE_POSTGRES"):
        pytest.fail(reason)
    pytest.skip(reason)


@contextmanager
def database(kind: str, folder: Path, *, migrate: bool = False) -> Iterator[str]:
    """A migrated throw-away database: ``"sqlite"`` (a file in ``folder``) or ``"postgres"``
    (a new database on MU_TEST_POSTGRES_URL's server, a copy of a migrated template unless
    ``migrate`` asks for Alembic itself; the test is skipped when that server is unset)."""
    if kind == "sqlite":
        with sqlite_database(folder) as url:
            yield url
        return
    with postgres_database(postgres_server(), migrate=migrate) as url:
        yield url
