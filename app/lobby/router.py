"""HTTP routes for tables: create, join, read, score sheet, and the personal rejoin link."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, FastAPI, HTTPException, Request, Response, status
from fastapi.responses import JSONResponse, RedirectResponse

from app.deps import BaseUrlDep, HostTokenDep, HubDep, SeatTokenDep, SessionFactoryDep
from app.http import ratelimits
from app.http.errors import ErrorBody, error_response
from app.lobby import schemas, service
from app.room.hub import UnknownTable
from app.room.room import SeatUnavailable
from app.tables import tokens

router = APIRouter(prefix="/api/tables", tags=["tables"])
links = APIRouter(tags=["links"])

_NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorBody, "description": "unknown invite code"}
}
_SEAT_ERRORS: dict[int | str, dict[str, Any]] = {
    **_NOT_FOUND,
    403: {"model": ErrorBody, "description": "table_closed: the host closed it to newcomers"},
    409: {"model": ErrorBody, "description": "seat_taken or table_full"},
}
_RATE_LIMITED: dict[int | str, dict[str, Any]] = {
    429: {"model": ErrorBody, "description": "rate_limited (see Retry-After)"}
}
# A year: the cookie is the seat; losing it early would lock a player out of a long game.
_COOKIE_MAX_AGE = 365 * 24 * 3600


def set_seat_cookie(response: Response, *, invite_code: str, token: str, secure: bool) -> None:
    response.set_cookie(
        tokens.seat_cookie_name(invite_code),
        token,
        max_age=_COOKIE_MAX_AGE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=secure,
    )


def set_host_cookie(response: Response, *, invite_code: str, token: str, secure: bool) -> None:
    # Scoped to the table's API: only its info (which says "host") and its bots need it.
    response.set_cookie(
        tokens.host_cookie_name(invite_code),
        token,
        max_age=_COOKIE_MAX_AGE,
        path=f"/api/tables/{invite_code}",
        httponly=True,
        samesite="lax",
        secure=secure,
    )


def _is_https(base_url: str) -> bool:
    return base_url.startswith("https://")


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    responses=_RATE_LIMITED,
    dependencies=[ratelimits.limited("create_table")],
)
async def create_table(
    body: schemas.TableCreate,
    response: Response,
    hub: HubDep,
    sessions: SessionFactoryDep,
    base_url: BaseUrlDep,
) -> schemas.TableCreated:
    """Open a private table; share ``invite_url`` with the other players. ``host_token``
    (also set as the ``mu_host_{invite_code}`` cookie) lets the creator seat bots."""
    host_token = tokens.new_host_token()
    live = await service.create_table(
        session_factory=sessions, hub=hub, request=body, host_token=host_token
    )
    code = live.invite_code
    set_host_cookie(response, invite_code=code, token=host_token, secure=_is_https(base_url))
    url = service.invite_url(base_url=base_url, invite_code=code)
    return schemas.TableCreated(
        table_id=live.table_id, invite_code=code, invite_url=url, host_token=host_token
    )


@router.post(
    "/{invite_code}/seats",
    status_code=status.HTTP_201_CREATED,
    responses={**_SEAT_ERRORS, **_RATE_LIMITED},
    dependencies=[ratelimits.limited("join")],
)
async def take_seat(
    invite_code: str,
    body: schemas.SeatCreate,
    response: Response,
    hub: HubDep,
    base_url: BaseUrlDep,
) -> schemas.SeatCreated:
    """Take a seat (the given one, or the first free); the token is also set as a cookie."""
    seat, token = await service.join(hub=hub, invite_code=invite_code, request=body)
    set_seat_cookie(response, invite_code=invite_code, token=token, secure=_is_https(base_url))
    url = service.rejoin_url(base_url=base_url, invite_code=invite_code, token=token)
    return schemas.SeatCreated(seat=seat, token=token, rejoin_url=url)


@router.get("/{invite_code}", responses=_NOT_FOUND)
async def read_table(
    invite_code: str,
    request: Request,
    response: Response,
    hub: HubDep,
    base_url: BaseUrlDep,
    token: SeatTokenDep,
    host_token: HostTokenDep,
) -> schemas.TablePublic:
    """Seats, presence, status and options; ``you`` is the caller's seat or null, ``host``
    whether the caller holds the host token. A seat cookie that holds no seat here any more
    (the host removed the person) is dropped: the invite link then works as for a newcomer."""
    info = await service.table_info(
        hub=hub, invite_code=invite_code, base_url=base_url, token=token, host_token=host_token
    )
    cookie = tokens.seat_cookie_name(invite_code)
    if info.you is None and token is not None and request.cookies.get(cookie) == token:
        response.delete_cookie(cookie, path="/", httponly=True, samesite="lax")
    return info


@router.get("/{invite_code}/scoresheet", responses=_NOT_FOUND)
async def read_scoresheet(invite_code: str, hub: HubDep) -> schemas.ScoreSheet:
    """The score sheet: one row per finished hand, running totals, winners once over."""
    return await service.scoresheet(hub=hub, invite_code=invite_code)


@router.post("/{invite_code}/rejoin", responses=_NOT_FOUND)
async def rejoin(
    invite_code: str, body: schemas.Rejoin, response: Response, hub: HubDep, base_url: BaseUrlDep
) -> schemas.Rejoined:
    """Redeem a personal rejoin link on this browser: the token becomes its seat cookie.

    The link carries the token in its ``#fragment`` (``/t/{code}#rejoin={token}``), which
    browsers never send to a server nor put in a Referer; the table page posts it here once."""
    seat = await service.seat_of_token(hub=hub, invite_code=invite_code, token=body.token)
    if seat is None:
        detail = {"code": "unknown_seat", "message": "this link does not hold a seat here"}
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail=detail)
    set_seat_cookie(response, invite_code=invite_code, token=body.token, secure=_is_https(base_url))
    return schemas.Rejoined(seat=seat)


@links.get("/t/{invite_code}/rejoin/{token}", include_in_schema=False)
async def old_rejoin_link(invite_code: str, token: str) -> RedirectResponse:
    """Links made before the token moved out of the path keep working: the same link in the
    new form, which the page redeems. Nothing is checked or set here (the access log shows
    this path with the token redacted, see ``app/logging.py``)."""
    target = f"/t/{quote(invite_code, safe='')}#rejoin={quote(token, safe='')}"
    return RedirectResponse(target, status_code=status.HTTP_303_SEE_OTHER)


async def _unknown_table(_request: Request, exc: Exception) -> JSONResponse:
    return error_response(404, "unknown_table", "no table has this invite code")


async def _seat_unavailable(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, SeatUnavailable)
    code = {"no_such_seat": 422, "table_closed": 403}.get(exc.code, 409)
    return error_response(code, exc.code, exc.message)


def install_error_handlers(app: FastAPI) -> None:
    """Domain exceptions -> HTTP answers, so the routes above stay straight-line."""
    app.add_exception_handler(UnknownTable, _unknown_table)
    app.add_exception_handler(SeatUnavailable, _seat_unavailable)
