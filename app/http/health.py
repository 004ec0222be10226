"""Health checks for Docker, load balancers and uptime monitors.

``GET /livez``: the process answers (200 while it serves; restart it when this fails).
``GET /readyz`` (and its older name ``/healthz``): send it traffic. 200 only when the database
answers a ``SELECT 1`` within :data:`DB_TIMEOUT` seconds, the process is not draining and, with
``MULTI_PROCESS=1``, the fan-out listens, its notify connection is up and it hears its own
heartbeat (a process that does not would serve its sockets stale tables); else 503 naming the
failed check.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

router = APIRouter(tags=["operations"])

DB_TIMEOUT = 2.0

_OK = {"application/json": {"example": {"status": "ok"}}}
_READY_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"description": "Ready: send it traffic.", "content": _OK},
    503: {
        "description": "Not ready: ``failed`` names the check (``draining``, ``database``,"
        " ``listener``, ``notifier``, ``heartbeat``).",
        "content": {
            "application/json": {
                "example": {"status": "unavailable", "failed": "database", "error": "TimeoutError"}
            }
        },
    },
}


@router.get("/livez", responses={200: {"description": "The process answers.", "content": _OK}})
async def livez() -> JSONResponse:
    """200 ``{"status": "ok"}`` whenever the process serves requests."""
    return JSONResponse({"status": "ok"})


@router.get("/readyz", responses=_READY_RESPONSES)
@router.get("/healthz", responses=_READY_RESPONSES)
async def readyz(request: Request) -> JSONResponse:
    """200 ``{"status": "ok"}`` when ready; 503 ``{"status": "draining"|"unavailable",
    "failed": check, ...}`` when not."""
    if request.app.state.hub.draining:
        return _unready("draining", status="draining")
    try:
        async with asyncio.timeout(DB_TIMEOUT):
            async with request.app.state.session_factory() as session:
                await session.execute(text("SELECT 1"))
    except (SQLAlchemyError, OSError, TimeoutError) as exc:
        return _unready("database", error=type(exc).__name__)
    changes = request.app.state.fanout
    if request.app.state.settings.multi_process:
        failed = changes.unready if changes is not None else "listener"
        if failed is not None:
            return _unready(failed)
    return JSONResponse({"status": "ok"})


def _unready(failed: str, *, status: str = "unavailable", **more: str) -> JSONResponse:
    return JSONResponse({"status": status, "failed": failed, **more}, 503)
