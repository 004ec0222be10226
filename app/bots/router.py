"""HTTP route for bots: the table's creator seats a computer player in a free seat."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request, status
from pydantic import AfterValidator, BaseModel, Field

import engine
from app.bots.runner import BotRunner, bot_name
from app.deps import HostTokenDep, HubDep
from app.errors import ErrorBody
from app.realtime.room import SeatUnavailable
from engine.bots import DEFAULT_LEVEL, LEVELS

router = APIRouter(prefix="/api/tables", tags=["bots"])


SEATS = max(engine.rules_catalog().player_counts)


def _known_level(level: str) -> str:
    if level not in LEVELS:
        raise ValueError(f"a bot level is one of {', '.join(LEVELS)}")
    return level


# The engine's bot levels (random: easy, heuristic: normal, search: strong).
Level = Annotated[str, AfterValidator(_known_level), Field(json_schema_extra={"enum": [*LEVELS]})]


class BotCreate(BaseModel):
    """Seat a bot: which free seat (default: the first) and how well it plays."""

    seat: int | None = Field(default=None, ge=0, lt=SEATS, examples=[2])
    level: Level = DEFAULT_LEVEL


class BotSeated(BaseModel):
    seat: int
    name: str
    level: str


def get_runner(request: Request) -> BotRunner:
    runner: BotRunner = request.app.state.bots
    return runner


RunnerDep = Annotated[BotRunner, Depends(get_runner)]

_ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": ErrorBody, "description": "not_host: no valid host token"},
    404: {"model": ErrorBody, "description": "unknown invite code"},
    409: {"model": ErrorBody, "description": "seat_taken or table_full"},
    422: {"model": ErrorBody, "description": "no_such_seat, or a bad level"},
}


@router.post("/{invite_code}/bots", status_code=status.HTTP_201_CREATED, responses=_ERRORS)
async def add_bot(
    invite_code: str,
    body: BotCreate,
    hub: HubDep,
    runner: RunnerDep,
    host_token: HostTokenDep,
) -> BotSeated:
    """Put a bot into a free seat (host only: the ``mu_host_…`` cookie or
    ``Authorization: Bearer <host_token>``). A person can take the seat back later by
    joining it through the invite link."""
    room = await hub.get_room(invite_code)
    if not await room.is_host(host_token):
        raise HTTPException(
            status.HTTP_403_FORBIDDEN,
            detail={"code": "not_host", "message": "only the table's creator can seat bots"},
        )
    free = room.live.free_seats()
    if body.seat is None and not free:
        raise SeatUnavailable("table_full", "every seat is taken")
    wanted = free[0] if body.seat is None else body.seat
    seat, _token = await room.join(name=bot_name(wanted), wanted=wanted, bot_level=body.level)
    runner.watch(room)
    return BotSeated(seat=seat, name=bot_name(seat), level=body.level)
