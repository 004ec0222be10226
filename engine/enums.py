"""The rules' words as enums.

Every enum is a :class:`~enum.StrEnum`: a member *is* its wire string (``Colour.RED ==
"red"``), so JSON encoders write the string and old string comparisons keep working.  The
hot paths of the engine keep small ints (card ids, trump kind codes, ``HandState.phase_id``);
these enums are what the public API speaks.

>>> TrumpKind("7"), TrumpKind.SEVEN.number, TrumpKind.SEVEN.bonus_class
(<TrumpKind.SEVEN: '7'>, 7, <TrumpClass.ONE_OR_SEVEN: 'one_or_seven'>)
>>> TrumpKind.from_code(2), TrumpKind.GREEN.colour, TrumpKind.NONE.code
(<TrumpKind.GREEN: 'green'>, <Colour.GREEN: 'green'>, 15)
"""

from __future__ import annotations

from enum import StrEnum


class Colour(StrEnum):
    """The five colours of the deck (C1); ``code`` is the colour part of a card id."""

    RED = "red"
    YELLOW = "yellow"
    GREEN = "green"
    BLUE = "blue"
    PURPLE = "purple"

    @property
    def code(self) -> int:
        """0..4: card ids ``12 * code .. 12 * code + 11`` have this colour."""
        return _COLOUR_CODES[self]


class Phase(StrEnum):
    """The phases of a hand (C4-C25; ``DISCARD``: revised, 3 players, R3)."""

    AUCTION = "auction"
    DISCARD = "discard"
    VICE_TRUMP = "vice_trump"
    CHIEF_TRUMP = "chief_trump"
    PARTNER = "partner"
    PLAY = "play"
    OVER = "over"


class Variant(StrEnum):
    """The rule sets: the 1995 classic and the 2024 revised edition (Crown and Shield)."""

    CLASSIC = "classic"
    REVISED = "revised"


class Role(StrEnum):
    """What a variant calls its two leading roles (classic chief and vice, revised Crown and
    Shield, R5).  The seats are always held in the ``chief`` and ``vice`` fields."""

    CHIEF = "chief"
    VICE = "vice"
    CROWN = "crown"
    SHIELD = "shield"


class TrumpClass(StrEnum):
    """The bonus class of a leader's trump (C28 classic bonus, R12 revised trump token)."""

    COLOUR = "colour"
    ONE_OR_SEVEN = "one_or_seven"
    NUMBER = "number"
    NONE = "none"


class TrumpKind(StrEnum):
    """The 16 trumps a player can name (C17, C18): a colour, a number, or no trump.

    ``code`` is the engine's internal int (``0..4`` colours, ``5..14`` the numbers 0..9,
    ``15`` no trump: :mod:`engine.trumps`), in the order the members are declared."""

    RED = "red"
    YELLOW = "yellow"
    GREEN = "green"
    BLUE = "blue"
    PURPLE = "purple"
    ZERO = "0"
    ONE = "1"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    NONE = "none"

    @classmethod
    def from_code(cls, code: int) -> TrumpKind:
        """The kind with the internal int ``code`` (``IndexError`` outside 0..15)."""
        return _TRUMP_KINDS[code]

    @property
    def code(self) -> int:
        return _TRUMP_CODES[self]

    @property
    def colour(self) -> Colour | None:
        """The colour of a colour trump, else ``None``."""
        return _KIND_COLOURS[self]

    @property
    def number(self) -> int | None:
        """The number of a number trump, else ``None``."""
        return _KIND_NUMBERS[self]

    @property
    def bonus_class(self) -> TrumpClass:
        """C28, R12: colour, number 1 or 7, another number, or no trump."""
        return _KIND_CLASSES[self]


class Outcome(StrEnum):
    """How a hand ended: played to the last trick, an Eklat (C13), everyone passed (C12), or
    nobody showed a card in the revised edition and the hand is dealt again (R6)."""

    PLAYED = "played"
    STALEMATE = "stalemate"
    ALL_PASSED = "all_passed"
    REDEAL = "redeal"


class TrumpTier(StrEnum):
    """The groups of the trump order (C21): double trumps, then chief, then vice trumps."""

    DOUBLE = "double"
    CHIEF = "chief"
    VICE = "vice"


def _bonus_class(kind: TrumpKind) -> TrumpClass:
    """C28, R12 from the kind's value: "none", a digit (1 and 7 apart), or a colour."""
    if kind is TrumpKind.NONE:
        return TrumpClass.NONE
    if not kind.value.isdigit():
        return TrumpClass.COLOUR
    return TrumpClass.ONE_OR_SEVEN if kind.value in ("1", "7") else TrumpClass.NUMBER


# The properties above read these tables (scoring asks for a bonus class in every rollout).
_COLOUR_CODES: dict[Colour, int] = {colour: code for code, colour in enumerate(Colour)}
_TRUMP_KINDS: tuple[TrumpKind, ...] = tuple(TrumpKind)
_TRUMP_CODES: dict[TrumpKind, int] = {kind: code for code, kind in enumerate(TrumpKind)}
_COLOUR_VALUES = frozenset(colour.value for colour in Colour)
_KIND_COLOURS: dict[TrumpKind, Colour | None] = {
    kind: Colour(kind.value) if kind.value in _COLOUR_VALUES else None for kind in TrumpKind
}
_KIND_NUMBERS: dict[TrumpKind, int | None] = {
    kind: int(kind.value) if kind.value.isdigit() else None for kind in TrumpKind
}
_KIND_CLASSES: dict[TrumpKind, TrumpClass] = {kind: _bonus_class(kind) for kind in TrumpKind}
