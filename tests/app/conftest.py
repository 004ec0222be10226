"""Server test fixtures: every test runs once on SQLite and once on PostgreSQL.

The PostgreSQL variant is marked ``postgres`` and needs ``MU_TEST_POSTGRES_URL``; without it
that variant is skipped (and CI, which sets ``MU_REQUIRE_POSTGRES``, then fails the run).
"""

from __future__ import annotations

import itertools
import os
import warnings
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from starlette.exceptions import StarletteDeprecationWarning

from app.config import Settings
from app.main import create_app, release
from app.room.room import SeedSource
from tests.app import databases

# Starlette warns that it prefers the httpx2 package; the test client works with httpx.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

AppFactory = Callable[..., FastAPI]

# A bot leading after a completed trick waits TRICK_PAUSE_MS (1200 by default): no test here
# waits that long unless it sets the pause itself (this reaches Settings() and the servers
# the tests start as processes alike).
os.environ.setdefault("TRICK_PAUSE_MS", "0")


@pytest.fixture(
    scope="session",
    params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)],
)
def database_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    with databases.database(request.param, Path(tmp_path_factory.mktemp("db"))) as url:
        yield url


def counting_seeds(start: int = 1) -> SeedSource:
    """Deterministic deal seeds: 1, 2, 3, ... in the order hands are dealt."""
    counter = itertools.count(start)
    return lambda: next(counter)


@pytest.fixture
def make_app(database_url: str) -> AppFactory:
    """Build an app on the test database; ``seeds`` defaults to a fresh counting source, and
    keyword arguments override settings (the hand review worker is off unless asked for)."""

    def build(seeds: SeedSource | None = None, **settings: Any) -> FastAPI:
        settings = {"review_workers": 0, **settings}
        configured = Settings(database_url=database_url, **settings)
        return create_app(configured, seeds=seeds or counting_seeds())

    return build


@pytest.fixture
def client(make_app: AppFactory) -> Iterator[TestClient]:
    with TestClient(make_app()) as test_client:
        yield test_client


@pytest.fixture
async def api(make_app: AppFactory) -> AsyncIterator[httpx.AsyncClient]:
    app = make_app()
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        yield http
    await release(app)
