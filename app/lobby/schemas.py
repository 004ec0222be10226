"""HTTP request and response bodies for tables (pydantic), layered per use."""

from __future__ import annotations

import unicodedata
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

import engine
from app.tables.options import SEATS, TableChoices, TableOptions

NAME_MAX = 24
# Control, format, private-use, unassigned and line/paragraph separators: invisible or
# layout-breaking in a name. ZERO WIDTH JOINER (a format character) stays: emoji need it.
_BANNED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
_ALLOWED_FORMAT = {"\u200d"}


class TableCreate(TableChoices):
    """A new table. The game ends at ``target_score`` or after ``hands`` hands; give neither
    and the variant's default applies (``GET /api/rules``). The engine judges the options."""

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
