"""The history's JSON: a table's finished hands, one hand in full, its review, and this
browser's tables. Private like the pages (``noindex``, ``no-store``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

import engine
from app.history import hands, mine, review_page, schemas, service, views
from app.history.i18n import Text
from app.history.service import TableHistory
from app.history.views import CodePath, HandPath
from app.http.errors import ErrorBody, error_response
from app.web import i18n as web_i18n
from app.web.pages import LangQuery
from app.web.render import PrivateRoute

tables_api = APIRouter(prefix="/api/tables", tags=["history"], route_class=PrivateRoute)
me_api = APIRouter(prefix="/api/me", tags=["history"], route_class=PrivateRoute)

_ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorBody, "description": "unknown_table or unknown_hand"},
    409: {"model": ErrorBody, "description": "hand_in_progress: the hand is not over yet"},
}


def _text(lang: str | None) -> Text:
    return Text(web_i18n.supported(lang) or web_i18n.DEFAULT_LANGUAGE)


async def _finished_hand(
    request: Request, invite_code: str, number: int
) -> tuple[TableHistory, service.HandRecord] | JSONResponse:
    """The table's history and its finished hand ``number``, or the API's typed error."""
    history = await views.table_history(request, invite_code)
    found = views.finished_hand(history, number, views.UNKNOWN_TABLE)
    return error_response(*found) if isinstance(found, views.Missing) else found


@tables_api.get("/{invite_code}/hands", responses=_ERRORS, response_model=schemas.HandList)
async def list_hands(request: Request, invite_code: CodePath, lang: LangQuery = None) -> Any:
    """The finished hands: kind, bid, chief, trump, success and each seat's score."""
    history = await views.table_history(request, invite_code)
    if history is None:
        return error_response(404, "unknown_table", "no table has this invite code")
    t = _text(lang)
    return {
        "names": history.names,
        "hands": [
            {
                **engine.to_json_object(hands.summary(history, record, t)),
                "url": f"/t/{invite_code}/hands/{record.number}",
            }
            for record in history.hands
        ],
        "running": history.running,
        "scoresheet": f"/api/tables/{invite_code}/scoresheet",
    }


@tables_api.get(
    "/{invite_code}/hands/{number}", responses=_ERRORS, response_model=schemas.HandDetail
)
async def read_hand(
    request: Request, invite_code: CodePath, number: HandPath, lang: LangQuery = None
) -> Any:
    """A finished hand in full: deal, auction, tricks, result, and the action log to replay."""
    found = await _finished_hand(request, invite_code, number)
    if isinstance(found, JSONResponse):
        return found
    history, record = found
    return hands.detail_json(hands.detail(history, record, _text(lang)))


@tables_api.get(
    "/{invite_code}/hands/{number}/review", responses=_ERRORS, response_model=schemas.HandReview
)
async def read_review(
    request: Request, invite_code: CodePath, number: HandPath, lang: LangQuery = None
) -> Any:
    """The search bot's review of a finished hand: its status (with progress while it runs)
    and, once done, every decision with the values of the action taken, the best one and the
    alternatives; computed from each seat's information at that moment only."""
    found = await _finished_hand(request, invite_code, number)
    if isinstance(found, JSONResponse):
        return found
    history, record = found
    return review_page.to_json(await views.read_review(request, history, record, _text(lang)))


@me_api.get("/tables")
async def my_tables_now(request: Request) -> dict[str, Any]:
    """This browser's tables (its seat cookies), those where it is the seat's turn first, each
    with how long its current turn has lasted (the others' wait, or yours)."""
    sessions = views.sessions(request)
    tables = await mine.my_tables(session_factory=sessions, cookies=request.cookies)
    began = await mine.turns_began(
        session_factory=sessions, table_ids=[t.history.live.table_id for t in tables]
    )
    now = datetime.now(UTC)
    rows = [_my_table(table, began.get(table.history.live.table_id), now) for table in tables]
    rows.sort(key=lambda row: (not row["your_turn"], row["status"] == "over"))
    return {"tables": rows, "your_turn": sum(1 for row in rows if row["your_turn"])}


def _my_table(table: mine.MyTable, since: datetime | None, now: datetime) -> dict[str, Any]:
    live = table.history.live
    to_move = live.hand.to_move if live.hand is not None and live.status == "playing" else None
    return {
        "invite_code": live.invite_code,
        "url": f"/t/{live.invite_code}",
        "seat": table.seat,
        "names": [seat.name if seat is not None else None for seat in live.seats],
        "status": live.status,
        "pace": live.options.pace,
        "your_turn": to_move == table.seat,
        "turn_seconds": max(0, int((now - since).total_seconds()))
        if since is not None and to_move is not None
        else None,
    }
