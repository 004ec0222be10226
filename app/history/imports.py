"""Imported hand and game files: paste or upload one, and see its score sheet and replay at
its private link (``/import/{code}/…``), as a table's history is shown."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, File, Form, Request, Response, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse

from app.history import files, views
from app.history.rendering import error_page, render
from app.history.service import TableHistory
from app.history.views import CodePath, HandPath, Replay, Source
from app.http import ratelimits
from app.http.errors import error_response
from app.web.pages import PageLanguage
from app.web.render import PrivateRoute
from engine import notation

router = APIRouter(route_class=PrivateRoute, include_in_schema=False)
_MAX_KB = files.MAX_BYTES // 1024


@router.get("/import", response_class=HTMLResponse)
async def import_page(request: Request, lang: PageLanguage) -> HTMLResponse:
    """Paste or upload a hand file or game file to see its score sheet and replay."""
    return render(request, "history/import.html", lang, max_kb=_MAX_KB)


@router.post(
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
            request, "history/import.html", lang, status_code=422, max_kb=_MAX_KB, problem=code
        )
    code = await files.store(session_factory=views.sessions(request), text=content)
    target = f"/import/{code}/sheet" if len(parsed.hands) > 1 else f"/import/{code}/hands/1"
    return RedirectResponse(target, status_code=303)


def _import_error(
    request: Request, lang: str, content: str, exc: notation.NotationError
) -> HTMLResponse:
    lines = content.splitlines()
    shown = lines[exc.line - 1] if 0 < exc.line <= len(lines) else None
    return render(
        request, "history/import.html", lang, status_code=422,
        max_kb=_MAX_KB, problem=exc.code, error=exc, shown=shown, text=content,
    )  # fmt: skip


async def _imported(request: Request, code: str) -> TableHistory | None:
    return await files.load(session_factory=views.sessions(request), code=code)


@router.get("/import/{code}/sheet", response_class=HTMLResponse)
async def imported_sheet(request: Request, code: CodePath, lang: PageLanguage) -> HTMLResponse:
    """The score sheet of an imported file."""
    history = await _imported(request, code)
    if history is None:
        return error_page(request, lang, 404, "unknown_import")
    return views.sheet_page(request, lang, history, Source.file(code))


@router.get("/import/{code}/hands/{number}", response_class=HTMLResponse)
async def imported_hand(
    request: Request,
    code: CodePath,
    number: HandPath,
    lang: PageLanguage,
    place: Replay,
) -> HTMLResponse:
    """A hand of an imported file, with its replay (all hands open unless a seat is asked)."""
    found = views.finished_hand(await _imported(request, code), number, views.UNKNOWN_IMPORT)
    if isinstance(found, views.Missing):
        return error_page(request, lang, found.status, found.code)
    history, record = found
    return views.hand_page(request, lang, history, record, Source.file(code), place)


@router.get("/import/{code}/hands/{number}/file")
async def imported_hand_file(request: Request, code: CodePath, number: HandPath) -> Response:
    history = await _imported(request, code)
    record = history.hand(number) if history else None
    if history is None or record is None:
        return error_response(404, "unknown_hand", "no such imported hand")
    return views.hand_file(history, record)


@router.get("/import/{code}/game.txt")
async def imported_game_file(request: Request, code: CodePath) -> Response:
    history = await _imported(request, code)
    if history is None:
        return error_response(404, "unknown_import", "no such imported file")
    return views.game_file(history)
