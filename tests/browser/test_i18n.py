"""Translations without a browser: catalogs complete, JS table complete, language negotiation."""

from __future__ import annotations

import re

import pytest
from babel.messages.extract import extract_from_dir

from app.web import i18n
from tests.browser.conftest import REPO, Server

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


# Through the real server (sync HTTP): an asyncio test here would clash with the event loop that
# Playwright's sync API keeps running for the browser tests of the same session.
def test_home_follows_accept_language(server: Server) -> None:
    page = server.api("GET", "/", headers={"Accept-Language": "de-CH, de;q=0.9"})
    assert '<html lang="de">' in page.text
    assert "Neuer Tisch" in page.text


def test_switch_is_remembered(server: Server) -> None:
    switched = server.api("GET", "/t/abc?lang=de", headers={"Accept-Language": "en"})
    assert switched.cookies.get(i18n.LANG_COOKIE) == "de"
    again = server.api(
        "GET", "/", headers={"Accept-Language": "en"}, cookies={i18n.LANG_COOKIE: "de"}
    )
    assert "Neuer Tisch" in again.text


def test_table_page_escapes_the_code(server: Server) -> None:
    page = server.api("GET", '/t/"><script>x')
    assert "<script>x" not in page.text
