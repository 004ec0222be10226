"""The ASGI app (``app.main:app``): settings, database, the table hub, routers, static files."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from sqlalchemy.ext.asyncio import AsyncEngine

from app import apidocs, bodylimit, db, errors, headers, health, metrics, ratelimits, resources
from app import logging as log
from app.bots import router as bots
from app.bots.runner import BotRunner
from app.config import Settings
from app.history.router import router as history_router
from app.realtime import endpoint, fanout
from app.realtime.hub import Hub, secret_seed
from app.realtime.room import SeedSource
from app.tables import router as tables
from app.tables.writers import ChangeWriter, PostgresWriter, SqlAlchemyWriter
from app.web import catalog
from app.web import router as web

STATIC_DIR = resources.path("static")


def create_app(settings: Settings | None = None, *, seeds: SeedSource = secret_seed) -> FastAPI:
    """Build an app on ``settings`` (default: the environment).

    ``seeds`` draws each hand's deal seed; tests pass a deterministic one. The schema must
    already be migrated (``python -m app`` does it before serving).
    """
    settings = settings or Settings()
    settings.check_multi_process()
    engine = db.create_engine(settings.database_url)
    runner = BotRunner(db_engine=engine, delay_ms=settings.bot_delay_ms)
    # PostgreSQL: listen for other processes' changes (harmless when there are none).
    changes = (
        fanout.Fanout(
            database_url=settings.database_url,
            db_engine=engine,
            resync_seconds=settings.resync_seconds,
        )
        if settings.uses_postgres
        else None
    )

    writer = _change_writer(settings, engine, changes)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if isinstance(writer, PostgresWriter):
            await writer.open()
        if changes is not None:
            changes.start(app.state.hub)
        yield
        await runner.close()
        if changes is not None:
            await changes.stop()
        await release(app)

    app = FastAPI(
        title="Mü Online",
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,  # apidocs serves /docs without a CDN
        redoc_url=None,
        openapi_url="/openapi.json" if settings.api_docs else None,
    )
    app.state.settings = settings
    app.state.db_engine = engine
    app.state.session_factory = db.create_session_factory(engine)
    app.state.bots = runner
    app.state.fanout = changes
    app.state.writer = writer
    app.state.hub = Hub(
        db_engine=engine, writer=writer, session_factory=app.state.session_factory, seeds=seeds
    )
    errors.install(app)
    rates = ratelimits.RequestRates(
        enabled=settings.rate_limits,
        create_table=settings.create_table_rate,
        join=settings.join_rate,
    )
    ratelimits.install(app, rates)
    app.add_middleware(bodylimit.BodyLimit, max_bytes=settings.http_body_max_bytes)
    app.add_middleware(log.RequestIds)
    headers.install(app, https=(settings.base_url or "").startswith("https://"))
    tables.install_error_handlers(app)
    app.include_router(tables.router)
    app.include_router(tables.links)
    app.include_router(bots.router)
    app.include_router(endpoint.router)
    app.include_router(health.router)
    app.include_router(web.router)
    app.include_router(catalog.router)
    app.include_router(history_router)
    if settings.api_docs:
        apidocs.install(app)
    if settings.metrics:
        hub = app.state.hub
        metrics.install(app, live=lambda: hub.size, active=lambda: hub.active)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    return app


async def release(app: FastAPI) -> None:
    """Close the app's database connections: its lifespan does on shutdown; tests that serve
    an app without its lifespan call this themselves."""
    await app.state.writer.close()
    await app.state.db_engine.dispose()


def _change_writer(
    settings: Settings, engine: AsyncEngine, changes: fanout.Fanout | None
) -> ChangeWriter:
    # PostgreSQL: one round trip per change, then the fan-out announces it to the other
    # processes. Elsewhere (SQLite: one process) a plain SQLAlchemy transaction.
    if settings.uses_postgres:
        conninfo = fanout.libpq_url(settings.database_url)
        return PostgresWriter(conninfo, committed=changes.published if changes else None)
    return SqlAlchemyWriter(engine)


app = create_app()
