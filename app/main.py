"""The ASGI app (``app.main:app``): settings, database, the table hub, routers, static files."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from os import PathLike

from fastapi import APIRouter, FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers
from starlette.responses import FileResponse, Response
from starlette.types import Scope

from app import background, db, resources
from app import logging as log
from app.bots import router as bots
from app.bots.drivers import Leases
from app.bots.runner import BotRunner
from app.cluster import fanout
from app.config import Settings, libpq_url
from app.groups.router import router as groups_router
from app.history.router import router as history_router
from app.host import gone
from app.host import pages as host_pages
from app.host import router as host
from app.http import (
    apidocs,
    bodylimit,
    compression,
    errors,
    head,
    headers,
    health,
    metrics,
    ratelimits,
)
from app.lesson import router as lesson
from app.lobby import router as lobby
from app.notify import router as push
from app.notify.sender import Notifier
from app.practice import router as practice
from app.room import endpoint
from app.room.hub import Hub, secret_seed
from app.room.room import SeedSource
from app.tables.store import Store
from app.tables.writer import create_writer
from app.web import bundle, catalog, problems, pwa, rules
from app.web import router as web

STATIC_DIR = resources.path("static")
# The bundle's files have their content's hash in their names: a browser may keep them a year.
IMMUTABLE = "public, max-age=31536000, immutable"


class Bundle(StaticFiles):
    """The pages' bundled scripts and styles (app/web/bundle.py), cached long; Brotli-compressed
    ahead (``.br`` beside each file) for a browser that takes it, else gzipped on the fly."""

    def file_response(
        self,
        full_path: str | PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        brotli = f"{os.fspath(full_path)}.br"
        accepted = Headers(scope=scope).get("accept-encoding", "")
        if "br" in {part.split(";")[0].strip() for part in accepted.split(",")} and (
            os.path.isfile(brotli)
        ):
            media_type = FileResponse(full_path).media_type
            headers = {"Content-Encoding": "br", "Vary": "Accept-Encoding"}
            response: Response = FileResponse(brotli, media_type=media_type, headers=headers)
        else:
            response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = IMMUTABLE
        return response


# Every feature's routes, in the order they are tried, included once per process. FastAPI
# resolves an included router's routes (their parameters, dependencies and response models)
# once per inclusion, at the first request: about 60 ms of CPU. Each app takes these inclusions
# as they are instead of including the routers again: a server builds one app, but the tests
# build an app per test. The one thing an inclusion of the app's
# own would add, ``app.dependency_overrides``, nothing here uses.
ROUTES = APIRouter()
for _feature in (
    lobby.router,
    lobby.links,
    bots.router,
    practice.router,
    host.router,
    push.router,
    endpoint.router,
    health.router,
    web.router,
    lesson.router,
    catalog.router,
    rules.router,
    pwa.router,
    history_router,
    groups_router,
    host_pages.router,
):
    ROUTES.include_router(_feature)


def create_app(settings: Settings | None = None, *, seeds: SeedSource = secret_seed) -> FastAPI:
    """Build an app on ``settings`` (default: the environment).

    ``seeds`` draws each hand's deal seed; tests pass a deterministic one. The schema must
    already be migrated (``python -m app`` does it before serving).
    """
    settings = settings or Settings()
    settings.check_multi_process()
    # Every connection the app makes comes from this URL (with PostgreSQL: TCP keepalives).
    database_url = settings.connection_url
    options = settings.psycopg_options()
    db_engine = db.create_engine(database_url, pool_size=settings.db_pool_size, options=options)
    # PostgreSQL: listen for other processes' changes (harmless when there are none).
    changes = (
        fanout.Fanout(
            database_url=database_url,
            db_engine=db_engine,
            resync_seconds=settings.resync_seconds,
            listen_url=settings.direct_url,
            options=options,
        )
        if settings.uses_postgres
        else None
    )

    writer = create_writer(
        database_url=database_url,
        db_engine=db_engine,
        pool_size=settings.writer_pool_size,
        options=options,
    )
    store = Store(db=db_engine, sessions=db.create_session_factory(db_engine), writer=writer)
    # Several processes: one drives each table's bots, by a lease (app/bots/drivers.py), a
    # session lock: on the direct connection (LISTEN_DATABASE_URL), never through a pooler.
    drivers = (
        Leases(conninfo=libpq_url(settings.direct_url), resync_seconds=settings.resync_seconds)
        if settings.multi_process and settings.uses_postgres
        else None
    )
    runner = BotRunner(
        store=store,
        delay_ms=settings.bot_delay_ms,
        pause_ms=settings.trick_pause_ms,
        drivers=drivers,
    )
    notifier = Notifier(db_engine=db_engine, settings=settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        catalog.check()
        await writer.open()
        await notifier.keys()  # made and stored on the first start (VAPID unless configured)
        if changes is not None:
            changes.start(app.state.hub)
        await runner.start()
        if jobs is not None:
            jobs.start()
        yield
        if jobs is not None:
            await jobs.close()
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
    app.state.db_engine = db_engine
    app.state.session_factory = store.sessions
    app.state.bots = runner
    app.state.fanout = changes
    app.state.writer = writer
    app.state.hub = Hub(store, seeds=seeds)
    # The rooms' listeners (the fan-out registers itself when it starts).
    app.state.hub.listen(notifier)
    app.state.hub.listen(runner)
    app.state.notifier = notifier
    # Background jobs (reviews, reminders) in this process unless REVIEW_WORKERS=0 leaves
    # them to ``python -m app.worker``.
    jobs = (
        background.build(
            settings,
            db_engine=db_engine,
            notifier=notifier,
            processes=settings.review_workers,
            hub=app.state.hub,
        )
        if settings.review_workers
        else None
    )
    app.state.jobs = jobs
    app.state.reviews = jobs.reviews if jobs is not None else None
    errors.install(app, page=problems.page)
    rates = ratelimits.RequestRates(
        enabled=settings.rate_limits,
        create_table=settings.create_table_rate,
        join=settings.join_rate,
        storage_uri=settings.rate_limit_storage,
    )
    ratelimits.install(app, rates)
    app.add_middleware(bodylimit.BodyLimit, max_bytes=settings.http_body_max_bytes)
    app.add_middleware(log.RequestIds)
    app.add_middleware(compression.PublicGzip)
    app.add_middleware(gone.Gone)  # a deleted table's pages and API: 410
    headers.install(app, https=(settings.base_url or "").startswith("https://"))
    lobby.install_error_handlers(app)
    host.install_error_handlers(app)
    app.router.routes.extend(ROUTES.routes)
    host.document_gone(app)
    if settings.api_docs:
        apidocs.install(app)
    if settings.metrics:
        hub = app.state.hub
        metrics.install(app, live=lambda: hub.size, active=lambda: hub.active)
    if bundle.bundled():  # before /static, which would take its paths too
        app.mount(bundle.URL.rstrip("/"), Bundle(directory=bundle.FOLDER), name="bundle")
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    errors.install_openapi(app)
    app.add_middleware(head.HeadAsGet)  # outermost: every route answers HEAD as its GET
    return app


async def release(app: FastAPI) -> None:
    """Close the app's database connections: its lifespan does on shutdown; tests that serve
    an app without its lifespan call this themselves. Pushes under way finish first: they
    read the database too."""
    await app.state.notifier.close()
    await app.state.rates.close()
    await app.state.writer.close()
    await app.state.db_engine.dispose()


app = create_app()
