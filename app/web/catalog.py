"""The scripts' translations as JSON: ``GET /i18n/{lang}.json``.

The scripts in ``static/js`` mark their English texts with ``_("…")``, ``ngettext("…", "…", n)``
and ``N_("…")``; Babel extracts them into the ``client`` domain next to the templates' catalogs
(``app/web/translations/<lang>/LC_MESSAGES/client.po``, commands in ``app/web/babel.cfg``). This
module reads each language's ``.po`` once, when the app starts (``check``), and serves it in the
shape ``static/js/i18n.js`` looks texts up in::

    {"lang": "de", "messages": {"Pass": "Passen",
                                "{n} card": {"one": "{n} Karte", "other": "{n} Karten"}}}

A plural entry sits under its singular msgid with one text per CLDR plural category, which is
what the browser's ``Intl.PluralRules`` returns; which gettext form (``msgstr[i]``) belongs to
which category is worked out from the catalog's ``Plural-Forms`` and Babel's CLDR rules for the
language. Untranslated and fuzzy entries, and texts the same as their English source, are left
out: the script falls back to its English text.
"""

from __future__ import annotations

import functools
import gettext
import hashlib
import json
from dataclasses import dataclass
from typing import Annotated

from babel.messages.catalog import Catalog
from fastapi import APIRouter, Header
from fastapi.responses import JSONResponse, Response

from app.web import i18n

DOMAIN = "client"
# The catalog changes only with a deployment; the ETag makes the revalidation after that cheap.
MAX_AGE_SECONDS = 600
# Enough whole numbers to meet every form of every gettext plural expression in use (they
# depend on n % 10 and n % 100 at the most).
_PLURAL_SAMPLES = range(1000)

router = APIRouter(include_in_schema=False)


def plural_categories(catalog: Catalog) -> list[str]:
    """The CLDR category ("one", "other", …) of each gettext plural form of ``catalog``."""
    form_of = gettext.c2py(catalog.plural_expr)
    rule = catalog.locale.plural_form if catalog.locale else None
    if rule is None:
        raise ValueError(f"catalog {catalog.domain} has no locale")
    categories: dict[int, str] = {}
    for n in _PLURAL_SAMPLES:
        form, category = form_of(n), rule(n)
        if categories.setdefault(form, category) != category:
            raise ValueError(f"{catalog.locale}: gettext form {form} is not one CLDR category")
    if sorted(categories) != list(range(catalog.num_plurals)):
        raise ValueError(f"{catalog.locale}: Plural-Forms and CLDR rules do not match")
    if len(set(categories.values())) != len(categories):
        raise ValueError(f"{catalog.locale}: two gettext forms share a CLDR category")
    return [categories[form] for form in range(catalog.num_plurals)]


def client_messages(catalog: Catalog) -> dict[str, str | dict[str, str]]:
    """msgid → text, or singular msgid → {CLDR category → text} for a plural entry."""
    categories = plural_categories(catalog)
    messages: dict[str, str | dict[str, str]] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, (tuple, list)):
            forms = message.string
            if isinstance(forms, (tuple, list)) and len(forms) == len(categories) and all(forms):
                messages[message.id[0]] = dict(zip(categories, forms, strict=True))
        elif message.string:
            messages[message.id] = str(message.string)
    return messages


@dataclass(frozen=True)
class _Served:
    body: bytes
    etag: str


def served_messages(catalog: Catalog) -> dict[str, str | dict[str, str]]:
    """What the scripts are sent: ``client_messages`` without the texts that read the same as
    the English source (the script shows its own text for a missing one). English sends its
    plurals and little else: about a seventh of the bytes, on every first visit."""
    return {msgid: text for msgid, text in client_messages(catalog).items() if text != msgid}


def served(lang: str) -> _Served | None:
    """One language's answer, built once per process (None: no such language; checked before
    the cache, which holds only the languages there are)."""
    return _built(lang) if lang in i18n.LANGUAGES else None


@functools.cache
def _built(lang: str) -> _Served:
    payload = {"lang": lang, "messages": served_messages(i18n.catalog(lang, DOMAIN))}
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()
    return _Served(body, f'"{hashlib.sha256(body).hexdigest()[:32]}"')


def check() -> None:
    """Build every language's answer now: the app's start calls this, so a broken catalog
    stops the server instead of a page (importing the app does not pay for it)."""
    for lang in i18n.LANGUAGES:
        served(lang)


def _matches(etag: str, if_none_match: str) -> bool:
    # If-None-Match compares weakly: W/"x" matches "x"; * matches any current representation.
    tags = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
    return "*" in tags or etag in tags


@router.get("/i18n/{lang}.json")
def client_catalog(
    lang: str, if_none_match: Annotated[str | None, Header(max_length=1024)] = None
) -> Response:
    """One language's script strings (see the module docstring for the shape)."""
    answer = served(lang)
    if answer is None:
        return JSONResponse({"detail": "no catalog for this language"}, status_code=404)
    headers = {"Cache-Control": f"public, max-age={MAX_AGE_SECONDS}", "ETag": answer.etag}
    if if_none_match and _matches(answer.etag, if_none_match):
        return Response(status_code=304, headers=headers)
    return Response(answer.body, media_type="application/json", headers=headers)
