"""The rules' defaults and limits for forms and texts: ``GET /api/rules?lang=``.

Every number a page or a script needs (player counts, game-length limits and defaults, each
variant's usual length and roles, the colours, what each trump kind is, the bot levels) comes
from the engine's :func:`engine.rules_catalog`; this module only adds the variants' titles in
the page's language. The home form is rendered from the same data, and the table page's
scripts fetch it, so no rule constant is typed again outside the engine.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

import engine
from app.web import i18n
from engine.bots import DEFAULT_LEVEL, LEVELS


def N_(message: str) -> str:  # noqa: N802 - the gettext convention for "mark, translate later"
    return message


# Marked for extraction (messages domain), translated per request.
_TITLES = {
    engine.Variant.CLASSIC: N_("Classic Mü"),
    engine.Variant.REVISED: N_("Crown and Shield (2024 edition)"),
}
# A day: the rules change only with a deployment; a script fetches them on every table page.
MAX_AGE_SECONDS = 24 * 3600

router = APIRouter(tags=["rules"])


def title(variant: str, lang: str) -> str:
    """A variant's name for people, in ``lang``."""
    return i18n.translations(lang).gettext(_TITLES[engine.Variant(variant)])


def rules_for(lang: str) -> dict[str, Any]:
    """The engine's catalog as JSON, with each variant's ``title`` and the bot levels."""
    catalog = engine.rules_catalog()
    variants = [
        {**engine.to_json_object(info), "title": title(info.name, lang)}
        for info in catalog.variants
    ]
    return {
        **engine.to_json_object(catalog),
        "variants": variants,
        "bot_levels": list(LEVELS),
        "bot_level": DEFAULT_LEVEL,
    }


@router.get("/api/rules")
def read_rules(lang: Annotated[str | None, Query(max_length=16)] = None) -> JSONResponse:
    """Variants (name, title, roles, default end, usual number of hands, whether a failed chief
    team pays, deal sizes per player count), player counts, game-length limits and defaults,
    colours, trump kinds (colour or number), bot levels."""
    chosen = i18n.supported(lang) or i18n.DEFAULT_LANGUAGE
    headers = {"Cache-Control": f"public, max-age={MAX_AGE_SECONDS}", "Vary": "Accept-Encoding"}
    return JSONResponse(rules_for(chosen), headers=headers)
