"""A table's live game: the engine's :class:`engine.Game` plus the seats, as immutable values.

Nothing here touches the database or a socket: the room (``app/realtime/room.py``) decides
when a change is committed; this module only says what the change is. The game's flow (when a
hand is recorded, who deals next, when the game is over) is the engine's; the table adds who
sits where and counts the accepted actions. A table is rebuilt by replaying the deal seeds and
the action log through the engine (``replay.py``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import engine

Status = Literal["waiting", "playing", "over"]
Pace = Literal["live", "correspondence"]
DEFAULT_TAKEOVER_SECONDS = 60.0
DEFAULT_MOVE_HOURS = 24.0
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
    # Beginner hints: a seated player may ask the search bot for a suggestion on their turn;
    # every hint taken is stored and marked on the score sheet.
    hints: bool = False
    # live: played in one sitting (an away person's bot after ``takeover_seconds``);
    # correspondence: each player has ``move_hours`` per move, the table waits, and a bot plays
    # for an away person only if the host allowed it (``correspondence_bots``), after that time.
    pace: Pace = "live"
    move_hours: float = DEFAULT_MOVE_HOURS
    correspondence_bots: bool = False
    # A table opened by "Play again": the people's seats are kept for them (only the way
    # back from the previous table takes them) until ``reserved_until`` (Unix time).
    reserved: tuple[int, ...] = ()
    reserved_until: float | None = None
    # Whether a newcomer may take over a bot's seat (the host's choice).
    newcomers_take_bots: bool = True

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
            hints=bool(data.get("hints", False)),
            pace="correspondence" if data.get("pace") == "correspondence" else "live",
            move_hours=float(data.get("move_hours", DEFAULT_MOVE_HOURS)),
            correspondence_bots=bool(data.get("correspondence_bots", False)),
            reserved=tuple(data.get("reserved", ())),
            reserved_until=data.get("reserved_until"),
            newcomers_take_bots=data.get("newcomers_take_bots", True),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "variant": self.variant,
            "target_score": self.target_score,
            "hands": self.hands,
            "takeover_seconds": self.takeover_seconds,
            "removed_colours": list(self.removed_colours) if self.removed_colours else None,
            "hints": self.hints,
            "pace": self.pace,
            "move_hours": self.move_hours,
            "correspondence_bots": self.correspondence_bots,
            "newcomers_take_bots": self.newcomers_take_bots,
        } | (
            {"reserved": list(self.reserved), "reserved_until": self.reserved_until}
            if self.reserved
            else {}
        )

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
class Undoable:
    """The last action can still be taken back (undo by consent): who made it, and the table
    as it was before it."""

    seat: int
    before: LiveTable


# The log's marker for a taken-back action: an action row of this form (by the seat that
# asked) makes the replay drop the action before it. Never an engine action.
UNDO_MARK = "undo"


def is_undo(action: Mapping[str, Any]) -> bool:
    return action.get("type") == UNDO_MARK


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
    # The last action while it may be taken back: in the same hand, nothing after it.
    undoable: Undoable | None = field(default=None, compare=False, repr=False)

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

    def free_seats(self, *, now: float | None = None) -> list[int]:
        """Seats nobody holds; with ``now``, not those still kept for their previous player."""
        kept = self.kept_seats(now) if now is not None else ()
        return [
            index for index, seat in enumerate(self.seats) if seat is None and index not in kept
        ]

    def kept_seats(self, now: float) -> tuple[int, ...]:
        """Seats kept for the players of the previous game ("Play again") at time ``now``."""
        until = self.options.reserved_until
        return self.options.reserved if until is not None and now < until else ()

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
    return replace(live, game=engine.deal_next(live.game, random.Random(seed)), undoable=None)


class NotStarted(engine.IllegalAction, code="not_started"):
    """An action before every seat is taken (no hand dealt yet)."""


class NothingToUndo(engine.IllegalAction, code="nothing_to_undo"):
    """No action can be taken back now (none yet, it ended a hand, or it was taken back)."""


def play(live: LiveTable, seat_index: int, action: engine.Action) -> LiveTable:
    """Apply one action (the engine records a hand that ends on the sheet at once).

    Raises:
        engine.IllegalAction: refused by the rules; ``live`` is unchanged.
    """
    if live.game.hand is None:
        raise NotStarted("the game starts when every seat is taken")
    game = engine.play(live.game, seat_index, action)
    # A move that ends the hand is final (the next hand is dealt with it); others may be
    # taken back while nothing follows them.
    ended = game.hand is None or game.hand_number != live.game.hand_number or game.hand.is_over
    undoable = None if ended else Undoable(seat_index, replace(live, undoable=None))
    return replace(live, game=game, seq=live.seq + 1, undoable=undoable)


def undo(live: LiveTable) -> LiveTable:
    """Take back the last action: the table as before it, the seats as now; the undo marker
    counts as the next logged row.

    Raises:
        NothingToUndo: the last action cannot be taken back.
    """
    if live.undoable is None:
        raise NothingToUndo("there is no move to take back")
    before = live.undoable.before
    return replace(before, seats=live.seats, seq=live.seq + 1, version=live.version, undoable=None)
