"""Translations without a browser: catalogs complete, JS table complete, language negotiation."""

from __future__ import annotations

import re

import httpx
import pytest
from babel.messages.extract import extract_from_dir
from fastapi import FastAPI

from app.web import i18n
from app.web.router import router
from tests.browser.conftest import REPO

JS = REPO / "static" / "js"


def _template_messages() -> set[str]:
    # The client's own pages (templates/*.html); pages in subfolders belong to other features.
    found = extract_from_dir(
        str(REPO / "templates"),
        method_map=[("*.html", "jinja2")],
        options_map={"*.html": {"trim_blocks": "True", "lstrip_blocks": "True"}},
    )
    return {message for _file, _line, message, _comments, _context in found}


def test_every_template_string_has_a_german_translation() -> None:
    german = i18n.translations("de")
    missing = [m for m in _template_messages() if german.gettext(m) == m and m != "Mü Online"]
    assert not missing


def _js_tables() -> dict[str, set[str]]:
    source = (JS / "i18n.js").read_text()
    body = source[source.index("const STRINGS") : source.index("export const lang")]
    en, de = re.split(r"\n  de: \{", body)
    key = re.compile(r'"([a-z_]+\.[a-z_.]+|copied)":')
    return {"en": set(key.findall(en)), "de": set(key.findall(de))}


def test_js_table_has_the_same_keys_in_both_languages() -> None:
    tables = _js_tables()
    assert tables["en"] == tables["de"]


def test_every_literal_js_key_exists() -> None:
    used = set()
    for script in JS.glob("*.js"):
        used |= set(re.findall(r'\bt\("([a-z_.]+)"', script.read_text()))
    assert used - _js_tables()["en"] == set()


@pytest.mark.parametrize(
    ("query", "cookie", "header", "expected"),
    [
        (None, None, "de-DE,de;q=0.9,en;q=0.8", "de"),
        (None, None, "fr-FR,en;q=0.5,de;q=0.7", "de"),
        (None, None, "fr", "en"),
        (None, None, None, "en"),
        (None, "de", "en", "de"),
        ("en", "de", "de", "en"),
        ("xx", None, "de-AT", "de"),
    ],
)
def test_language_choice(
    query: str | None, cookie: str | None, header: str | None, expected: str
) -> None:
    assert i18n.choose(query, cookie, header) == expected


def _pages() -> httpx.AsyncClient:
    app = FastAPI()
    app.include_router(router)
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://mu.test")


async def test_home_follows_accept_language() -> None:
    async with _pages() as pages:
        page = await pages.get("/", headers={"Accept-Language": "de-CH, de;q=0.9"})
    assert '<html lang="de">' in page.text
    assert "Neuer Tisch" in page.text


async def test_switch_is_remembered() -> None:
    async with _pages() as pages:
        switched = await pages.get("/t/abc?lang=de", headers={"Accept-Language": "en"})
        assert switched.cookies.get(i18n.LANG_COOKIE) == "de"
        again = await pages.get("/", headers={"Accept-Language": "en"})
    assert "Neuer Tisch" in again.text


async def test_table_page_escapes_the_code() -> None:
    async with _pages() as pages:
        page = await pages.get('/t/"><script>x')
    assert "<script>x" not in page.text
