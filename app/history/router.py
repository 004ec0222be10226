"""History pages and their JSON: score sheet (HTML, CSV), hand pages with replay, my tables.

Private by construction: every route needs the table's invite code (or, for "my tables", the
browser's own seat cookies); every response says ``noindex`` and ``no-store``; only finished
hands are ever shown, so nothing of the hand in progress leaves the server.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from fastapi import Path as Path_
from fastapi.exception_handlers import request_validation_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse
from fastapi.routing import APIRoute
from jinja2 import Environment

import engine
from app.db import SessionFactory
from app.errors import ErrorBody, error_response
from app.history import hands, mine, schemas, service, sheet, words
from app.history.i18n import Text, translations
from app.history.service import TableHistory
from app.tables import tokens
from app.web import i18n as web_i18n
from app.web import pages as web_pages
from app.web import templating
from app.web.pages import LangQuery, PageLanguage

PRIVATE_HEADERS = {"X-Robots-Tag": "noindex, nofollow", "Cache-Control": "no-store"}


class PrivateRoute(APIRoute):
    """Adds the privacy headers to every response of these routes, errors included."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def private(request: Request) -> Response:
            try:
                response = await handler(request)
            except RequestValidationError as exc:
                # Answered here rather than by the app's handler, so it gets the headers too.
                response = await request_validation_exception_handler(request, exc)
            response.headers.update(PRIVATE_HEADERS)
            return response

        return private


pages = APIRouter(route_class=PrivateRoute, include_in_schema=False)
api = APIRouter(prefix="/api/tables", tags=["history"], route_class=PrivateRoute)

# "all", or a seat of the largest table the rules allow.
SEAT_PATTERN = f"^(all|[0-{max(engine.rules_catalog().player_counts) - 1}])$"
CodePath = Annotated[str, Path_(max_length=128)]
HandPath = Annotated[int, Path_(ge=1, le=100_000)]


def _environment(lang: str) -> Environment:
    env = templating.environment(translations(lang))
    t = Text(lang)
    env.globals.update(
        card_name=lambda card: words.card(t, card),
        trump_name=lambda kind: words.trump(t, kind),
        signed=words.signed,
        num=words.number,
    )
    return env


# One environment per language: the gettext callables are bound to their environment.
_ENVIRONMENTS = {lang: _environment(lang) for lang in web_i18n.LANGUAGES}


def render_page(template: str, lang: str, *, path: str, **context: object) -> str:
    """A history template in ``lang``; ``path`` is the page's own (base.html's language links)."""
    return web_pages.render(_ENVIRONMENTS, template, lang, path=path, **context)


def _render(
    request: Request, template: str, lang: str, *, status_code: int = 200, **context: object
) -> HTMLResponse:
    html = render_page(template, lang, path=request.url.path, **context)
    # Only a supported ?lang= is remembered (the privacy headers come from PrivateRoute).
    remember = web_i18n.supported(request.query_params.get("lang")) is not None
    return web_pages.respond(html, lang, remember=remember, status_code=status_code)


def _error_page(request: Request, lang: str, status_code: int, code: str) -> HTMLResponse:
    return _render(request, "history/error.html", lang, status_code=status_code, code=code)


def _sessions(request: Request) -> SessionFactory:
    factory: SessionFactory = request.app.state.session_factory
    return factory


async def _history(request: Request, invite_code: str) -> TableHistory | None:
    return await service.load(session_factory=_sessions(request), invite_code=invite_code)


def _viewer_seat(request: Request, history: TableHistory) -> int | None:
    token = request.cookies.get(tokens.seat_cookie_name(history.invite_code))
    return history.seat_of_token(token)


def _missing_hand(history: TableHistory, number: int) -> tuple[int, str, str]:
    """Why hand ``number`` cannot be shown: (status, code, message)."""
    if history.running == number:
        return 409, "hand_in_progress", "this hand is still being played; it is shown once over"
    return 404, "unknown_hand", "this table has no such hand"


# ----- pages ---------------------------------------------------------------------------------


@pages.get("/t/{invite_code}/sheet", response_class=HTMLResponse)
async def sheet_page(
    request: Request,
    invite_code: CodePath,
    lang: PageLanguage,
) -> HTMLResponse:
    """The score sheet, laid out like the paper one."""
    history = await _history(request, invite_code)
    if history is None:
        return _error_page(request, lang, 404, "unknown_table")
    return _render(
        request,
        "history/sheet.html",
        lang,
        code=invite_code,
        history=history,
        sheet=sheet.build(history, Text(lang)),
        viewer=_viewer_seat(request, history),
    )


@pages.get("/t/{invite_code}/sheet.csv")
async def sheet_csv(request: Request, invite_code: CodePath) -> Response:
    """The score sheet as CSV: one line per hand."""
    history = await _history(request, invite_code)
    if history is None:
        return error_response(404, "unknown_table", "no table has this invite code")
    filename = f"mu-scoresheet-{history.created_at:%Y-%m-%d}.csv" if history.created_at else ""
    return Response(
        sheet.to_csv(history),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename or "mu.csv"}"'},
    )


@pages.get("/t/{invite_code}/hands/{number}", response_class=HTMLResponse)
async def hand_page(
    request: Request,
    invite_code: CodePath,
    number: HandPath,
    lang: PageLanguage,
    step: Annotated[int, Query(ge=0, le=10_000)] = 0,
    seat: Annotated[str | None, Query(max_length=8, pattern=SEAT_PATTERN)] = None,
    partial: Annotated[bool, Query()] = False,
) -> HTMLResponse:
    """A finished hand in full, with its replay at ``step`` seen from ``seat`` (or all open)."""
    history = await _history(request, invite_code)
    if history is None:
        return _error_page(request, lang, 404, "unknown_table")
    record = history.hand(number)
    if record is None:
        status, code, _message = _missing_hand(history, number)
        return _error_page(request, lang, status, code)
    t = Text(lang)
    viewer = _viewer_seat(request, history)
    perspective = _perspective(seat, viewer, history.players)
    frame = hands.frame(history, record, step, perspective, t)
    context: dict[str, Any] = {
        "code": invite_code,
        "history": history,
        "frame": frame,
        "viewer": viewer,
        "seat_param": "all" if perspective is None else str(perspective),
    }
    if partial:
        return _render(request, "history/_replay.html", lang, **context)
    detail = hands.detail(history, record, t)
    steps = hands.auction_steps(detail, history.players)
    return _render(request, "history/hand.html", lang, hand=detail, auction=steps, **context)


def _perspective(seat: str | None, viewer: int | None, players: int) -> int | None:
    """Whose hand the replay shows: the asked seat, else the viewer's own; None = all open."""
    if seat is None:
        return viewer
    if seat == "all" or int(seat) >= players:
        return None
    return int(seat)


@pages.get("/me/tables", response_class=HTMLResponse)
async def my_tables_page(
    request: Request,
    lang: PageLanguage,
) -> HTMLResponse:
    """The tables this browser sits at, and statistics per player name across them."""
    tables = await mine.my_tables(session_factory=_sessions(request), cookies=request.cookies)
    return _render(
        request, "history/tables.html", lang, tables=tables, stats=mine.statistics(tables)
    )


# ----- JSON ----------------------------------------------------------------------------------

_ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorBody, "description": "unknown_table or unknown_hand"},
    409: {"model": ErrorBody, "description": "hand_in_progress: the hand is not over yet"},
}


@api.get("/{invite_code}/hands", responses=_ERRORS, response_model=schemas.HandList)
async def list_hands(request: Request, invite_code: CodePath, lang: LangQuery = None) -> Any:
    """The finished hands: kind, bid, chief, trump, success and each seat's score."""
    history = await _history(request, invite_code)
    if history is None:
        return error_response(404, "unknown_table", "no table has this invite code")
    t = Text(web_i18n.supported(lang) or web_i18n.DEFAULT_LANGUAGE)
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


@api.get("/{invite_code}/hands/{number}", responses=_ERRORS, response_model=schemas.HandDetail)
async def read_hand(
    request: Request, invite_code: CodePath, number: HandPath, lang: LangQuery = None
) -> Any:
    """A finished hand in full: deal, auction, tricks, result, and the action log to replay."""
    history = await _history(request, invite_code)
    if history is None:
        return error_response(404, "unknown_table", "no table has this invite code")
    record = history.hand(number)
    if record is None:
        return error_response(*_missing_hand(history, number))
    t = Text(web_i18n.supported(lang) or web_i18n.DEFAULT_LANGUAGE)
    return hands.detail_json(hands.detail(history, record, t))


# The one router app/main.py includes: pages first, then the JSON.
router = APIRouter()
router.include_router(pages)
router.include_router(api)
