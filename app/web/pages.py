"""Serving a server-rendered page: its language, its template in that language, the response.

Shared by the site's pages (``router.py``) and the history pages (``app/history``), so that
every page picks its language, links its other languages and remembers a switch alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated

from fastapi import Cookie, Depends, Header, Query
from fastapi.responses import HTMLResponse
from jinja2 import Environment

from app.web import i18n

_ONE_YEAR = 365 * 24 * 3600

LangQuery = Annotated[str | None, Query(alias="lang", max_length=16)]
LangCookie = Annotated[str | None, Cookie(alias=i18n.LANG_COOKIE, max_length=16)]
AcceptLanguage = Annotated[str | None, Header(max_length=512)]


def page_language(
    lang: LangQuery = None, mu_lang: LangCookie = None, accept_language: AcceptLanguage = None
) -> str:
    """``?lang=`` wins, then the remembered choice, then the browser's preference."""
    return i18n.choose(lang, mu_lang, accept_language)


PageLanguage = Annotated[str, Depends(page_language)]


def render(
    environments: Mapping[str, Environment],
    template: str,
    lang: str,
    *,
    path: str,
    **context: object,
) -> str:
    """``template`` in ``lang``; ``path`` is the page's own (base.html links it in the other
    languages)."""
    page = environments[lang].get_template(template)
    others = [code for code in i18n.LANGUAGES if code != lang]
    return page.render(lang=lang, other_languages=others, path=path, **context)


def respond(
    html: str,
    lang: str,
    *,
    remember: bool,
    status_code: int = 200,
    headers: Mapping[str, str] | None = None,
) -> HTMLResponse:
    """The page; with ``remember`` the language is kept in a cookie, so that every later page
    (and the client's script) speaks it too."""
    response = HTMLResponse(html, status_code=status_code, headers=headers)
    if remember:
        response.set_cookie(i18n.LANG_COOKIE, lang, max_age=_ONE_YEAR, samesite="lax")
    return response
