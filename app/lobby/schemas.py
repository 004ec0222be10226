"""HTTP request and response bodies for tables (pydantic), layered per use."""

from __future__ import annotations

import unicodedata
from typing import Any, Literal, Self

from pydantic import BaseModel, Field, field_validator, model_validator

import engine

NAME_MAX = 24
# The engine's limits and defaults (no rule is typed again here).
RULES = engine.rules_catalog()
SEATS = max(RULES.player_counts)
_REMOVED_COLOURS = max(deal.removed_colours for v in RULES.variants for deal in v.deals)
# Control, format, private-use, unassigned and line/paragraph separators: invisible or
# layout-breaking in a name. ZERO WIDTH JOINER (a format character) stays: emoji need it.
_BANNED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
_ALLOWED_FORMAT = {"\u200d"}


class TableCreate(BaseModel):
    """A new table. The game ends at ``target_score`` or after ``hands`` hands; give neither
    and the variant's default applies (``GET /api/rules``). The engine judges the options."""

    players: int = Field(ge=min(RULES.player_counts), le=SEATS, examples=[5])
    variant: str = Field(default=RULES.default_variant, max_length=32)
    target_score: int | None = Field(
        default=None, ge=RULES.target_score.min, le=RULES.target_score.max
    )
    hands: int | None = Field(default=None, ge=RULES.hands.min, le=RULES.hands.max)
    takeover_seconds: float | None = Field(
        default=60,
        ge=0,
        le=86_400,
        description="a bot plays for a person away this long, until they return; null: never",
    )
    newcomers_take_bots: bool = Field(
        default=True, description="whether a newcomer may take over a bot's seat"
    )
    removed_colours: list[str] | None = Field(
        default=None,
        max_length=_REMOVED_COLOURS,
        examples=[[str(colour) for colour in RULES.colours[-2:]]],
        description="3 players: the colours left out of the deck (classic 2, revised 1); "
        "null: a random choice per hand, recorded with the hand",
    )
    hints: bool = Field(
        default=False,
        description="beginner hints: players may ask the search bot for a move on their turn; "
        "hints taken are marked on the score sheet",
    )

    pace: Literal["live", "correspondence"] = Field(
        default="live",
        description="live: one sitting; correspondence: move_hours per move, the table waits",
    )
    move_hours: float = Field(
        default=24, ge=1, le=24 * 14, description="correspondence: hours each player has per move"
    )
    correspondence_bots: bool = Field(
        default=False,
        description="correspondence: a bot may play for a player whose move time ran out",
    )

    @model_validator(mode="after")
    def _engine_accepts(self) -> Self:
        # The engine refuses what it cannot play (ValueError: a 422) and fills in the
        # variant's default end, which is stored with the table.
        removed = tuple(self.removed_colours) if self.removed_colours is not None else None
        options = engine.GameOptions(
            self.players, self.variant, self.target_score, self.hands, removed
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

    name: str = Field(examples=["Anna"])
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


class TableOptionsPublic(BaseModel):
    players: int
    variant: str
    target_score: int | None
    hands: int | None
    takeover_seconds: float | None
    removed_colours: list[str] | None = None
    hints: bool = False
    pace: Literal["live", "correspondence"] = "live"
    move_hours: float = 24
    correspondence_bots: bool = False
    # "Play again": the seats kept for the previous game's players, until (Unix time).
    reserved: list[int] = []
    reserved_until: float | None = None
    newcomers_take_bots: bool = True


class TablePublic(BaseModel):
    table_id: int
    invite_code: str
    invite_url: str
    status: Literal["waiting", "playing", "over"]
    version: int
    hand_number: int
    options: TableOptionsPublic
    seats: list[SeatPublic]
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
