"""The page a browser gets when the server cannot answer a page with the page itself: no such
address (404), the database out of reach (503) or a fault of ours (500). The same panel as
every other problem page (``templates/_problem.html``), in the visitor's language, with the
way on; programs (``/api/``, scripts' fetches) keep the JSON ``ErrorBody``
(``app.http.errors`` decides which and calls :func:`page`).
"""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import HTMLResponse

from app.web import i18n, pages, templating


def N_(text: str) -> str:  # noqa: N802 - the gettext convention for "mark, translate later"
    return text


# status -> (title, what happened, offer "Try again"), marked for the extractor.
_TEXTS = {
    404: (
        N_("Page not found"),
        N_(
            "There is no page at this address. A table's or a group's link may have been cut"
            " short: ask for it again."
        ),
        False,
    ),
    500: (
        N_("Something went wrong"),
        N_(
            "The server could not show this page. Nothing you played is lost: try again in a"
            " moment."
        ),
        True,
    ),
    503: (
        N_("Back in a moment"),
        N_(
            "The server cannot reach its records just now. Nothing you played is lost: try"
            " again in a moment."
        ),
        True,
    ),
}

_ENVIRONMENTS = {lang: templating.environment(i18n.translations(lang)) for lang in i18n.LANGUAGES}


def page(request: Request, status_code: int, code: str) -> HTMLResponse:
    """The problem page for ``status_code`` (404, 500 or 503), never stored by a cache."""
    title, text, again = _TEXTS[status_code]
    lang = i18n.choose(
        request.query_params.get("lang"),
        request.cookies.get(i18n.LANG_COOKIE),
        request.headers.get("accept-language"),
    )
    translate = i18n.translations(lang).gettext
    html = pages.render(
        _ENVIRONMENTS,
        "problem.html",
        lang,
        path=request.url.path,
        title=translate(title),
        text=translate(text),
        code=code,
        again=again,
    )
    headers = {"Cache-Control": "no-store"}
    if status_code == 503:
        headers["Retry-After"] = "5"
    return pages.respond(html, lang, remember=False, status_code=status_code, headers=headers)
