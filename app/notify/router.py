"""The push routes: the VAPID public key, and a seat's subscriptions (add, remove)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request, Response, status
from pydantic import BaseModel, ConfigDict, Field

from app.deps import DbEngineDep, HubDep, SeatTokenDep
from app.http.errors import ErrorBody
from app.notify import store
from app.notify.sender import Notifier
from app.web import i18n

router = APIRouter(tags=["push"])

_ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": ErrorBody, "description": "not_seated: the token holds no seat here"},
    404: {"model": ErrorBody, "description": "unknown invite code"},
}
# Push services' keys are base64url: a P-256 point (65 bytes) and a 16-byte secret.
_B64URL = r"^[A-Za-z0-9_-]+=*$"


class SubscriptionKeys(BaseModel):
    p256dh: str = Field(min_length=80, max_length=100, pattern=_B64URL)
    auth: str = Field(min_length=16, max_length=32, pattern=_B64URL)


class PushSubscriptionBody(BaseModel):
    """A browser's ``PushSubscription.toJSON()``, plus the language of its texts."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "endpoint": "https://push.example/send/abc",
                    "keys": {"p256dh": "B" + "A" * 86, "auth": "A" * 22},
                    "lang": "en",
                }
            ]
        }
    )

    endpoint: str = Field(min_length=12, max_length=1024, pattern=r"^https?://")
    keys: SubscriptionKeys
    lang: str | None = Field(default=None, max_length=16, description="de or en; else the page's")


class Unsubscribe(BaseModel):
    endpoint: str = Field(min_length=12, max_length=1024)


class PushKey(BaseModel):
    public_key: str = Field(description="base64url VAPID key for PushManager.subscribe")


def get_notifier(request: Request) -> Notifier:
    notifier: Notifier = request.app.state.notifier
    return notifier


NotifierDep = Annotated[Notifier, Depends(get_notifier)]


@router.get("/api/push/key")
async def push_key(notifier: NotifierDep) -> PushKey:
    """The server's VAPID public key (``applicationServerKey``)."""
    return PushKey(public_key=(await notifier.keys()).public_key)


async def _seat(hub: HubDep, invite_code: str, token: str | None) -> tuple[int, int]:
    room = await hub.room(invite_code)
    if room is None:
        raise HTTPException(
            status.HTTP_404_NOT_FOUND,
            detail={"code": "unknown_table", "message": "no table has this invite code"},
        )
    seat = await room.seat_of(token) if token else None
    if seat is None:
        raise HTTPException(
            status.HTTP_403_FORBIDDEN,
            detail={"code": "not_seated", "message": "this token holds no seat at the table"},
        )
    return room.live.table_id, seat


@router.post(
    "/api/tables/{invite_code}/push", status_code=status.HTTP_204_NO_CONTENT, responses=_ERRORS
)
async def subscribe(
    invite_code: str,
    body: PushSubscriptionBody,
    request: Request,
    hub: HubDep,
    db_engine: DbEngineDep,
    token: SeatTokenDep,
) -> Response:
    """Notify this seat by Web Push (its turn while away, the game's end, "play again")."""
    table_id, seat = await _seat(hub, invite_code, token)
    lang = i18n.supported(body.lang) or i18n.from_accept_language(
        request.headers.get("accept-language")
    )
    await store.subscribe(
        db_engine,
        table_id=table_id,
        seat=seat,
        endpoint=body.endpoint,
        p256dh=body.keys.p256dh,
        auth=body.keys.auth,
        lang=lang or i18n.DEFAULT_LANGUAGE,
    )
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.delete(
    "/api/tables/{invite_code}/push", status_code=status.HTTP_204_NO_CONTENT, responses=_ERRORS
)
async def unsubscribe(
    invite_code: str, body: Unsubscribe, hub: HubDep, db_engine: DbEngineDep, token: SeatTokenDep
) -> Response:
    """Stop notifying this seat on the browser of ``endpoint``."""
    table_id, seat = await _seat(hub, invite_code, token)
    await store.unsubscribe(db_engine, table_id=table_id, seat=seat, endpoint=body.endpoint)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
