"""What the group pages' forms and query strings carry, checked before anything is done."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

import engine
from app.groups.seasons import Season
from app.groups.standings import Filter
from app.lobby.schemas import TableCreate
from app.tables import options

_RULES = engine.rules_catalog()
_DEFAULT = options.form_options()


class TableForm(BaseModel):
    """The group page's "open a table" form (the home page's options, without a script):
    ``ends`` says which of ``target_score`` and ``hands`` counts. The defaults are the forms'
    (``app/tables/options.py``); the bounds are checked by :class:`TableCreate`, so that a
    number the form does not use (the score while ``ends`` is "hands") is never refused."""

    players: int = Field(default=_DEFAULT["players"])
    variant: str = Field(default=_DEFAULT["variant"], max_length=options.VARIANT_MAX_LENGTH)
    ends: Literal["default", "target", "hands"] = "default"
    target_score: int | None = None
    hands: int | None = None
    hints: bool = _DEFAULT["hints"]
    on_dropout: options.OnDropout = _DEFAULT["on_dropout"]  # app/tables/waiting.py

    def table_create(self) -> TableCreate:
        """The lobby's request for these options (``ValidationError``: options the engine
        refuses)."""
        return TableCreate(
            players=self.players,
            variant=self.variant,
            target_score=self.target_score if self.ends == "target" else None,
            hands=self.hands if self.ends == "hands" else None,
            hints=self.hints,
            on_dropout=self.on_dropout,
        )


def parse_filter(variant: str, players: str) -> Filter:
    """The standings filter from the query string; anything unknown means "all"."""
    names = {v.name for v in _RULES.variants}
    counts = {str(n): n for n in _RULES.player_counts}
    return Filter(variant if variant in names else None, counts.get(players))


def parse_season(value: str, seasons: list[Season]) -> Season | None:
    """The season the page shows: ``all`` (None: all time), a season's number, else the
    current season."""
    if value == "all":
        return None
    chosen = [s for s in seasons if str(s.number) == value]
    return chosen[0] if chosen else next(s for s in seasons if s.current)
