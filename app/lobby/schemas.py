"""HTTP request and response bodies for tables (pydantic), layered per use."""

from __future__ import annotations

import functools
import unicodedata
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

import engine
from app.tables.options import RULES, SEATS, TableChoices, TableOptions

NAME_MAX = 24
# Control, format, private-use, unassigned and line/paragraph separators: invisible or
# layout-breaking in a name. ZERO WIDTH JOINER (a format character) stays: emoji need it.
# Controls, format characters (bidi overrides; the zero-width joiner of emoji is allowed),
# private use, surrogates and line/paragraph separators. Unassigned code points are allowed: a
# character Unicode assigns next year (a new emoji) must not turn a name away.
_BANNED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Zl", "Zp"}
_ALLOWED_FORMAT = {"\u200d"}


@functools.cache
def _banned_class() -> str:
    """The banned characters as a regex class body, for the schema's ``pattern``. Left out:
    lone surrogates, Cs (no regex engine takes them; JSON text carries them as pairs)."""
    ranges: list[tuple[int, int]] = []
    categories = _BANNED_CATEGORIES - {"Cs"}
    for point, category in enumerate(map(unicodedata.category, map(chr, range(0x110000)))):
        if category in categories and chr(point) not in _ALLOWED_FORMAT:
            if ranges and ranges[-1][1] == point - 1:
                ranges[-1] = (ranges[-1][0], point)
            else:
                ranges.append((point, point))

    def escaped(point: int) -> str:  # BMP escaped, astral as is (ECMA regex has no \U)
        return f"\\u{point:04x}" if point <= 0xFFFF else chr(point)

    return "".join(escaped(a) if a == b else f"{escaped(a)}-{escaped(b)}" for a, b in ranges)


def name_pattern() -> str:
    """A name: no banned character, and some character that is not blank (clean_name's
    rules). Built when a schema is first asked for, not at import: the scan over every code
    point costs half a second, and only the OpenAPI document needs it.

    The banned characters are refused by a negative lookahead, not by negated classes around
    the required character: a generator of examples (hypothesis, behind the API contract
    test) lists a class's ranges one code point at a time, over 130,000 of them for the
    private-use planes, about a second for every variant of the pattern it builds. The
    lookahead also refuses a newline at the end, which ``$`` lets through in a search."""
    banned = _banned_class()
    return f"^(?![\\s\\S]*[{banned}])[\\s\\S]*\\S[\\s\\S]*$"


def _name_schema(schema: dict[str, Any]) -> None:
    schema["pattern"] = name_pattern()


def _removed_colours_rule(players: int, variant: str, count: int) -> dict[str, Any]:
    """JSON Schema: with ``players`` (and ``variant``), removed_colours is null or ``count``."""
    condition: dict[str, Any] = {"properties": {"players": {"const": players}}}
    if variant == RULES.default_variant:
        condition["anyOf"] = [
            {"not": {"required": ["variant"]}},
            {"properties": {"variant": {"const": variant}}},
        ]
    else:
        condition["properties"]["variant"] = {"const": variant}
        condition["required"] = ["variant"]
    allowed = {"type": "array", "minItems": count, "maxItems": count}
    return {
        "if": condition,
        "then": {"properties": {"removed_colours": {"anyOf": [{"type": "null"}, allowed]}}},
    }


def _table_create_schema(schema: dict[str, Any]) -> None:
    """What the engine accepts, in the schema (OpenAPI 3.1 is JSON Schema 2020-12): the
    variants and colours by name (a colour may repeat: the engine allows it), not both ends of
    a game, and per player count and variant how many colours are removed
    (``engine.GameOptions``)."""
    properties = schema["properties"]
    properties["variant"] = {
        "type": "string",
        "enum": [str(variant.name) for variant in RULES.variants],
        "default": RULES.default_variant,
        "title": "Variant",
    }
    colours = {"type": "string", "enum": [str(colour) for colour in RULES.colours]}
    for option in properties["removed_colours"]["anyOf"]:
        if option.get("type") == "array":
            option["items"] = colours
    # Field examples are combined freely (5 players with 2 removed colours): one whole example.
    properties["removed_colours"].pop("examples", None)
    # A three-player table of the default rules, its removed colours the catalog's last ones.
    default = next(v for v in RULES.variants if v.name == RULES.default_variant)
    three = next(d for d in default.deals if d.players == min(RULES.player_counts))
    removed = [
        str(colour) for colour in RULES.colours[len(RULES.colours) - three.removed_colours :]
    ]
    example = {
        "players": three.players,
        "variant": str(RULES.default_variant),
        "removed_colours": removed,
    }
    schema["examples"] = [example]
    given = {"required": ["target_score"], "properties": {"target_score": {"type": "integer"}}}
    schema["allOf"] = [
        {"if": given, "then": {"properties": {"hands": {"type": "null"}}}},
        *(
            _removed_colours_rule(deal.players, str(variant.name), deal.removed_colours)
            for variant in RULES.variants
            for deal in variant.deals
        ),
    ]


class TableCreate(TableChoices):
    """A new table. The game ends at ``target_score`` or after ``hands`` hands; give neither
    and the variant's default applies (``GET /api/rules``). The engine judges the options."""

    model_config = ConfigDict(json_schema_extra=_table_create_schema)

    @model_validator(mode="after")
    def _engine_accepts(self) -> Self:
        # The engine refuses what it cannot play (ValueError: a 422) and fills in the
        # variant's default end, which is stored with the table.
        options = engine.GameOptions(
            self.players, self.variant, self.target_score, self.hands, self.removed_colours
        )
        self.target_score, self.hands = options.target_score, options.hands
        return self


class TableCreated(BaseModel):
    table_id: int
    invite_code: str
    invite_url: str
    host_token: str = Field(
        description="the creator's credential for adding bots (also set as a cookie)"
    )


def clean_name(value: str) -> str:
    name = unicodedata.normalize("NFC", value).strip()
    if not name:
        raise ValueError("the name is empty")
    if len(name) > NAME_MAX:
        raise ValueError(f"the name is longer than {NAME_MAX} characters")
    if any(
        unicodedata.category(char) in _BANNED_CATEGORIES and char not in _ALLOWED_FORMAT
        for char in name
    ):
        raise ValueError("the name contains control characters")
    return name


class SeatCreate(BaseModel):
    """Take a seat: a name of 1-24 characters (trimmed) and optionally which seat."""

    # The schema says what the server refuses: empty or blank names (control characters and
    # names over 24 characters once trimmed are refused too).
    # The pattern is for the schema only: clean_name enforces the same (with Unicode's
    # categories, which regular expressions here lack).
    name: str = Field(
        min_length=1,
        max_length=NAME_MAX,
        examples=["Anna"],
        json_schema_extra=_name_schema,
    )
    seat: int | None = Field(default=None, ge=0, lt=SEATS)

    @field_validator("name")
    @classmethod
    def _clean_name(cls, value: str) -> str:
        return clean_name(value)


class SeatCreated(BaseModel):
    seat: int
    token: str
    rejoin_url: str


class Rejoin(BaseModel):
    """The seat token from a personal link's ``#rejoin=`` fragment."""

    token: str = Field(min_length=1, max_length=128)


class Rejoined(BaseModel):
    seat: int


class SeatPublic(BaseModel):
    seat: int
    name: str | None
    occupied: bool
    bot: bool
    bot_level: str | None = Field(description="the bot's level, null for a person")
    connected: bool
    bot_playing: bool = Field(description="a bot plays for this away person (takeover)")
    opened: bool = Field(
        default=False,
        description="a bot's seat the host opened for someone new: a newcomer may take it over "
        "even where newcomers may not take bots' seats",
    )


class TableOptionsPublic(TableOptions):
    """The table's options as its info shows them: every option, and the seats kept."""

    # Every field is always sent: the schema says so (it has the defaults of the request).
    model_config = ConfigDict(json_schema_serialization_defaults_required=True)


class TablePublic(BaseModel):
    table_id: int
    invite_code: str
    invite_url: str
    status: Literal["waiting", "playing", "over"]
    version: int
    hand_number: int
    options: TableOptionsPublic
    seats: list[SeatPublic]
    closed_to_newcomers: bool = Field(
        default=False, description="the host closed the table: nobody new may take a seat"
    )
    you: int | None = Field(description="the caller's seat (from the cookie or ?token=), or null")
    host: bool = Field(default=False, description="the caller holds the table's host token")
    rules: dict[str, Any] = Field(
        default_factory=dict,
        description="engine.rules_summary: goals and bonuses per bid, and which are unverified",
    )


class ScoreSheet(BaseModel):
    """``engine.scoresheet`` plus the seat names."""

    players: int
    names: list[str | None]
    rows: list[dict[str, Any]]
    totals: list[int]
    over: bool
    winners: list[int]
    hints: list[list[int]] = Field(
        default_factory=list,
        description="per row (hand): the seats that took a beginner hint in that hand",
    )
