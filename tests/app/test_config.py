"""Database URLs as people write them -> the drivers the app and Alembic need."""

from __future__ import annotations

import os
import socket

import psycopg
import pytest
from sqlalchemy.engine import make_url

from app import db
from app.config import Settings, async_database_url, is_postgres, libpq_url, sync_database_url


@pytest.mark.parametrize(
    ("given", "async_url", "sync_url"),
    [
        ("sqlite:///./mu.db", "sqlite+aiosqlite:///./mu.db", "sqlite:///./mu.db"),
        ("sqlite:////var/mu.db", "sqlite+aiosqlite:////var/mu.db", "sqlite:////var/mu.db"),
        (
            "postgresql://mu:pw@db:5432/mu",
            "postgresql+psycopg://mu:pw@db:5432/mu",
            "postgresql+psycopg://mu:pw@db:5432/mu",
        ),
        ("postgres://u@h/d", "postgresql+psycopg://u@h/d", "postgresql+psycopg://u@h/d"),
        ("postgresql+psycopg://u@h/d", "postgresql+psycopg://u@h/d", "postgresql+psycopg://u@h/d"),
        ("sqlite+aiosqlite:///x.db", "sqlite+aiosqlite:///x.db", "sqlite:///x.db"),
    ],
)
def test_driver_mapping(given: str, async_url: str, sync_url: str) -> None:
    assert async_database_url(given) == async_url
    assert sync_database_url(given) == sync_url


def test_not_a_url() -> None:
    with pytest.raises(ValueError):
        async_database_url("mu.db")


def test_settings_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://u@h/d")
    monkeypatch.setenv("BASE_URL", "https://mu.example")
    monkeypatch.setenv("PORT", "9000")
    settings = Settings()
    assert (settings.database_url, settings.base_url, settings.port) == (
        "postgresql://u@h/d",
        "https://mu.example",
        9000,
    )
    monkeypatch.delenv("DATABASE_URL")
    assert Settings().database_url == "sqlite:///./mu.db"


def test_log_level_is_one_of_the_named_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings().log_level == "INFO"
    monkeypatch.setenv("LOG_LEVEL", "DEBUG")
    assert Settings().log_level == "DEBUG"
    monkeypatch.setenv("LOG_LEVEL", "chatty")
    with pytest.raises(ValueError, match="log_level"):
        Settings()


def test_tcp_options_are_added_to_postgres_urls_only() -> None:
    plain = Settings(database_url="postgresql://u@h/d", pg_keepalives_idle=7)
    url = make_url(plain.connection_url)
    assert url.render_as_string().startswith("postgresql://u@h/d?")
    assert dict(url.query) == {
        "keepalives": "1",
        "keepalives_idle": "7",
        "keepalives_interval": "10",
        "keepalives_count": "3",
        "tcp_user_timeout": "30000",
    }
    own = Settings(database_url="postgresql://u@h/d?keepalives_idle=99")
    assert "keepalives_idle=99" in own.connection_url and "keepalives_idle=30" not in (
        own.connection_url
    )
    assert Settings(database_url="sqlite:///x.db").connection_url == "sqlite:///x.db"


def _keepalive_idle(fd: int) -> int:
    sock = socket.socket(fileno=os.dup(fd))
    try:
        return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE)
    finally:
        sock.close()


async def test_tcp_options_reach_every_kind_of_connection(database_url: str) -> None:
    if not is_postgres(database_url) or not hasattr(socket, "TCP_KEEPIDLE"):
        pytest.skip("PostgreSQL over TCP on Linux only")
    settings = Settings(database_url=database_url, pg_keepalives_idle=17)
    url = settings.connection_url
    # psycopg's own connections (the fan-out's, the catch-up reader's, the commit pool's).
    async with await psycopg.AsyncConnection.connect(libpq_url(url)) as conn:
        assert conn.info.get_parameters()["keepalives_idle"] == "17"
        assert conn.info.get_parameters()["tcp_user_timeout"] == "30000"
        assert _keepalive_idle(conn.fileno()) == 17
    # The SQLAlchemy engine's.
    engine = db.create_engine(url)
    try:
        async with engine.connect() as conn:
            raw = await conn.get_raw_connection()
            driver = raw.driver_connection
            assert isinstance(driver, psycopg.AsyncConnection)
            assert _keepalive_idle(driver.fileno()) == 17
    finally:
        await engine.dispose()
