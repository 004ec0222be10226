"""FastAPI dependencies as named types, so route signatures read like sentences."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Query, Request
from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.db import SessionFactory
from app.room.hub import Hub
from app.tables import tokens


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def get_session_factory(request: Request) -> SessionFactory:
    factory: SessionFactory = request.app.state.session_factory
    return factory


def get_base_url(request: Request) -> str:
    """The public origin for links: BASE_URL if configured, else the request's own."""
    configured = get_settings(request).base_url
    return (configured or str(request.base_url)).rstrip("/")


def get_seat_token(
    request: Request,
    invite_code: str,
    token: Annotated[str | None, Query(description="seat token; else the seat cookie")] = None,
) -> str | None:
    return token or request.cookies.get(tokens.seat_cookie_name(invite_code))


def get_db_engine(request: Request) -> AsyncEngine:
    db_engine: AsyncEngine = request.app.state.db_engine
    return db_engine


def get_host_token(request: Request, invite_code: str) -> str | None:
    """The table's host token: ``Authorization: Bearer …``, else the host cookie."""
    scheme, _, credentials = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and credentials.strip():
        return credentials.strip()
    return request.cookies.get(tokens.host_cookie_name(invite_code))


SettingsDep = Annotated[Settings, Depends(get_settings)]
HubDep = Annotated[Hub, Depends(get_hub)]
SessionFactoryDep = Annotated[SessionFactory, Depends(get_session_factory)]
BaseUrlDep = Annotated[str, Depends(get_base_url)]
SeatTokenDep = Annotated[str | None, Depends(get_seat_token)]
DbEngineDep = Annotated[AsyncEngine, Depends(get_db_engine)]
HostTokenDep = Annotated[str | None, Depends(get_host_token)]
