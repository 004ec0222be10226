"""Cards and deck (rules C1, C2).

Every card has an integer id ``0..59`` = ``colour * 12 + slot``; the twelve slots of a colour
hold the numbers ``0, 1, 1, 2, 3, 4, 5, 6, 7, 7, 8, 9``, so the twin 1s and 7s have distinct
ids.  Points: 1 and 9 are worth 0, 6 and 7 are worth 2, every other number 1 (12 per colour).

The module-level tables (``COLOUR_OF``, ``NUMBER_OF``, ``POINTS_OF``) are what the hot paths
use; :class:`Card` is the readable value type for everything else.

>>> CARDS[21]
Card(id=21, color=<Colour.YELLOW: 'yellow'>, number=7, points=2)
>>> sum(card.points for card in CARDS)
60
"""

from __future__ import annotations

import random
from typing import Final

from engine.enums import Colour
from engine.records import record

COLOURS: tuple[Colour, ...] = tuple(Colour)
SLOT_NUMBERS: Final[tuple[int, ...]] = (0, 1, 1, 2, 3, 4, 5, 6, 7, 7, 8, 9)
NUMBER_POINTS: Final[tuple[int, ...]] = (1, 0, 1, 1, 1, 1, 2, 2, 1, 0)  # indexed by number
# Literals, Final: the compiled build inlines them (checked against the tables below).
CARDS_PER_COLOUR: Final = 12
DECK_SIZE: Final = 60
assert CARDS_PER_COLOUR == len(SLOT_NUMBERS) and DECK_SIZE == len(COLOURS) * CARDS_PER_COLOUR

COLOUR_OF: Final[tuple[int, ...]] = tuple(cid // CARDS_PER_COLOUR for cid in range(DECK_SIZE))
NUMBER_OF: Final[tuple[int, ...]] = tuple(
    SLOT_NUMBERS[cid % CARDS_PER_COLOUR] for cid in range(DECK_SIZE)
)
POINTS_OF: Final[tuple[int, ...]] = tuple(NUMBER_POINTS[n] for n in NUMBER_OF)


@record
class Card:
    """One physical card; in views the shared :data:`CARDS` instance (JSON: ``{"id",
    "color", "number", "points"}``)."""

    id: int
    color: Colour
    number: int
    points: int


CARDS: tuple[Card, ...] = tuple(
    Card(cid, COLOURS[COLOUR_OF[cid]], NUMBER_OF[cid], POINTS_OF[cid]) for cid in range(DECK_SIZE)
)


def colour_cards(colour: int) -> range:
    """The ids of one colour's twelve cards."""
    return range(colour * CARDS_PER_COLOUR, (colour + 1) * CARDS_PER_COLOUR)


def colour_index(name: str) -> int:
    """``"green"`` -> 2.  Raises ``ValueError`` for an unknown colour name."""
    return Colour(name).code


def shuffle(cards: list[int], rng: random.Random) -> None:
    """``rng.shuffle(cards)``, the same permutation for the same ``rng`` state, without a
    Python-level ``_randbelow`` call per card (a deal's shuffle was ~10% of a fast-interface
    hand, and more of a compiled one).  Only a plain :class:`random.Random` takes the inline
    path: a subclass may draw differently, so it gets its own ``shuffle``."""
    if type(rng) is not random.Random:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]
