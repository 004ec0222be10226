"""HTTP routes for bots: the table's creator seats a computer player in a free seat; Play
again opens the next game, where a player who declines is replaced by a bot."""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request, status
from pydantic import AfterValidator, BaseModel, Field

import engine
from app.bots import again as again_case
from app.bots.runner import BotRunner, bot_name
from app.deps import HostTokenDep, HubDep, SeatTokenDep
from app.http.errors import ErrorBody
from app.protocol.inbound import ErrorCode
from app.room import changes
from app.room.room import SeatUnavailable
from app.tables import repository
from app.tables.live import LiveTable
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
    if not await repository.is_host(db=room.store.db, invite_code=invite_code, token=host_token):
        raise HTTPException(
            status.HTTP_403_FORBIDDEN,
            detail={"code": "not_host", "message": "only the table's creator can seat bots"},
        )
    free = room.live.free_seats(now=time.time())  # not the seats kept for a player
    if body.seat is None and not free:
        raise SeatUnavailable(ErrorCode.TABLE_FULL, "every seat is taken")
    wanted = free[0] if body.seat is None else body.seat
    seat, _token = await changes.join(
        room, name=bot_name(wanted), wanted=wanted, bot_level=body.level
    )
    runner.watch(room)
    return BotSeated(seat=seat, name=bot_name(seat), level=body.level)


class AgainRequest(BaseModel):
    """Come along to the next game (the default), or let a bot take your seat there."""

    decline: bool = False


class AgainSeated(BaseModel):
    invite_code: str = Field(description="the next game's invite code")
    seat: int
    token: str | None = Field(
        description="your seat token at the next game (redeem it with POST …/rejoin); "
        "null when you declined and a bot took the seat"
    )


_AGAIN_ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": ErrorBody, "description": "not_seated: no seat token of this table"},
    404: {"model": ErrorBody, "description": "unknown invite code"},
    409: {"model": ErrorBody, "description": "not_over, or seat_taken at the next game"},
}


@router.post("/{invite_code}/again", responses=_AGAIN_ERRORS)
async def play_again(
    request: Request,
    invite_code: str,
    body: AgainRequest,
    hub: HubDep,
    runner: RunnerDep,
    token: SeatTokenDep,
) -> AgainSeated:
    """Play again: the first player to ask opens the next game with the same players, seats
    and rules (exactly once, whoever asks at the same moment on whichever process); every
    player then takes their own seat there with a new token, sent only to them. Seats of the
    people are kept for them a few minutes; bots keep theirs."""
    try:
        code, seat, new_token = await again_case.play_again(
            hub=hub,
            runner=runner,
            invite_code=invite_code,
            token=token,
            decline=body.decline,
            opened_hook=_push_play_again(request),
        )
    except again_case.NotSeated:
        raise HTTPException(
            status.HTTP_403_FORBIDDEN,
            detail={"code": "not_seated", "message": "only the game's players can play again"},
        ) from None
    except again_case.NotOver:
        raise HTTPException(
            status.HTTP_409_CONFLICT,
            detail={"code": "not_over", "message": "the game is not over yet"},
        ) from None
    return AgainSeated(invite_code=code, seat=seat, token=new_token)


def _push_play_again(request: Request) -> again_case.Opened | None:
    """The other people of the finished game get a push ("X wants to play again"), when the
    server sends pushes (app/notify; it is found on the app, not imported: notify is a layer
    above the bots)."""
    notifier = getattr(request.app.state, "notifier", None)
    if notifier is None:
        return None

    async def tell(live: LiveTable, asker: int) -> None:
        asking = live.seats[asker]
        others = [
            seat
            for seat, info in enumerate(live.seats)
            if info is not None and not info.bot and seat != asker
        ]
        if asking is not None and others:
            notifier.play_again_asked(
                live=live, seats=others, asker=asking.name, version=live.version
            )

    return tell
