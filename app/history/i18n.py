"""The history pages' own gettext catalog, layered over the client's.

Our strings live in ``app/history/translations`` so that the history pages can be translated
without touching the client's catalogs; shared strings (the site header) fall back to the
client's catalog, and anything untranslated falls back to the English msgid.
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

from app.web import i18n as web_i18n

_CATALOGS = Path(__file__).parent / "translations"
DOMAIN = "history"


@cache
def translations(lang: str) -> NullTranslations:
    """Our catalog for ``lang`` (compiled in memory) with the client's catalog behind it."""
    shared = web_i18n.translations(lang)
    path = _CATALOGS / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.exists():
        return shared
    with path.open("rb") as po:
        catalog = read_po(po, locale=lang)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    own = Translations(fp=compiled, domain=DOMAIN)
    own.add_fallback(shared)
    return own


class Text:
    """``gettext`` with named ``%(...)s`` parameters, for sentences built in Python."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self._t = translations(lang)

    def __call__(self, message: str, **params: object) -> str:
        text = self._t.gettext(message)
        return text % params if params else text

    def plural(self, singular: str, plural: str, num: int, **params: object) -> str:
        text = self._t.ngettext(singular, plural, num)
        return text % {"num": num, **params}
