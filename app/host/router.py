"""The host's HTTP API: ``/api/tables/{invite_code}/host/…`` (host only: the ``mu_host_…``
cookie, ``Authorization: Bearer <host_token>``, or the seat cookie of a person the role was
handed to). Every refusal is an error body with a stable code (docs/protocol.md)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from app.deps import BaseUrlDep, HostTokenDep, HubDep, SeatTokenDep
from app.host import deletion, service
from app.host.service import HostRefused
from app.http.errors import ErrorBody, amend_openapi, error_doc, error_response
from app.lobby.router import set_host_cookie
from app.room.room import Room

router = APIRouter(prefix="/api/tables/{invite_code}/host", tags=["host"])


class RemoveRequest(BaseModel):
    """Remove the person in ``seat``: a bot plays the seat on (``to="bot"``), or a bot holds it
    until someone new takes it over through the invite link (``to="open"``)."""

    seat: int = Field(examples=[1])
    to: Literal["bot", "open"] = "bot"


class HandOverRequest(BaseModel):
    seat: int = Field(description="the seated person who becomes the host", examples=[2])


class CloseRequest(BaseModel):
    newcomers: bool = Field(description="nobody new may take a seat")
    spectators: bool = Field(description="nobody without a seat may watch")


class HostEvent(BaseModel):
    """What the host did, as every view at the table tells it (``view.host_event``)."""

    event: str
    by: str | None = None
    detail: dict[str, Any] = Field(default_factory=dict)


class Claimed(BaseModel):
    host: bool


class DeleteRequest(BaseModel):
    """The host's confirmation (the page asks first): must be true."""

    confirm: Literal[True]


_COMMON: dict[int | str, dict[str, Any]] = {
    403: {"model": ErrorBody, "description": "not_host: no valid host token"},
    404: {"model": ErrorBody, "description": "unknown_table"},
    409: {"model": ErrorBody, "description": "stale_version: another change came first"},
}
_SEAT_ERRORS: dict[int | str, dict[str, Any]] = {
    **_COMMON,
    409: {
        "model": ErrorBody,
        "description": "seat_empty, seat_is_bot (use the bot controls), remove_self, "
        "not_a_person (handover), stale_version",
    },
    422: {"model": ErrorBody, "description": "no_such_seat, or a bad body"},
}


def _event(mark: Any) -> HostEvent:
    detail = {k: v for k, v in mark.items() if k not in ("type", "event", "by")}
    return HostEvent(event=mark["event"], by=mark.get("by"), detail=detail)


async def _room(invite_code: str, hub: HubDep) -> Room:
    """The table's room; an unknown table is answered 404 ``unknown_table``."""
    return await hub.get_room(invite_code)


def _caller(host_token: HostTokenDep, seat_token: SeatTokenDep) -> service.Caller:
    return service.Caller(host_token, seat_token)


# What every host action starts from: the table, and who asks.
RoomDep = Annotated[Room, Depends(_room)]
CallerDep = Annotated[service.Caller, Depends(_caller)]


@router.post("/remove", responses=_SEAT_ERRORS)
async def remove_person(
    request: Request, body: RemoveRequest, room: RoomDep, caller: CallerDep
) -> HostEvent:
    """Remove a person: their seat token stops working at once on every process (their
    sockets close with 4403), a bot takes the seat, everyone at the table is told."""
    mark = await service.remove(room, caller, seat=body.seat, to=body.to)
    _wake_bots(request, room)
    return _event(mark)


@router.post("/handover", responses=_SEAT_ERRORS)
async def hand_over(body: HandOverRequest, room: RoomDep, caller: CallerDep) -> HostEvent:
    """Hand the host role to a seated person: their seat token (in their personal rejoin
    link) becomes the host token; the old host token is dead."""
    return _event(await service.hand_over(room, caller, seat=body.seat))


@router.post("/close", responses=_COMMON)
async def close_table(body: CloseRequest, room: RoomDep, caller: CallerDep) -> HostEvent:
    """Close the table to newcomers (joins answer 403 ``table_closed``) and/or spectators
    (sockets without a seat close with 4423); ``false`` opens it again."""
    mark = await service.close(room, caller, newcomers=body.newcomers, spectators=body.spectators)
    return _event(mark)


@router.post("/spectators", responses=_COMMON)
async def send_spectators_away(room: RoomDep, caller: CallerDep) -> HostEvent:
    """Close every spectator socket (4403), on every process; while the table is closed to
    spectators they cannot come back."""
    return _event(await service.send_spectators_away(room, caller))


@router.post("/claim", responses={404: _COMMON[404]})
async def claim_host_cookie(
    invite_code: str,
    response: Response,
    room: RoomDep,
    base_url: BaseUrlDep,
    seat_token: SeatTokenDep,
) -> Claimed:
    """A device of the person the host role was handed to: its seat cookie is the host
    token, set here as the host cookie too. ``host: false`` (nothing set) for anyone else."""
    if seat_token is None or not await service.is_host(room, (seat_token,)):
        return Claimed(host=False)
    secure = base_url.startswith("https://")
    set_host_cookie(response, invite_code=invite_code, token=seat_token, secure=secure)
    return Claimed(host=True)


_DELETE_ERRORS: dict[int | str, dict[str, Any]] = {
    **_COMMON,
    409: {"model": ErrorBody, "description": "not_finished: still played and not abandoned"},
    410: {"model": ErrorBody, "description": "table_deleted: deleted already"},
    422: {"model": ErrorBody, "description": "no confirmation"},
}


@router.post("/delete", status_code=204, responses=_DELETE_ERRORS)
async def delete_table(
    body: DeleteRequest, room: RoomDep, hub: HubDep, caller: CallerDep
) -> Response:
    """Delete a finished (or abandoned: no action for a day) table's history: its hands,
    actions, chat, reviews and score sheet. Its sockets close with 4410; its pages and API
    answer 410 Gone from now on."""
    await deletion.delete(
        room,
        hub,
        candidates=caller.candidates,
        host_seat_token=caller.seat_token,
        now=datetime.now(UTC),
    )
    return Response(status_code=204)


def document_gone(app: FastAPI) -> None:
    """Every route of a table's API may answer 410 Gone (``gone.py``): say so in the OpenAPI."""
    gone = error_doc("table_deleted: the host deleted this table")

    def amend(document: dict[str, Any]) -> None:
        for path, operations in document.get("paths", {}).items():
            if path.startswith("/api/tables/{invite_code}"):
                for operation in operations.values():
                    operation.setdefault("responses", {}).setdefault("410", gone)

    amend_openapi(app, amend)


def _wake_bots(request: Request, room: Room) -> None:
    runner = getattr(request.app.state, "bots", None)
    if runner is not None:
        runner.watch(room)


async def _refused(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HostRefused)
    return error_response(exc.status, exc.code, exc.message)


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(HostRefused, _refused)
