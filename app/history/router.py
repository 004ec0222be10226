"""History pages and their JSON: score sheet (HTML, CSV), hand pages with replay, my tables.

Private by construction: every route needs the table's invite code (or, for "my tables", the
browser's own seat cookies); every response says ``noindex`` and ``no-store``; only finished
hands are ever shown, so nothing of the hand in progress leaves the server.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, File, Form, Query, Request, Response, UploadFile
from fastapi import Path as Path_
from fastapi.exception_handlers import request_validation_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse
from fastapi.routing import APIRoute
from jinja2 import Environment

import engine
from app import ratelimits
from app.db import SessionFactory
from app.errors import ErrorBody, error_response
from app.history import files, hands, mine, review_page, schemas, service, sheet, words
from app.history.i18n import Text, translations
from app.history.service import TableHistory
from app.tables import chat, hints, reviews, tokens
from app.web import i18n as web_i18n
from app.web import pages as web_pages
from app.web import templating
from app.web.pages import LangQuery, PageLanguage
from engine import notation

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
# A replay's place: the step, whose eyes (a seat or "all"), and the frame alone (for the script).
StepQuery = Annotated[int, Query(ge=0, le=10_000)]
SeatQuery = Annotated[str | None, Query(max_length=8, pattern=SEAT_PATTERN)]
PartialQuery = Annotated[bool, Query()]


def _environment(lang: str) -> Environment:
    env = templating.environment(translations(lang))
    t = Text(lang)
    env.globals.update(
        card_name=lambda card: words.card(t, card),
        trump_name=lambda kind: words.trump(t, kind),
        signed=words.signed,
        num=words.number,
        decimal=lambda value: words.decimal(t, value),
    )
    return env


# One environment per language: the gettext callables are bound to their environment.
_ENVIRONMENTS = {lang: _environment(lang) for lang in web_i18n.LANGUAGES}


def render_page(template: str, lang: str, *, path: str, **context: object) -> str:
    """A history template in ``lang``; ``path`` is the page's own (base.html's language links)."""
    return web_pages.render(_ENVIRONMENTS, template, lang, path=path, **context)


def render(
    request: Request, template: str, lang: str, *, status_code: int = 200, **context: object
) -> HTMLResponse:
    html = render_page(template, lang, path=request.url.path, **context)
    # Only a supported ?lang= is remembered (the privacy headers come from PrivateRoute).
    remember = web_i18n.supported(request.query_params.get("lang")) is not None
    return web_pages.respond(html, lang, remember=remember, status_code=status_code)


def _error_page(request: Request, lang: str, status_code: int, code: str) -> HTMLResponse:
    return render(request, "history/error.html", lang, status_code=status_code, code=code)


def _sessions(request: Request) -> SessionFactory:
    factory: SessionFactory = request.app.state.session_factory
    return factory


async def _history(request: Request, invite_code: str) -> TableHistory | None:
    return await service.load(session_factory=_sessions(request), invite_code=invite_code)


def _viewer_seat(request: Request, history: TableHistory) -> int | None:
    token = request.cookies.get(tokens.seat_cookie_name(history.invite_code))
    return history.seat_of_token(token)


async def _finished_hand(
    request: Request, invite_code: str, number: int
) -> tuple[TableHistory, service.HandRecord] | JSONResponse:
    """The table's history and its finished hand ``number``, or the API's typed error."""
    history = await _history(request, invite_code)
    if history is None:
        return error_response(404, "unknown_table", "no table has this invite code")
    record = history.hand(number)
    if record is None:
        return error_response(*_missing_hand(history, number))
    return history, record


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
    return render(
        request,
        "history/sheet.html",
        lang,
        code=invite_code,
        history=history,
        base=f"/t/{invite_code}",
        sheet=sheet.build(history, Text(lang)),
        totals_chart=sheet.totals_chart(history, Text(lang)),
        viewer=_viewer_seat(request, history),
        hints=await hints.taken(db=request.app.state.db_engine, table_id=history.live.table_id),
        talk=await chat.lines(
            db=request.app.state.db_engine, table_id=history.live.table_id, limit=None
        ),
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
    step: StepQuery = 0,
    seat: SeatQuery = None,
    partial: PartialQuery = False,
    review: Annotated[bool, Query()] = False,
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
    judged = await _review(request, history, record, t, viewer)
    if review:  # the review section alone (the page polls it while the review runs)
        return render(request, "history/_review.html", lang, code=invite_code, review=judged)
    perspective = _perspective(seat, viewer, history.players)
    frame = hands.frame(history, record, step, perspective, t)
    context: dict[str, Any] = {
        "code": invite_code,
        "base": f"/t/{invite_code}",
        "history": history,
        "frame": frame,
        "viewer": viewer,
        "seat_param": "all" if perspective is None else str(perspective),
    }
    if partial:
        return render(request, "history/_replay.html", lang, **context)
    detail = hands.detail(history, record, t)
    steps = hands.auction_steps(detail, history.players)
    return render(
        request, "history/hand.html", lang, hand=detail, auction=steps, review=judged, **context
    )


@pages.get("/t/{invite_code}/hands/{number}/file")
async def hand_file(request: Request, invite_code: CodePath, number: HandPath) -> Response:
    """A finished hand as a hand file (docs/notation.md)."""
    history = await _history(request, invite_code)
    if history is None:
        return error_response(404, "unknown_table", "no table has this invite code")
    record = history.hand(number)
    if record is None:
        return error_response(*_missing_hand(history, number))
    return _text_file(files.hand_file(history, record), files.filename(history, f"hand-{number}"))


@pages.get("/t/{invite_code}/game.txt")
async def game_file(request: Request, invite_code: CodePath) -> Response:
    """The table's finished hands as a game file (docs/notation.md)."""
    history = await _history(request, invite_code)
    if history is None:
        return error_response(404, "unknown_table", "no table has this invite code")
    return _text_file(files.game_file(history), files.filename(history, "game"))


def _text_file(text: str, filename: str) -> Response:
    return Response(
        text,
        media_type="text/plain; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


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
    return render(
        request, "history/tables.html", lang, tables=tables, stats=mine.statistics(tables)
    )


# ----- imported hand and game files ---------------------------------------------------------


@pages.get("/import", response_class=HTMLResponse)
async def import_page(request: Request, lang: PageLanguage) -> HTMLResponse:
    """Paste or upload a hand file or game file to see its score sheet and replay."""
    return render(request, "history/import.html", lang, max_kb=files.MAX_BYTES // 1024)


@pages.post(
    "/import", response_class=HTMLResponse, dependencies=[ratelimits.limited("create_table")]
)
async def import_file(
    request: Request,
    lang: PageLanguage,
    text: Annotated[str, Form(max_length=files.MAX_BYTES)] = "",
    upload: Annotated[UploadFile | None, File()] = None,
) -> Response:
    """Check the file with the engine (it replays every move); store it; show its replay."""
    try:
        data = await upload.read(files.MAX_BYTES + 1) if upload and upload.filename else b""
        content = files.read_upload(data) if data else text
        parsed = notation.parse(content)
    except notation.NotationError as exc:
        return _import_error(request, lang, content, exc)
    except (files.TooLarge, UnicodeDecodeError) as exc:
        code = "too_large" if isinstance(exc, files.TooLarge) else "not_text"
        return render(
            request, "history/import.html", lang, status_code=422,
            max_kb=files.MAX_BYTES // 1024, problem=code,
        )  # fmt: skip
    code = await files.store(session_factory=_sessions(request), text=content)
    target = f"/import/{code}/sheet" if len(parsed.hands) > 1 else f"/import/{code}/hands/1"
    return RedirectResponse(target, status_code=303)


def _import_error(
    request: Request, lang: str, content: str, exc: notation.NotationError
) -> HTMLResponse:
    lines = content.splitlines()
    shown = lines[exc.line - 1] if 0 < exc.line <= len(lines) else None
    return render(
        request, "history/import.html", lang, status_code=422,
        max_kb=files.MAX_BYTES // 1024, problem=exc.code, error=exc, shown=shown, text=content,
    )  # fmt: skip


async def _imported(request: Request, code: str) -> TableHistory | None:
    return await files.load(session_factory=_sessions(request), code=code)


@pages.get("/import/{code}/sheet", response_class=HTMLResponse)
async def imported_sheet(request: Request, code: CodePath, lang: PageLanguage) -> HTMLResponse:
    """The score sheet of an imported file."""
    history = await _imported(request, code)
    if history is None:
        return _error_page(request, lang, 404, "unknown_import")
    return render(
        request, "history/sheet.html", lang, code=code, base=f"/import/{code}", imported=True,
        history=history, sheet=sheet.build(history, Text(lang)),
        totals_chart=sheet.totals_chart(history, Text(lang)), viewer=None, hints={},
    )  # fmt: skip


@pages.get("/import/{code}/hands/{number}", response_class=HTMLResponse)
async def imported_hand(
    request: Request,
    code: CodePath,
    number: HandPath,
    lang: PageLanguage,
    step: StepQuery = 0,
    seat: SeatQuery = None,
    partial: PartialQuery = False,
) -> HTMLResponse:
    """A hand of an imported file, with its replay (all hands open unless a seat is asked)."""
    history = await _imported(request, code)
    if history is None:
        return _error_page(request, lang, 404, "unknown_import")
    record = history.hand(number)
    if record is None:
        return _error_page(request, lang, 404, "unknown_hand")
    t = Text(lang)
    perspective = _perspective(seat, None, history.players)
    context: dict[str, Any] = {
        "code": code,
        "base": f"/import/{code}",
        "imported": True,
        "history": history,
        "frame": hands.frame(history, record, step, perspective, t),
        "viewer": None,
        "seat_param": "all" if perspective is None else str(perspective),
    }
    if partial:
        return render(request, "history/_replay.html", lang, **context)
    detail = hands.detail(history, record, t)
    steps = hands.auction_steps(detail, history.players)
    return render(request, "history/hand.html", lang, hand=detail, auction=steps, **context)


@pages.get("/import/{code}/hands/{number}/file")
async def imported_hand_file(request: Request, code: CodePath, number: HandPath) -> Response:
    history = await _imported(request, code)
    record = history.hand(number) if history else None
    if history is None or record is None:
        return error_response(404, "unknown_hand", "no such imported hand")
    return _text_file(files.hand_file(history, record), files.filename(history, f"hand-{number}"))


@pages.get("/import/{code}/game.txt")
async def imported_game_file(request: Request, code: CodePath) -> Response:
    history = await _imported(request, code)
    if history is None:
        return error_response(404, "unknown_import", "no such imported file")
    return _text_file(files.game_file(history), files.filename(history, "game"))


# ----- JSON ----------------------------------------------------------------------------------

me_api = APIRouter(prefix="/api/me", tags=["history"], route_class=PrivateRoute)


@me_api.get("/tables")
async def my_tables_now(request: Request) -> dict[str, Any]:
    """This browser's tables (its seat cookies), those where it is the seat's turn first, each
    with how long its current turn has lasted (the others' wait, or yours)."""
    tables = await mine.my_tables(session_factory=_sessions(request), cookies=request.cookies)
    began = await mine.turns_began(
        session_factory=_sessions(request), table_ids=[t.history.live.table_id for t in tables]
    )
    now = datetime.now(UTC)
    rows = []
    for table in tables:
        live = table.history.live
        to_move = live.hand.to_move if live.hand is not None and live.status == "playing" else None
        since = began.get(live.table_id)
        rows.append(
            {
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
        )
    rows.sort(key=lambda row: (not row["your_turn"], row["status"] == "over"))
    return {"tables": rows, "your_turn": sum(1 for row in rows if row["your_turn"])}


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
    found = await _finished_hand(request, invite_code, number)
    if isinstance(found, JSONResponse):
        return found
    history, record = found
    t = Text(web_i18n.supported(lang) or web_i18n.DEFAULT_LANGUAGE)
    return hands.detail_json(hands.detail(history, record, t))


@api.get(
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
    t = Text(web_i18n.supported(lang) or web_i18n.DEFAULT_LANGUAGE)
    return review_page.to_json(await _review(request, history, record, t))


async def _review(
    request: Request,
    history: TableHistory,
    record: service.HandRecord,
    t: Text,
    viewer: int | None = None,
) -> review_page.ReviewPage:
    db, table_id = request.app.state.db_engine, history.live.table_id
    stored = await reviews.read(db=db, table_id=table_id, hand_number=record.number)
    if stored is None or stored.status == reviews.PENDING:
        # Somebody waits for it: before the backlog (and enqueued if it never was).
        now = datetime.now(UTC)
        await reviews.wanted(db=db, table_id=table_id, hand_number=record.number, now=now)
    return review_page.build(stored, history, record, t, viewer)


# The one router app/main.py includes: pages first, then the JSON.
router = APIRouter()
router.include_router(pages)
router.include_router(api)
router.include_router(me_api)
