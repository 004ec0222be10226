"""The one way pages get a Jinja2 environment: the shared templates folder, autoescaping, and
gettext bound to one language's catalogs (so an environment per language, built once)."""

from __future__ import annotations

from gettext import NullTranslations

from jinja2 import Environment, FileSystemLoader, select_autoescape

from app import resources
from app.web import bundle

TEMPLATES = resources.path("templates")


def environment(translations: NullTranslations) -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(["html"]),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.install_gettext_translations(translations, newstyle=True)  # type: ignore[attr-defined]
    # A page's scripts and styles: the bundle's files when built, else the sources.
    env.globals["asset"] = bundle.asset
    env.globals["bundled"] = bundle.bundled
    return env
