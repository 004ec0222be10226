"""A table's live game: the engine's :class:`engine.Game` plus the seats, as immutable values.

Nothing here touches the database or a socket: the room (``app/room/room.py``) decides
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
from app.tables import pausing
from app.tables.options import TableOptions
from app.tables.pausing import PauseState

Status = Literal["waiting", "playing", "over"]


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


@dataclass(frozen=True, slots=True)
class Branch:
    """A table dealt from another table's deals (issue 39): a practice table (``app/practice``:
    one hand's deal, and the moves before the chosen moment, played at once by
    ``open_branch`` in the commit that deals it) or a group's game on the deals of an earlier
    game (``app/groups/duplicate.py``: every hand's deal, no moves). Hand ``n`` is dealt from
    ``deals[n - 1]``'s seed; its dealer is the same, as dealers rotate the same way from the
    same first dealer (C3). Hands beyond ``deals`` are dealt at random. Server-side only: the
    seeds never leave the server (the table row's ``branch`` column, never a view or the
    options)."""

    deals: tuple[tuple[int, int], ...]  # (seed, dealer) of hand 1, 2, ...
    moves: tuple[tuple[int, Mapping[str, Any]], ...] = ()  # hand 1: (seat, the action's JSON)

    @property
    def first_dealer(self) -> int:
        return self.deals[0][1]

    def seed(self, number: int) -> int | None:
        """The seed of hand ``number`` (1-based), if it is one of the deals."""
        return self.deals[number - 1][0] if 1 <= number <= len(self.deals) else None

    def to_json(self) -> dict[str, Any]:
        return {
            "deals": [[seed, dealer] for seed, dealer in self.deals],
            "moves": [[seat, dict(action)] for seat, action in self.moves],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Branch:
        deals = tuple((int(seed), int(dealer)) for seed, dealer in data["deals"])
        moves = tuple((int(seat), dict(action)) for seat, action in data.get("moves", ()))
        return cls(deals, moves)


# The log's marker for a taken-back action: an action row of this form (by the seat that
# asked) makes the replay drop the action before it. Never an engine action.
UNDO_MARK = "undo"


def is_undo(action: Mapping[str, Any]) -> bool:
    return action.get("type") == UNDO_MARK


# The log's marker for what the table's host did (removed a person, handed over the host role,
# closed the table, sent the spectators away): an action row of this form counts in the log
# (replays show it) and changes no card. Never an engine action. See app/host/.
HOST_MARK = "host"


def is_host_mark(action: Mapping[str, Any]) -> bool:
    return action.get("type") == HOST_MARK


@dataclass(frozen=True, slots=True)
class HostState:
    """What the host's markers in the log add up to."""

    closed_to_newcomers: bool = False
    closed_to_spectators: bool = False
    # Seats the host opened for someone new: a newcomer may take their bot's seat.
    opened: frozenset[int] = frozenset()
    # How often the host sent the spectators away: sockets from before are closed.
    spectators_sent_away: int = 0
    # The host deleted the table's history: every socket closes, nothing more happens here.
    deleted: bool = False
    # The host's last marker (what every view tells: "Anna gave Bert's seat to a bot").
    last: Mapping[str, Any] | None = None


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
    host: HostState = HostState()
    # Paused by consent, holidays, drop-out votes (issue 40): the log's pause markers.
    pause: PauseState = PauseState()
    # The deals this table is dealt from (a practice table, a group's game on an earlier
    # game's deals); None for a table dealt at random.
    branch: Branch | None = field(default=None, compare=False, repr=False)

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


def new_table(
    *, table_id: int, invite_code: str, options: TableOptions, branch: Branch | None = None
) -> LiveTable:
    """A table as opened: nobody seated, nothing dealt; a practice table's first hand is dealt
    by the dealer of the hand it branched from."""
    return LiveTable(
        table_id=table_id,
        invite_code=invite_code,
        options=options,
        version=0,
        seq=0,
        seats=(None,) * options.players,
        game=engine.new_game(
            options.game_options(), first_dealer=branch.first_dealer if branch else 0
        ),
        branch=branch,
    )


def seat(live: LiveTable, index: int, info: SeatInfo) -> LiveTable:
    seats = list(live.seats)
    seats[index] = info
    return replace(live, seats=tuple(seats))


def deal(live: LiveTable, seed: int) -> LiveTable:
    """Deal the game's next hand; the seed alone reproduces the deal."""
    return replace(live, game=engine.deal_next(live.game, random.Random(seed)), undoable=None)


def open_branch(live: LiveTable) -> tuple[LiveTable, list[tuple[int, Mapping[str, Any]]]]:
    """A practice table's first hand, just dealt from its branch's seed: the moves before the
    chosen moment played (the engine checks each), returned with the table. Nothing of them
    can be taken back: the practice starts at that moment."""
    branch = live.branch
    if branch is None or not branch.moves or live.hand_number != 1 or live.seq:
        return live, []
    for seat_index, action in branch.moves:
        live = play(live, seat_index, engine.action_from_json(action))
    return replace(live, undoable=None), list(branch.moves)


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


def host_mark(live: LiveTable, mark: Mapping[str, Any]) -> LiveTable:
    """The table after one host marker (the marker counts as the next logged row; the last
    action can no longer be taken back). Seats are the seat rows' business, not the marker's."""
    host = live.host
    event = mark.get("event")
    if event == "close":
        host = replace(
            host,
            closed_to_newcomers=bool(mark.get("newcomers")),
            closed_to_spectators=bool(mark.get("spectators")),
        )
    elif event == "remove" and mark.get("to") == "open":
        host = replace(host, opened=host.opened | {int(mark["seat"])})
    elif event == "spectators":
        host = replace(host, spectators_sent_away=host.spectators_sent_away + 1)
    elif event == "deleted":
        host = replace(host, deleted=True)
    host = replace(host, last=dict(mark))
    return replace(live, seq=live.seq + 1, undoable=None, host=host)


def pause_mark(live: LiveTable, seat: int, mark: Mapping[str, Any]) -> LiveTable:
    """The table after ``seat``'s pause marker (``app/tables/pausing.py``): it counts as the
    next logged row, moves no card, and the last action can no longer be taken back."""
    pause = pausing.apply_mark(live.pause, seat, mark)
    return replace(live, seq=live.seq + 1, undoable=None, pause=pause)
