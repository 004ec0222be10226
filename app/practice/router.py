"""``POST /api/tables/{invite_code}/hands/{number}/practice``: play on from a moment of a
finished hand (``step``; 0 plays the deal again) at a new private table."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Response, status
from pydantic import BaseModel, Field

from app.deps import BaseUrlDep, HubDep
from app.http import ratelimits
from app.http.errors import ErrorBody
from app.lobby import schemas, service
from app.lobby.router import set_host_cookie
from app.practice.service import PracticeRefused, open_practice
from app.tables import tokens

router = APIRouter(prefix="/api/tables", tags=["practice"])

_ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorBody, "description": "unknown_table or unknown_hand"},
    409: {"model": ErrorBody, "description": "hand_not_finished: the hand is still played"},
    422: {"model": ErrorBody, "description": "no_such_step, or an invalid request"},
    429: {"model": ErrorBody, "description": "rate_limited (see Retry-After)"},
}


class PracticeCreate(BaseModel):
    """The moment to play on from: how many of the hand's moves come first (0: its deal)."""

    step: int = Field(default=0, ge=0, le=10_000, examples=[12])


@router.post(
    "/{invite_code}/hands/{number}/practice",
    status_code=status.HTTP_201_CREATED,
    responses=_ERRORS,
    dependencies=[ratelimits.limited("create_table")],
)
async def practice(
    invite_code: Annotated[str, Path(max_length=128)],
    number: Annotated[int, Path(ge=1, le=100_000)],
    body: PracticeCreate,
    response: Response,
    hub: HubDep,
    base_url: BaseUrlDep,
) -> schemas.TableCreated:
    """Open a private practice table with the same deal as hand ``number`` after ``step`` of
    its moves (the same cards, the same dealer, those moves already made). Its seats are free:
    take any, seat bots for the others (``host_token``, also set as the ``mu_host_…`` cookie),
    or share ``invite_url``. It plays that one hand and is never counted as a game. Only a
    finished hand can be branched."""
    host_token = tokens.new_host_token()
    try:
        live = await open_practice(
            hub=hub, invite_code=invite_code, number=number, step=body.step, host_token=host_token
        )
    except PracticeRefused as refused:
        detail = {"code": refused.code, "message": refused.message}
        raise HTTPException(refused.status, detail=detail) from refused
    code = live.invite_code
    secure = base_url.startswith("https://")
    set_host_cookie(response, invite_code=code, token=host_token, secure=secure)
    url = service.invite_url(base_url=base_url, invite_code=code)
    return schemas.TableCreated(
        table_id=live.table_id, invite_code=code, invite_url=url, host_token=host_token
    )
