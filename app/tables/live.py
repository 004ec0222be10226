"""A table's live game: the engine's state plus the seats, kept as immutable values.

Nothing here touches the database or a socket: the room (``app/realtime/room.py``) decides
when a change is committed; this module only says what the change is. Every rule of Mü stays in
the engine: the table is rebuilt by replaying the deal seeds and the action log through it
(``replay.py``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Literal

import engine

Status = Literal["waiting", "playing", "over"]
DEFAULT_TAKEOVER_SECONDS = 60.0


@dataclass(frozen=True, slots=True)
class TableOptions:
    """What the creator chose; stored as the table's ``options`` JSON."""

    players: int
    variant: str = "classic"
    target_score: int | None = 200
    hands: int | None = None
    # A person away longer than this has a bot play for them until they return; None: never.
    takeover_seconds: float | None = DEFAULT_TAKEOVER_SECONDS
    # 3 players: the colours left out (C2, R3); None: a random choice per hand from its seed.
    removed_colours: tuple[str, ...] | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableOptions:
        return cls(
            players=data["players"],
            variant=data.get("variant", "classic"),
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
    game: engine.GameState
    hand: engine.HandState | None  # None until every seat is taken
    hand_number: int  # number of ``hand``; 0 before the first deal
    last_result: dict[str, Any] | None  # the engine result of the last finished hand

    @property
    def status(self) -> Status:
        if self.game.over:
            return "over"
        return "waiting" if self.hand is None else "playing"

    @property
    def full(self) -> bool:
        return all(seat is not None for seat in self.seats)

    @property
    def needs_deal(self) -> bool:
        """A new hand is due: all seats taken and no hand in progress, game not over."""
        if not self.full or self.game.over:
            return False
        return self.hand is None or self.hand.phase == "over"

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
        hand=None,
        hand_number=0,
        last_result=None,
    )


def seat(live: LiveTable, index: int, info: SeatInfo) -> LiveTable:
    seats = list(live.seats)
    seats[index] = info
    return replace(live, seats=tuple(seats))


def deal(live: LiveTable, seed: int) -> LiveTable:
    """Deal the next hand with ``game.dealer``; the seed alone reproduces the deal."""
    hand = engine.start_hand(live.game, random.Random(seed))
    return replace(live, hand=hand, hand_number=live.game.hand_number)


class NotStarted(engine.IllegalAction):
    """An action before every seat is taken (no hand dealt yet)."""

    code = "not_started"


def play(live: LiveTable, seat_index: int, action: dict[str, Any]) -> LiveTable:
    """Apply one action; a finished hand goes onto the score sheet at once.

    Raises:
        engine.IllegalAction: refused by the rules; ``live`` is unchanged.
    """
    if live.hand is None:
        raise NotStarted("the game starts when every seat is taken")
    hand = engine.apply(live.hand, seat_index, action)
    after = replace(live, hand=hand, seq=live.seq + 1)
    if hand.phase != "over":
        return after
    return replace(after, game=engine.record_hand(live.game, hand), last_result=engine.result(hand))
