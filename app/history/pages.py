"""A table's history pages: score sheet (HTML, CSV), hand pages with replay and review, the
hand and game files, and "my tables".

Private by construction: every route needs the table's invite code (or, for "my tables", the
browser's own seat cookies); every response says ``noindex`` and ``no-store``; only finished
hands are ever shown, so nothing of the hand in progress leaves the server.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import HTMLResponse

from app.history import mine, reviews, same_deal, sheet, views
from app.history.i18n import Text
from app.history.rendering import error_page, render
from app.history.views import CodePath, HandPath, Replay, Source
from app.http.errors import error_response
from app.tables import chat, hints
from app.web.pages import PageLanguage
from app.web.render import PrivateRoute

router = APIRouter(route_class=PrivateRoute, include_in_schema=False)


@router.get("/t/{invite_code}/sheet", response_class=HTMLResponse)
async def sheet_page(request: Request, invite_code: CodePath, lang: PageLanguage) -> HTMLResponse:
    """The score sheet, laid out like the paper one."""
    history = await views.table_history(request, invite_code)
    if history is None:
        return error_page(request, lang, 404, "unknown_table")
    db, table_id = request.app.state.db_engine, history.live.table_id
    return views.sheet_page(
        request,
        lang,
        history,
        Source.table(invite_code),
        viewer=views.viewer_seat(request, history),
        hints=await hints.taken(db=db, table_id=table_id),
        talk=await chat.lines(db=db, table_id=table_id, limit=None),
        reviewed=await reviews.results(db=db, table_id=table_id),
    )


@router.get("/t/{invite_code}/sheet.csv")
async def sheet_csv(request: Request, invite_code: CodePath) -> Response:
    """The score sheet as CSV: one line per hand."""
    history = await views.table_history(request, invite_code)
    if history is None:
        return error_response(404, "unknown_table", "no table has this invite code")
    filename = f"mu-scoresheet-{history.created_at:%Y-%m-%d}.csv" if history.created_at else ""
    return Response(
        sheet.to_csv(history),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename or "mu.csv"}"'},
    )


@router.get("/t/{invite_code}/hands/{number}", response_class=HTMLResponse)
async def hand_page(
    request: Request,
    invite_code: CodePath,
    number: HandPath,
    lang: PageLanguage,
    place: Replay,
    review: Annotated[bool, Query()] = False,
) -> HTMLResponse:
    """A finished hand in full, with its replay at ``step`` seen from ``seat`` (or all open)."""
    history = await views.table_history(request, invite_code)
    found = views.finished_hand(history, number, views.UNKNOWN_TABLE)
    if isinstance(found, views.Missing):
        return error_page(request, lang, found.status, found.code)
    history, record = found
    viewer = views.viewer_seat(request, history)
    db = request.app.state.db_engine
    judged = await views.read_review(request, history, record, Text(lang), viewer)
    if review:  # the review section alone (the page polls it while the review runs)
        url = views.practice_url(invite_code, number)
        return render(
            request, "history/_review.html", lang, code=invite_code, review=judged, practice_url=url
        )
    source = Source.table(invite_code)
    # The same deal played again at practice tables (not for the replay's frame alone).
    again = [] if place.partial else await same_deal.plays(db=db, history=history, number=number)
    return views.hand_page(
        request, lang, history, record, source, place, viewer=viewer, review=judged, again=again
    )


@router.get("/t/{invite_code}/hands/{number}/file")
async def hand_file(request: Request, invite_code: CodePath, number: HandPath) -> Response:
    """A finished hand as a hand file (docs/notation.md)."""
    found = views.finished_hand(
        await views.table_history(request, invite_code), number, views.UNKNOWN_TABLE
    )
    return error_response(*found) if isinstance(found, views.Missing) else views.hand_file(*found)


@router.get("/t/{invite_code}/game.txt")
async def game_file(request: Request, invite_code: CodePath) -> Response:
    """The table's finished hands as a game file (docs/notation.md)."""
    history = await views.table_history(request, invite_code)
    if history is None:
        return error_response(404, "unknown_table", "no table has this invite code")
    return views.game_file(history)


@router.get("/me/tables", response_class=HTMLResponse)
async def my_tables_page(request: Request, lang: PageLanguage) -> HTMLResponse:
    """The tables this browser sits at, and statistics per player name across them."""
    tables = await mine.my_tables(session_factory=views.sessions(request), cookies=request.cookies)
    return render(
        request, "history/tables.html", lang, tables=tables, stats=mine.statistics(tables)
    )
