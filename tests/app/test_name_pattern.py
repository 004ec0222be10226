"""The name's ``pattern`` in the OpenAPI document says what ``clean_name`` accepts.

The pattern is for the schema's readers (clients, the API contract test); the server decides
with ``clean_name`` and Unicode's categories. A name the pattern admits must never be refused,
and one it refuses must be refused, for every code point.
"""

from __future__ import annotations

import re

import pytest

from app.lobby.schemas import clean_name, name_pattern

PATTERN = re.compile(name_pattern())
SURROGATES = range(0xD800, 0xE000)
# The astral planes' banned blocks (format characters, tags, the private-use planes) and
# what lies around them: every code point in these runs is tried too.
ASTRAL = [
    (0x110BD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE007F),
    (0xEFFFF, 0xF0001),
    (0xFFFFD, 0x100001),
    (0x10FFFD, 0x10FFFF),
    (0x1F600, 0x1F64F),
]


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
    bmp = [c for c in range(0x10000) if c not in SURROGATES]
    return bmp + [c for low, high in ASTRAL for c in range(low, high + 1)]


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
