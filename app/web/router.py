"""HTML pages: home (`/`) and the invite/lobby/table page (`/t/{invite_code}`).

The pages are thin shells rendered with Jinja2 and gettext; everything live on the table is drawn
by the ES modules in ``static/js`` from the server's WebSocket views.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Cookie, Header, Query, Request
from fastapi import Path as Path_
from fastapi.responses import HTMLResponse

from app.web import i18n, templating

_ONE_YEAR = 365 * 24 * 3600

router = APIRouter(include_in_schema=False)


_ENVIRONMENTS = {lang: templating.environment(i18n.translations(lang)) for lang in i18n.LANGUAGES}

LangQuery = Annotated[str | None, Query(alias="lang", max_length=16)]
LangCookie = Annotated[str | None, Cookie(alias=i18n.LANG_COOKIE, max_length=16)]
AcceptLanguage = Annotated[str | None, Header(max_length=512)]


def _render(
    request: Request, template: str, lang: str, remember: bool, **context: object
) -> HTMLResponse:
    page = _ENVIRONMENTS[lang].get_template(template)
    other = [code for code in i18n.LANGUAGES if code != lang]
    html = page.render(lang=lang, other_languages=other, path=request.url.path, **context)
    response = HTMLResponse(html, headers={"Cache-Control": "no-store"})
    if remember:
        # The switch is remembered so that every later page (and the JS) speaks the same language.
        response.set_cookie(i18n.LANG_COOKIE, lang, max_age=_ONE_YEAR, samesite="lax")
    return response


@router.get("/", response_class=HTMLResponse)
def home(
    request: Request,
    lang: LangQuery = None,
    mu_lang: LangCookie = None,
    accept_language: AcceptLanguage = None,
) -> HTMLResponse:
    """What Mü Online is, and the form that opens a new table."""
    chosen = i18n.choose(lang, mu_lang, accept_language)
    return _render(request, "home.html", chosen, remember=lang is not None)


@router.get("/t/{invite_code}", response_class=HTMLResponse)
def table(
    request: Request,
    invite_code: Annotated[str, Path_(max_length=128)],
    lang: LangQuery = None,
    mu_lang: LangCookie = None,
    accept_language: AcceptLanguage = None,
) -> HTMLResponse:
    """Invite, lobby and table in one page: the script decides what to show from the table state."""
    chosen = i18n.choose(lang, mu_lang, accept_language)
    return _render(request, "table.html", chosen, remember=lang is not None, code=invite_code)
