"""Language choice and gettext catalogs for the server-rendered pages.

The catalogs live as ``.po`` files next to this module and are compiled in memory with Babel when
the module is imported, so a fresh clone needs no extra build step and no ``.mo`` file can go stale.
The scripts' strings have their own domain, ``client``, served as JSON by ``app/web/catalog.py``.
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

LANGUAGES = ("en", "de")
DEFAULT_LANGUAGE = "en"
LANG_COOKIE = "mu_lang"
_CATALOGS = Path(__file__).parent / "translations"


def catalog(lang: str, domain: str = "messages") -> Catalog:
    """One supported language's ``.po`` file of ``domain`` as Babel reads it."""
    with (_CATALOGS / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as po:
        return read_po(po, locale=lang, domain=domain)


@cache
def translations(lang: str) -> Translations:
    """The compiled catalog of one supported language."""
    compiled = io.BytesIO()
    write_mo(compiled, catalog(lang))
    compiled.seek(0)
    return Translations(fp=compiled, domain="messages")


def supported(lang: str | None) -> str | None:
    """``lang`` reduced to a supported primary tag (``de-AT`` → ``de``), or None."""
    if not lang:
        return None
    primary = lang.strip().split("-")[0].split("_")[0].lower()
    return primary if primary in LANGUAGES else None


def from_accept_language(header: str | None) -> str | None:
    """The supported language the browser prefers most, honouring q-values."""
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate((header or "").split(",")):
        tag, _, params = part.partition(";")
        lang = supported(tag)
        if lang is None:
            continue
        ranked.append((_quality(params), -position, lang))
    return max(ranked)[2] if ranked else None


def _quality(params: str) -> float:
    for param in params.split(";"):
        key, _, value = param.strip().partition("=")
        if key == "q":
            try:
                return float(value)
            except ValueError:
                return 0.0
    return 1.0


def choose(query: str | None, cookie: str | None, accept_language: str | None) -> str:
    """An explicit switch wins, then the remembered choice, then the browser's preference."""
    return (
        supported(query)
        or supported(cookie)
        or from_accept_language(accept_language)
        or DEFAULT_LANGUAGE
    )
