"""Translations: template and script catalogs complete, the script catalog's JSON route, language
negotiation, and (in the browser) German and English plurals on the table page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from playwright.sync_api import Browser, Page, expect

from app.web import catalog as client_catalog
from app.web import i18n
from tests.browser.conftest import DESKTOP, PHONE, REPO, Screenshots, Server
from tests.browser.driver import Hand, join

JS = REPO / "static" / "js"
TRANSLATIONS = REPO / "app" / "web" / "translations"
# The keywords of the documented extraction command (app/web/babel.cfg).
KEYWORDS = {"_": None, "ngettext": (1, 2), "N_": None}
PLACEHOLDER = re.compile(r"\{(\w+)\}")
MessageId = str | tuple[str, ...]


def _template_messages() -> set[str]:
    # The client's own pages (templates/*.html); pages in subfolders belong to other features.
    found = list(
        extract_from_dir(
            str(REPO / "templates"),
            method_map=[("*.html", "jinja2")],
            options_map={"*.html": {"trim_blocks": "True", "lstrip_blocks": "True"}},
        )
    )
    # Words the pages show from Python (the variants' titles), marked with N_ in app/web.
    found += extract_from_dir(
        str(REPO / "app" / "web"), method_map=[("*.py", "python")], keywords={"N_": None}
    )
    return {message for _file, _line, message, _comments, _context in found}


def test_every_template_string_has_a_german_translation() -> None:
    german = i18n.translations("de")
    used = _template_messages()
    assert {"Classic Mü", "New table"} <= used  # both sources are read
    missing = [m for m in used if german.gettext(m) == m and m != "Mü Online"]
    assert not missing


# ----- the scripts' catalog (domain "client") -----


def _script_messages() -> set[MessageId]:
    """What Babel's JavaScript extractor finds in static/js, as the documented command runs it."""
    found = extract_from_dir(str(JS), method_map=[("**.js", "javascript")], keywords=KEYWORDS)
    return {message for _file, _line, message, _comments, _context in found}


def _read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as po:
        return read_po(po, locale=lang)


def _ids(catalog: Catalog) -> set[MessageId]:
    return {tuple(m.id) if isinstance(m.id, list) else m.id for m in catalog if m.id}


@pytest.mark.parametrize(
    "po", ["client.pot", "de/LC_MESSAGES/client.po", "en/LC_MESSAGES/client.po"]
)
def test_script_catalogs_hold_exactly_the_extracted_strings(po: str) -> None:
    """A new script string without a catalog entry (or an entry nothing uses) fails here: run the
    extract and update commands of app/web/babel.cfg."""
    extracted = _script_messages()
    in_catalog = _ids(_read(TRANSLATIONS / po))
    assert sorted(extracted - in_catalog, key=str) == [], "not in the catalog yet"
    assert sorted(in_catalog - extracted, key=str) == [], "no longer in the scripts"


# A literal first argument of _(, N_( or ngettext( (and ngettext's second one).
_LITERAL_CALL = re.compile(
    r'\b(?:_|N_|ngettext)\(\s*"((?:[^"\\]|\\.)*)"(?:\s*,\s*"((?:[^"\\]|\\.)*)")?'
)


def test_every_marked_text_in_the_scripts_is_extracted() -> None:
    """Babel's lexer misses a call inside a template literal or inside another marked call's
    arguments; such a text would never reach a catalog. Found by a plain text search instead."""
    extracted = _script_messages()
    singular = {m if isinstance(m, str) else m[0] for m in extracted}
    written: set[MessageId] = set()
    for script in JS.glob("*.js"):
        code = re.sub(r"^\s*//.*$", "", script.read_text(), flags=re.MULTILINE)
        for match in _LITERAL_CALL.finditer(code):
            text = match.group(1).replace('\\"', '"')
            is_plural = match.group(0).startswith("ngettext")
            written.add((text, match.group(2).replace('\\"', '"')) if is_plural else text)
    assert len(written) > 150
    missing = {m for m in written if (m if isinstance(m, str) else m[0]) not in singular}
    assert missing == set()
    assert {m for m in written if isinstance(m, tuple)} <= extracted


def test_no_key_lookups_and_no_code_from_strings() -> None:
    scripts = {path.name: path.read_text() for path in (REPO / "static").rglob("*.js")}
    for name, source in scripts.items():
        assert not re.search(r"\bt\(\s*[\"'`]", source), f"{name}: old t('key') lookup"
        assert not re.search(r"\bnew\s+Function\b|\beval\s*\(", source), f"{name}: eval"
    key_like = [
        m for m in _script_messages() if isinstance(m, str) and re.fullmatch(r"\w+(\.\w+)+", m)
    ]
    assert key_like == []


def _placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_script_catalog_is_complete(lang: str) -> None:
    """Every entry translated and not fuzzy, every plural form there, the same placeholders."""
    catalog = i18n.catalog(lang, client_catalog.DOMAIN)
    assert catalog.num_plurals == len(client_catalog.plural_categories(catalog))
    problems = []
    for message in catalog:
        if not message.id:
            continue
        if message.fuzzy:
            problems.append(("fuzzy", message.id))
        if isinstance(message.id, (tuple, list)):
            forms = list(message.string or ())
            wanted = _placeholders(message.id[0]) | _placeholders(message.id[1])
            if len(forms) != catalog.num_plurals or not all(forms):
                problems.append(("plural forms missing", message.id))
            problems += [("placeholders", form) for form in forms if _placeholders(form) != wanted]
        else:
            text = str(message.string or "")
            if not text:
                problems.append(("untranslated", message.id))
            elif _placeholders(text) != _placeholders(message.id):
                problems.append(("placeholders", text))
    assert problems == []


def test_every_counted_noun_is_a_plural() -> None:
    """A number in front of a noun needs ngettext: "1 card" and "2 cards", never "1 pts"."""
    counted = re.compile(r"\{(n|points|goal)\} (card|trick|point|hand|player|bid level|pts)", re.I)
    flat = [m for m in _script_messages() if isinstance(m, str) and counted.search(m)]
    assert flat == []


@pytest.mark.parametrize(
    ("lang", "categories"),
    [
        ("de", ["one", "other"]),
        ("en", ["one", "other"]),
        ("fr", ["one", "other"]),  # 0 is singular in French
        ("cs", ["one", "few", "other"]),  # CLDR's "many" is for fractions only
        ("pl", ["one", "few", "many"]),
        ("ar", ["zero", "one", "two", "few", "other", "many"]),
    ],
)
def test_gettext_plural_forms_map_to_cldr_categories(lang: str, categories: list[str]) -> None:
    assert client_catalog.plural_categories(Catalog(locale=lang)) == categories


# ----- GET /i18n/{lang}.json, through the real server -----


def test_catalog_json_for_both_languages(server: Server) -> None:
    for lang, card, cards in [("de", "{n} Karte", "{n} Karten"), ("en", "{n} card", "{n} cards")]:
        response = server.api("GET", f"/i18n/{lang}.json")
        assert response.status_code == 200
        assert response.headers["content-type"] == "application/json"
        body = response.json()
        assert body["lang"] == lang
        # The catalog holds every script text; the answer leaves out those that read the same
        # as their English source (the script shows its own text then): most of English.
        messages = client_catalog.client_messages(i18n.catalog(lang, client_catalog.DOMAIN))
        assert body["messages"] == {k: v for k, v in messages.items() if v != k}
        assert body["messages"]["{n} card"] == {"one": card, "other": cards}
        extracted = _script_messages()
        assert {m if isinstance(m, str) else m[0] for m in extracted} == set(messages)
        for msgid in extracted:
            entry = messages[msgid if isinstance(msgid, str) else msgid[0]]
            if isinstance(msgid, str):
                assert isinstance(entry, str) and entry
            else:
                assert set(entry) == {"one", "other"} and all(entry.values())
    assert server.api("GET", "/i18n/de.json").json()["messages"]["Pass"] == "Passen"


def test_catalog_json_is_cached_and_revalidated(server: Server) -> None:
    first = server.api("GET", "/i18n/de.json")
    etag = first.headers["etag"]
    assert re.fullmatch(r'"[0-9a-f]{32}"', etag)
    assert re.fullmatch(r"public, max-age=\d+", first.headers["cache-control"])
    assert server.api("GET", "/i18n/en.json").headers["etag"] != etag
    for tag in [etag, f"W/{etag}", f'"other", {etag}', "*"]:
        again = server.api("GET", "/i18n/de.json", headers={"If-None-Match": tag})
        assert again.status_code == 304, tag
        assert again.content == b""
        assert again.headers["etag"] == etag
    stale = server.api("GET", "/i18n/de.json", headers={"If-None-Match": '"stale"'})
    assert stale.status_code == 200 and stale.content == first.content


@pytest.mark.parametrize("lang", ["fr", "DE", "de-AT", "..", "messages"])
def test_catalog_json_for_an_unknown_language_is_404(server: Server, lang: str) -> None:
    response = server.api("GET", f"/i18n/{lang}.json")
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/json"
    assert "detail" in response.json()


# ----- in the browser: a German and an English player at one table -----

LAPTOP = {"width": 1280, "height": 800}
TRICKS = 12  # three players: twelve tricks a hand
COUNTED = {
    "de": re.compile(r"\b(\d+) (Karten?|Stiche?|Punkte?|Spiele?)\b"),
    "en": re.compile(r"\b(\d+) (cards?|tricks?|points?|hands?|pts)\b"),
}
SINGULAR = {"Karte", "Stich", "Punkt", "Spiel", "card", "trick", "point", "hand"}


def _plural_mistakes(text: str, lang: str) -> list[str]:
    """Every "<number> <noun>" whose noun is singular exactly when the number is 1."""
    return [
        found.group(0)
        for found in COUNTED[lang].finditer(text)
        if (found.group(1) == "1") != (found.group(2) in SINGULAR)
    ]


def _seat_texts(page: Page) -> list[str]:
    return page.locator(".seat").all_inner_texts()


@pytest.mark.browser
def test_plurals_on_the_table_in_german_and_english(
    browser: Browser, server: Server, screenshots: Screenshots
) -> None:
    code = server.new_table(3, hands=1)
    catalog_requests: list[str] = []
    pages: list[Page] = []
    for seat, (name, size, locale) in enumerate(
        [("Anna", PHONE, "de-DE"), ("Bernd", LAPTOP, "de-DE"), ("Clara", DESKTOP, "en-GB")]
    ):
        page = browser.new_context(viewport=size, locale=locale).new_page()
        page.on("request", lambda r: "/i18n/" in r.url and catalog_requests.append(r.url))
        join(page, server.base_url, code, name, seat)
        pages.append(page)
    german, english = pages[:2], pages[2]
    # The preloaded catalog is the one the script uses: one request per page.
    assert sorted(catalog_requests) == sorted(
        f"{server.base_url}/i18n/{lang}.json" for lang in ["de", "de", "en"]
    )
    expect(german[0].locator("html")).to_have_attribute("lang", "de")
    # A card's name counts its point triangles: "red 4, 1 point", "red 6, 2 points".
    cards = english.locator("#me .hand button.card")
    expect(cards).to_have_count(TRICKS)
    for card in cards.all():
        points = card.locator(".pts path").count()
        label = card.get_attribute("aria-label") or ""
        assert label.endswith(f", {points} point" + ("" if points == 1 else "s")), label

    hand = Hand(pages)
    hand.on_phase["bid"] = lambda _page: _shoot(german, screenshots, "de-auction")
    hand.on_phase["trump"] = lambda page: _shoot([page], screenshots, "de-trump")
    while hand.plays < (TRICKS - 1) * 3 - 1:
        hand.step()
    # Two seats have played into the eleventh trick (1 card left), the third has not (2 cards).
    for page, one, two in [
        (german[0], "1 Karte", "2 Karten"),
        (german[1], "1 Karte", "2 Karten"),
        (english, "1 card", "2 cards"),
    ]:
        expect(page.locator(".seat").get_by_text(one, exact=True)).to_have_count(2)
        expect(page.locator(".seat").get_by_text(two, exact=True)).to_have_count(1)
    for page, lang in [(german[0], "de"), (german[1], "de"), (english, "en")]:
        assert _plural_mistakes("\n".join(_seat_texts(page)), lang) == []
        assert _plural_mistakes(page.locator(".infobar").inner_text(), lang) == []
    _shoot(german, screenshots, "de-play")
    body = english.locator("body").inner_text()
    assert "pts" not in body and _plural_mistakes(body, "en") == []

    while hand.plays < TRICKS * 3:
        hand.step()
    sheet = server.api("GET", f"/api/tables/{code}/scoresheet").json()
    winners = len(sheet["winners"])
    for page, lang in [(german[0], "de"), (german[1], "de"), (english, "en")]:
        summary = page.get_by_test_id("summary")
        expect(summary).to_be_visible()
        assert _plural_mistakes(summary.inner_text(), lang) == []
    expect(german[0].get_by_test_id("winners")).to_contain_text(
        "Gewonnen hat:" if winners == 1 else "Gewonnen haben:"
    )
    expect(english.get_by_test_id("winners")).to_contain_text(
        "Winner:" if winners == 1 else "Winners:"
    )
    _shoot(german, screenshots, "de-summary")
    for page in pages:
        page.context.close()


_RUNTIME = """async () => {
    const { _, ngettext, N_, lang } = await import("/static/js/i18n.js");
    return {
        lang,
        plain: _("Pass"),
        vars: _("{name} plays…", { name: "Ada" }),
        one: ngettext("{n} card", "{n} cards", 1),
        two: ngettext("{n} card", "{n} cards", 2),
        zero: ngettext("{n} point", "{n} points", 0),
        onePoint: ngettext("{n} point", "{n} points", 1),
        named: ngettext("{name} won it ({points} point).", "{name} won it ({points} points).", 1,
                        { name: "Ada", points: 1 }),
        marked: N_("Chief"),
        missing: _("Not in the catalog {x}", { x: 3 }),
        missingOne: ngettext("{n} apple", "{n} apples", 1),
        missingTwo: ngettext("{n} apple", "{n} apples", 2),
    };
}"""


@pytest.mark.browser
@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        (
            "de-DE",
            {
                "lang": "de",
                "plain": "Passen",
                "vars": "Ada spielt…",
                "one": "1 Karte",
                "two": "2 Karten",
                "zero": "0 Punkte",
                "onePoint": "1 Punkt",
                "named": "Ada hat ihn gewonnen (1 Punkt).",
            },
        ),
        (
            "en-GB",
            {
                "lang": "en",
                "plain": "Pass",
                "vars": "Ada plays…",
                "one": "1 card",
                "two": "2 cards",
                "zero": "0 points",
                "onePoint": "1 point",
                "named": "Ada won it (1 point).",
            },
        ),
    ],
)
def test_the_runtime_translates_and_falls_back_to_english(
    browser: Browser, server: Server, locale: str, expected: dict[str, str]
) -> None:
    page = browser.new_context(locale=locale).new_page()
    page.goto(server.base_url + "/")
    # N_ only marks; a text missing from the catalog comes back in English, plurals included.
    english = {"marked": "Chief", "missing": "Not in the catalog 3"}
    fallback = {"missingOne": "1 apple", "missingTwo": "2 apples"}
    assert page.evaluate(_RUNTIME) == {**expected, **english, **fallback}
    page.context.close()


def _shoot(pages: list[Page], screenshots: Screenshots, moment: str) -> None:
    for page in pages:
        size = page.viewport_size or {}
        screenshots.take(page, f"{moment}-{size.get('width')}x{size.get('height')}.png")


# ----- language negotiation -----


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
    assert '<link rel="preload" href="/i18n/de.json" as="fetch" crossorigin>' in page.text


def test_switch_is_remembered(server: Server) -> None:
    switched = server.api("GET", "/t/abc?lang=de", headers={"Accept-Language": "en"})
    assert switched.cookies.get(i18n.LANG_COOKIE) == "de"
    assert '<link rel="preload" href="/i18n/de.json" as="fetch" crossorigin>' in switched.text
    again = server.api(
        "GET", "/", headers={"Accept-Language": "en"}, cookies={i18n.LANG_COOKIE: "de"}
    )
    assert "Neuer Tisch" in again.text


def test_table_page_escapes_the_code(server: Server) -> None:
    page = server.api("GET", '/t/"><script>x')
    assert "<script>x" not in page.text
