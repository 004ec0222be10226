"""The name's ``pattern`` in the OpenAPI document says what ``clean_name`` accepts.

The pattern is for the schema's readers (clients, the API contract test); the server decides
with ``clean_name`` and Unicode's categories. Between letters, every code point is admitted by
the pattern exactly when the server accepts it; around a name the server also trims blanks
and line ends the pattern refuses, so the schema never promises more than the server takes.
"""

from __future__ import annotations

import re
import unicodedata

import pytest

from app.lobby.schemas import clean_name, name_pattern

PATTERN = re.compile(name_pattern())
SURROGATES = range(0xD800, 0xE000)


def accepted(name: str) -> bool:
    try:
        clean_name(name)
    except ValueError:
        return False
    return True


def admitted(name: str) -> bool:
    """JSON Schema's reading of ``pattern``: a search, not a full match."""
    return PATTERN.search(name) is not None


def code_points() -> list[int]:
    """Every code point of the BMP, and in the astral planes each one whose Unicode category
    differs from the one before it, with that one: the edges of every block the pattern's
    ranges could get wrong (the private-use planes, tags, format characters), derived from
    this Python's Unicode data rather than listed."""
    bmp = [c for c in range(0x10000) if c not in SURROGATES]
    categories = [unicodedata.category(chr(c)) for c in range(0xFFFF, 0x110000)]
    edges = {
        0x10000 + i + shift
        for i in range(len(categories) - 1)
        if categories[i] != categories[i + 1]
        for shift in (-1, 0)
    }
    return bmp + sorted(c for c in edges if c >= 0x10000)


def test_the_pattern_admits_what_clean_name_accepts_for_every_code_point() -> None:
    disagree = [
        hex(point)
        for point in code_points()
        if admitted(f"A{chr(point)}b") != accepted(f"A{chr(point)}b")
    ]
    assert disagree == []


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Anna", True),
        ("  Anna  ", True),  # trimmed by the server
        ("👩\u200d👩\u200d👧", True),  # the zero-width joiner of emoji
        ("Zoë", True),
        ("", False),
        ("   ", False),
        ("\u3000", False),  # ideographic space: blank
        ("An\u202ena", False),  # a bidi override
        ("Anna\n", False),  # a search for the pattern must not end before a newline
        ("\U000f0000", False),  # private use, astral
    ],
)
def test_the_pattern_and_clean_name_agree_on_names(name: str, expected: bool) -> None:
    assert admitted(name) is expected
    if expected:
        assert accepted(name)
