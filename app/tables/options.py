"""A table's options, defined once.

:class:`TableChoices` holds what the creator of a table chooses, one field per option with its
type, default, bounds and description; :class:`TableOptions` adds what the table itself keeps
(the seats held by "Play again"). Everything else is derived from these two classes:

- the create request, ``app.lobby.schemas.TableCreate`` (a subclass: the same validation and
  OpenAPI description, plus the engine's judgement);
- the stored ``options`` JSON (:meth:`TableOptions.to_json`, :meth:`TableOptions.from_json`,
  which reads rows stored before an option existed: they get its default);
- the public view, ``app.lobby.schemas.TableOptionsPublic`` (a subclass);
- the options of imported hand and game files (``app/history/files.py``).

Each option's default and bounds are spelled here only: the forms that open a table (the home
page's and a group's) are rendered from :func:`form_options`, and their scripts read the numbers
from the rendered form, never a literal of their own. The game's length and the player counts are
the engine's (``engine.rules_catalog()``), taken from there.

Adding an option means: a field here, its control in the home page's form
(``templates/home.html``, ``static/js/home.js``), and its use.
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from typing import Annotated, Any, Literal, Self, Union, get_args, get_origin

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

import engine


def _a_json_number(value: Any) -> Any:
    if isinstance(value, str | bool):
        raise ValueError("a number is expected")
    return value


JsonInt = Annotated[int, BeforeValidator(_a_json_number)]
JsonFloat = Annotated[float, BeforeValidator(_a_json_number)]
Pace = Literal["live", "correspondence"]
# How a table waits for a person who dropped out (issue 40): a bot after ``takeover_seconds``,
# no bot at all (they continue where they left), or the people present decide (bot now / wait).
OnDropout = Literal["bot", "wait", "ask"]
# The engine's limits and defaults (no rule is typed again here).
RULES = engine.rules_catalog()
SEATS = max(RULES.player_counts)
TARGET_SCORE = RULES.target_score
HANDS = RULES.hands
# The options of the app's own, as ``engine.Limits(min, max, default)``: whole numbers, stored
# and described as they always were (``60``, not ``60.0``).
TAKEOVER_SECONDS = engine.Limits(min=0, max=86_400, default=60)
MOVE_HOURS = engine.Limits(min=1, max=24 * 14, default=24)
# The player count the forms suggest (a request must name one).
FORM_PLAYERS = 4
VARIANT_MAX_LENGTH = 32
_REMOVED_COLOURS = max(deal.removed_colours for v in RULES.variants for deal in v.deals)


class TableChoices(BaseModel):
    """What the creator of a table chooses (the fields of ``POST /api/tables``).

    Numbers and booleans are what JSON Schema calls them: ``"3"`` or ``true`` where the schema
    says integer, ``0`` where it says boolean, are refused (pydantic's lax mode took them), as
    the OpenAPI document promises (tests/app/test_api_contract.py); ``3.0`` is an integer."""

    players: JsonInt = Field(ge=min(RULES.player_counts), le=SEATS, examples=[5])
    variant: str = Field(default=RULES.default_variant, max_length=VARIANT_MAX_LENGTH)
    # Neither ``target_score`` nor ``hands``: the variant's default end (the engine's).
    target_score: (
        Annotated[
            int,
            Field(ge=TARGET_SCORE.min, le=TARGET_SCORE.max),
            BeforeValidator(_a_json_number),
        ]
        | None
    ) = None
    # An optional number's bounds go inside its type, so the OpenAPI schema states them too.
    hands: (
        Annotated[int, Field(ge=HANDS.min, le=HANDS.max), BeforeValidator(_a_json_number)] | None
    ) = None
    takeover_seconds: (
        Annotated[
            float,
            Field(ge=TAKEOVER_SECONDS.min, le=TAKEOVER_SECONDS.max),
            BeforeValidator(_a_json_number),
        ]
        | None
    ) = Field(
        default=TAKEOVER_SECONDS.default,
        description="a bot plays for a person away this long, until they return; null: never",
    )
    on_dropout: OnDropout = Field(
        default="bot",
        description="when a person drops out: bot (a bot after takeover_seconds), wait (no "
        "bot: they continue where they left) or ask (the people present vote: bot now or wait)",
    )
    newcomers_take_bots: bool = Field(
        default=True, strict=True, description="whether a newcomer may take over a bot's seat"
    )
    removed_colours: tuple[str, ...] | None = Field(
        default=None,
        max_length=_REMOVED_COLOURS,
        examples=[[str(colour) for colour in RULES.colours[-2:]]],
        description="3 players: the colours left out of the deck (classic 2, revised 1); "
        "null: a random choice per hand, recorded with the hand",
    )
    hints: bool = Field(
        default=False,
        strict=True,
        description="beginner hints: players may ask the search bot for a move on their turn; "
        "hints taken are marked on the score sheet",
    )
    # live: an away person's bot after ``takeover_seconds``; correspondence: each player has
    # ``move_hours`` per move, the table waits, and a bot plays for an away person only if the
    # host allowed it (``correspondence_bots``), after that time.
    pace: Pace = Field(
        default="live",
        description="live: one sitting; correspondence: move_hours per move, the table waits",
    )
    move_hours: JsonFloat = Field(
        default=MOVE_HOURS.default,
        ge=MOVE_HOURS.min,
        le=MOVE_HOURS.max,
        description="correspondence: hours each player has per move",
    )
    correspondence_bots: bool = Field(
        default=False,
        strict=True,
        description="correspondence: a bot may play for a player whose move time ran out",
    )


class PracticeFrom(BaseModel):
    """Where a practice table branched from (issue 39, ``app/practice``): the table, its hand
    and the step of that hand's replay (0: the deal itself, "play this deal again")."""

    model_config = ConfigDict(frozen=True)

    code: str = Field(max_length=64, description="the invite code of the table it branched from")
    hand: int = Field(ge=1, description="the number of the hand it branched from")
    step: int = Field(ge=0, description="the moment: how many of that hand's moves came first")


class TableOptions(TableChoices):
    """A table's options as it keeps them (immutable): the creator's choices and the seats
    kept by "Play again"."""

    model_config = ConfigDict(frozen=True)

    # A table opened by "Play again": the people's seats are kept for them (only the way back
    # from the previous table takes them) until ``reserved_until`` (Unix time).
    reserved: tuple[int, ...] = Field(
        default=(), description="Play again: the seats kept for the previous game's players"
    )
    reserved_until: float | None = Field(
        default=None, description="until when the seats are kept (Unix time)"
    )
    # A practice table: one hand, on the deal of a finished hand from one of its moments. It
    # is never a game: no score sheet of a game, group, rating or "my tables" counts it.
    practice: PracticeFrom | None = Field(
        default=None, description="a practice table: where it branched from; null otherwise"
    )
    # A group's game dealt the cards of an earlier game of the group, hand by hand (duplicate).
    deals_of: str | None = Field(
        default=None,
        max_length=64,
        description="the invite code of the game whose deals this game replays; null otherwise",
    )

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """The stored ``options`` (or a validated request's fields), never refused: a missing
        option gets its default, and the bounds are checked on the request only (they have
        changed since some tables were stored)."""
        values = {
            name: _decode(field.annotation, data[name], field.default)
            for name, field in cls.model_fields.items()
            if name in data
        }
        return cls.model_construct(**values)

    def to_json(self) -> dict[str, Any]:
        """The ``options`` JSON stored with the table (the seats kept only while there are)."""
        left = set() if self.reserved else {"reserved", "reserved_until"}
        if self.practice is None:
            left.add("practice")
        if self.deals_of is None:
            left.add("deals_of")
        return self.model_dump(mode="json", exclude=left or None)

    def game_options(self) -> engine.GameOptions:
        """The engine's options; ``ValueError`` if the engine refuses them."""
        return engine.GameOptions(
            players=self.players,
            variant=self.variant,
            target_score=self.target_score,
            hands=self.hands,
            removed_colours=self.removed_colours,
        )


def form_options() -> dict[str, Any]:
    """What the forms that open a table show, by option (their Jinja context ``options``):
    the defaults of the flags and choices, the numbers as ``engine.Limits`` (``min``, ``max``
    and the ``default`` a form shows), the paces to choose from and the player count the forms
    preselect."""
    default = {name: field.default for name, field in TableChoices.model_fields.items()}
    return {
        "players": FORM_PLAYERS,
        "variant": default["variant"],
        "target_score": TARGET_SCORE,
        "hands": HANDS,
        "takeover_seconds": TAKEOVER_SECONDS,
        "on_dropout": default["on_dropout"],
        "dropouts": get_args(OnDropout),
        "newcomers_take_bots": default["newcomers_take_bots"],
        "hints": default["hints"],
        "pace": default["pace"],
        "paces": get_args(Pace),
        "move_hours": MOVE_HOURS,
        "correspondence_bots": default["correspondence_bots"],
    }


def _decode(kind: Any, value: Any, default: Any) -> Any:
    """A stored value as the field's type has it: sequences as tuples (an empty optional one
    as None), flags as bools, an unknown choice as the default."""
    args = get_args(kind)
    if get_origin(kind) in (Union, types.UnionType):  # ``X | None``: None stays None
        inner = next(arg for arg in args if arg is not type(None))
        if get_origin(inner) is tuple:
            return tuple(value) if value else None
        if isinstance(inner, type) and issubclass(inner, BaseModel) and value is not None:
            return inner.model_validate(value)
        return value
    if get_origin(kind) is tuple:
        return tuple(value)
    if get_origin(kind) is Literal:
        return value if value in args else default
    if kind is bool:
        return bool(value)
    if kind is float:
        return float(value)
    return value
