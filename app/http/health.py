"""``GET /healthz``: the process answers and its database does too (for Docker and proxies).

With ``MULTI_PROCESS=1`` the process must also be listening for other processes' changes: one
that is not would serve its sockets stale tables, so a load balancer should send nobody there.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

router = APIRouter(tags=["operations"])


@router.get("/healthz")
async def healthz(request: Request) -> JSONResponse:
    """200 ``{"status": "ok"}`` when the database answers (and, with MULTI_PROCESS, the change
    listener is connected), else 503; 503 ``draining`` while shutting down."""
    if request.app.state.hub.draining:
        return JSONResponse({"status": "draining"}, 503)
    try:
        async with request.app.state.session_factory() as session:
            await session.execute(text("SELECT 1"))
    except (SQLAlchemyError, OSError) as exc:
        return JSONResponse({"status": "unavailable", "error": type(exc).__name__}, 503)
    changes = request.app.state.fanout
    if request.app.state.settings.multi_process and not (changes and changes.listening):
        return JSONResponse({"status": "unavailable", "error": "not listening"}, 503)
    return JSONResponse({"status": "ok"})
