"""The history and group pages' templates: one environment per language, with the history's
catalog and its words for cards and trumps, and the one renderer of those pages."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment

from app.history import words
from app.history.i18n import Text, translations
from app.web import cardface, templating
from app.web import i18n as web_i18n
from app.web.render import Renderer


def _environment(lang: str) -> Environment:
    env = templating.environment(translations(lang))
    t = Text(lang)
    env.globals.update(
        card_name=lambda card: words.card(t, card),
        card_face=cardface.face,
        trump_name=lambda kind: words.trump(t, kind),
        signed=words.signed,
        num=words.number,
        decimal=lambda value: words.decimal(t, value),
    )
    return env


# One environment per language: the gettext callables are bound to their environment.
render = Renderer({lang: _environment(lang) for lang in web_i18n.LANGUAGES})


def error_page(request: Request, lang: str, status_code: int, code: str) -> HTMLResponse:
    return render(request, "history/error.html", lang, status_code=status_code, code=code)
