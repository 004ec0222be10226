"""HTML pages: home (`/`) and the invite/lobby/table page (`/t/{invite_code}`).

The pages are thin shells rendered with Jinja2 and gettext; everything live on the table is drawn
by the ES modules in ``static/js`` from the server's WebSocket views.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Request
from fastapi import Path as Path_
from fastapi.responses import HTMLResponse

import engine
from app.tables import options
from app.web import i18n, pages, rules, templating
from app.web.pages import PageLanguage

router = APIRouter(include_in_schema=False)

_ENVIRONMENTS = {lang: templating.environment(i18n.translations(lang)) for lang in i18n.LANGUAGES}
_NO_STORE = {"Cache-Control": "no-store"}


def _page(request: Request, template: str, lang: str, **context: object) -> HTMLResponse:
    html = pages.render(_ENVIRONMENTS, template, lang, path=request.url.path, **context)
    # Any ?lang= switch is remembered (an unsupported one as the language chosen instead).
    remember = "lang" in request.query_params
    return pages.respond(html, lang, remember=remember, headers=_NO_STORE)


@router.get("/", response_class=HTMLResponse)
def home(request: Request, lang: PageLanguage) -> HTMLResponse:
    """What Mü Online is, and the form that opens a new table."""
    context = {"rules": rules.rules_for(lang), "options": options.form_options()}
    return _page(request, "home.html", lang, **context)


@router.get("/t/{invite_code}", response_class=HTMLResponse)
def table(
    request: Request, invite_code: Annotated[str, Path_(max_length=128)], lang: PageLanguage
) -> HTMLResponse:
    """Invite, lobby and table in one page: the script decides what to show from the table state."""
    # The help's rules in short describe the classic game.
    pause = request.app.state.settings.trick_pause_ms  # how long a completed trick stays
    return _page(
        request,
        "table.html",
        lang,
        code=invite_code,
        classic=engine.Variant.CLASSIC,
        trick_pause_ms=pause,
    )
