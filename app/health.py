"""``GET /healthz``: the process answers and its database does too (for Docker and proxies)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

router = APIRouter(tags=["operations"])


@router.get("/healthz")
async def healthz(request: Request) -> JSONResponse:
    """200 ``{"status": "ok"}`` when the database answers, else 503."""
    try:
        async with request.app.state.session_factory() as session:
            await session.execute(text("SELECT 1"))
    except (SQLAlchemyError, OSError) as exc:
        return JSONResponse({"status": "unavailable", "error": type(exc).__name__}, 503)
    return JSONResponse({"status": "ok"})
