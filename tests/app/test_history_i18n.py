"""The history pages' German catalog covers every string they use, with matching placeholders."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.pofile import read_po

import engine
from app.history import hands, i18n, words
from app.history.i18n import Text

REPO = Path(__file__).resolve().parents[2]
KEYWORDS = {**DEFAULT_KEYWORDS, "t": None, "N_": None, "plural": (1, 2)}
JINJA = {"trim_blocks": "True", "lstrip_blocks": "True"}


def used_messages() -> set[str]:
    found: set[str] = set()
    sources: list[tuple[str, Path, dict[str, str]]]
    sources = []
    for package in ("history", "groups"):  # the group pages use the history catalog
        sources += [("python", p, {}) for p in sorted((REPO / "app" / package).glob("*.py"))]
        sources += [
            ("jinja2", p, JINJA) for p in sorted((REPO / "templates" / package).glob("*.html"))
        ]
    for method, path, options in sources:
        for _line, message, _comments, _context in extract_from_file(
            method, str(path), keywords=KEYWORDS, options=options
        ):
            found.add(message if isinstance(message, str) else message[0])
    return found


def german_catalog() -> Catalog:
    path = REPO / "app" / "history" / "translations" / "de" / "LC_MESSAGES" / "history.po"
    with path.open("rb") as po:
        return read_po(po, locale="de")


def test_every_history_string_has_a_german_translation() -> None:
    catalog = german_catalog()
    translated = {
        (m.id if isinstance(m.id, str) else m.id[0])
        for m in catalog
        if m.id and (all(m.string) if isinstance(m.string, tuple) else m.string)
    }
    used = used_messages()
    assert len(used) > 100
    assert used - translated == set()


def test_german_placeholders_match() -> None:
    problems = [(message.id, errors) for message, errors in german_catalog().check() if errors]
    assert problems == []


def test_words_in_both_languages() -> None:
    de, en = Text("de"), Text("en")
    seven, red, none = engine.TrumpKind("7"), engine.TrumpKind("red"), engine.TrumpKind("none")
    assert (words.trump(de, seven), words.trump(de, red), words.trump(de, none)) == (
        "7er", "Rot", "Ohne Trumpf",
    )  # fmt: skip
    assert (words.trump(en, seven), words.trump(en, red)) == ("7s", "Red")
    assert words.people(de, ["Anna", "Ben", "Conny"]) == "Anna, Ben und Conny"
    # Shared strings (the site header) still come from the client's catalog behind ours.
    assert i18n.translations("de").gettext("Language") == "Sprache"


def test_a_missed_goal_is_explained_in_bid_levels() -> None:
    """The penalty's reason in words people use: how many bid levels the team fell short."""
    missed = engine.HandResult(
        kind=engine.Outcome.PLAYED, chief=0, partner=None, team_points=9, team_goal=20,
        success=False, level=0, shortfall=2, bonus=(-20, 10, 10), total=(-11, 25, 26),
        team=(0,), opponents=(1, 2),
    )  # fmt: skip
    names = ["Anna", "Ben", "Conny"]
    assert hands.explain(missed, names, Text("en")) == (
        "Anna's team took 9 of 20 needed: 2 bid levels short → Anna −20, opponents +10"
    )
    assert hands.explain(missed, names, Text("de")).endswith(
        ": 2 Gebotsstufen zu wenig → Anna −20, Gegner +10"
    )
    lower = replace(missed, level=1, shortfall=1, bonus=(-10, 5, 5))
    assert hands.explain(lower, names, Text("en")).endswith(
        ": enough for bid 1 only, 1 bid level short → Anna −10, opponents +5"
    )


def test_expected_scores_are_written_in_the_language() -> None:
    assert words.decimal(Text("en"), -11.46) == "\u221211.5"
    assert words.decimal(Text("de"), 23.94) == "23,9"
    assert words.decimal(Text("en"), -0.01) == "0.0"
