"""The one way pages get a Jinja2 environment: the shared templates folder, autoescaping, and
gettext bound to one language's catalogs (so an environment per language, built once)."""

from __future__ import annotations

from gettext import NullTranslations
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def environment(translations: NullTranslations) -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(["html"]),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.install_gettext_translations(translations, newstyle=True)  # type: ignore[attr-defined]
    return env
