"""Database URLs as people write them -> the drivers the app and Alembic need."""

from __future__ import annotations

import pytest

from app.config import Settings, async_database_url, sync_database_url


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
