"""A table's live game: the engine's :class:`engine.Game` plus the seats, as immutable values.

Nothing here touches the database or a socket: the room (``app/realtime/room.py``) decides
when a change is committed; this module only says what the change is. The game's flow (when a
hand is recorded, who deals next, when the game is over) is the engine's; the table adds who
sits where and counts the accepted actions. A table is rebuilt by replaying the deal seeds and
the action log through the engine (``replay.py``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Literal

import engine

Status = Literal["waiting", "playing", "over"]
DEFAULT_TAKEOVER_SECONDS = 60.0
_RULES = engine.rules_catalog()


@dataclass(frozen=True, slots=True)
class TableOptions:
    """What the creator chose; stored as the table's ``options`` JSON. Neither ``target_score``
    nor ``hands``: the variant's default end (the engine's)."""

    players: int
    variant: str = _RULES.default_variant
    target_score: int | None = None
    hands: int | None = None
    # A person away longer than this has a bot play for them until they return; None: never.
    takeover_seconds: float | None = DEFAULT_TAKEOVER_SECONDS
    # 3 players: the colours left out (C2, R3); None: a random choice per hand from its seed.
    removed_colours: tuple[str, ...] | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableOptions:
        return cls(
            players=data["players"],
            variant=data.get("variant", _RULES.default_variant),
            target_score=data.get("target_score"),
            hands=data.get("hands"),
            # Tables stored before the setting existed get its default.
            takeover_seconds=data.get("takeover_seconds", DEFAULT_TAKEOVER_SECONDS),
            removed_colours=tuple(data["removed_colours"]) if data.get("removed_colours") else None,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "variant": self.variant,
            "target_score": self.target_score,
            "hands": self.hands,
            "takeover_seconds": self.takeover_seconds,
            "removed_colours": list(self.removed_colours) if self.removed_colours else None,
        }

    def game_options(self) -> engine.GameOptions:
        """The engine's options; ``ValueError`` if the engine refuses them."""
        return engine.GameOptions(
            players=self.players,
            variant=self.variant,
            target_score=self.target_score,
            hands=self.hands,
            removed_colours=self.removed_colours,
        )


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seat's occupant: a person (with a token hash) or a bot."""

    name: str
    token_hash: str
    bot: bool = False
    bot_level: str | None = None


@dataclass(frozen=True, slots=True)
class LiveTable:
    """One table at one version. Replaced, never mutated, so a snapshot can be rendered later."""

    table_id: int
    invite_code: str
    options: TableOptions
    version: int
    seq: int  # accepted actions so far; the next one is written as seq + 1
    seats: tuple[SeatInfo | None, ...]
    game: engine.Game  # the sheet, the hand being played (None until every seat is taken)

    @property
    def hand(self) -> engine.HandState | None:
        return self.game.hand

    @property
    def hand_number(self) -> int:
        """The number of ``hand``; 0 before the first deal."""
        return self.game.hand_number

    @property
    def status(self) -> Status:
        if self.game.over:
            return "over"
        return "waiting" if self.game.hand is None else "playing"

    @property
    def full(self) -> bool:
        return all(seat is not None for seat in self.seats)

    @property
    def needs_deal(self) -> bool:
        """A new hand is due: every seat is taken and the game wants its next hand."""
        return self.full and self.game.needs_deal

    def seat_of(self, token_hash: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat is not None and seat.token_hash == token_hash:
                return index
        return None

    def free_seats(self) -> list[int]:
        return [index for index, seat in enumerate(self.seats) if seat is None]

    def bot_seats(self) -> list[int]:
        return [index for index, seat in enumerate(self.seats) if seat is not None and seat.bot]


def new_table(*, table_id: int, invite_code: str, options: TableOptions) -> LiveTable:
    return LiveTable(
        table_id=table_id,
        invite_code=invite_code,
        options=options,
        version=0,
        seq=0,
        seats=(None,) * options.players,
        game=engine.new_game(options.game_options(), first_dealer=0),
    )


def seat(live: LiveTable, index: int, info: SeatInfo) -> LiveTable:
    seats = list(live.seats)
    seats[index] = info
    return replace(live, seats=tuple(seats))


def deal(live: LiveTable, seed: int) -> LiveTable:
    """Deal the game's next hand; the seed alone reproduces the deal."""
    return replace(live, game=engine.deal_next(live.game, random.Random(seed)))


class NotStarted(engine.IllegalAction, code="not_started"):
    """An action before every seat is taken (no hand dealt yet)."""


def play(live: LiveTable, seat_index: int, action: engine.Action) -> LiveTable:
    """Apply one action (the engine records a hand that ends on the sheet at once).

    Raises:
        engine.IllegalAction: refused by the rules; ``live`` is unchanged.
    """
    if live.game.hand is None:
        raise NotStarted("the game starts when every seat is taken")
    return replace(live, game=engine.play(live.game, seat_index, action), seq=live.seq + 1)
