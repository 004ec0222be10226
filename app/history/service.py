"""A table's history, rebuilt from the database the same way the server rebuilds a table.

The deal seeds and the action log are replayed by the server's own replay (``app.tables.replay``,
which deals with ``engine.deal_next`` and plays with ``engine.play``), so the history can never
disagree with the game that was played. Only **finished** hands are kept; the hand in progress is
replayed (the score sheet needs the game state) but its record is dropped before anything leaves
this module, so no page can reveal a card of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property

import engine
from app.db import SessionFactory
from app.tables import replay, repository, tokens
from app.tables.live import LiveTable
from app.tables.options import PracticeFrom
from app.tables.replay import Move, ReplayedHand
from app.tables.rows import ActionRow, HandRow, SeatRow


@dataclass(frozen=True)
class HandRecord:
    """One finished hand: how it was dealt and every move made in it, in log order."""

    number: int
    dealer: int
    dealt: engine.HandState
    moves: tuple[Move, ...]
    final: engine.HandState

    @cached_property
    def states(self) -> tuple[engine.HandState, ...]:
        """The hand after 0, 1, ... len(moves) moves (``engine.apply`` keeps each one)."""
        states = [self.dealt]
        for move in self.moves:
            states.append(engine.apply(states[-1], move.seat, move.action))
        return tuple(states)

    @property
    def steps(self) -> int:
        return len(self.moves)

    @cached_property
    def result(self) -> engine.HandResult:
        res = engine.result(self.final)
        assert res is not None  # only finished hands become records
        return res


@dataclass(frozen=True)
class TableHistory:
    """Everything the history pages show of one table."""

    live: LiveTable  # the table as the server has it now (seats, game, status)
    created_at: datetime | None
    hands: tuple[HandRecord, ...]  # finished hands, in order
    running: int | None  # the number of the hand in progress, if any

    @property
    def invite_code(self) -> str:
        return self.live.invite_code

    @property
    def players(self) -> int:
        return self.live.options.players

    @property
    def practice(self) -> PracticeFrom | None:
        """Where a practice table branched from (app/practice); None for a game."""
        return self.live.options.practice

    @property
    def game(self) -> engine.Game:
        return self.live.game

    @property
    def status(self) -> str:
        return self.live.status

    @property
    def names(self) -> list[str]:
        seats = self.live.seats
        return [seat.name if seat else f"#{index + 1}" for index, seat in enumerate(seats)]

    @property
    def bots(self) -> list[bool]:
        return [bool(seat and seat.bot) for seat in self.live.seats]

    @property
    def roles(self) -> engine.Roles:
        """The engine's names for the ``chief`` and ``vice`` roles at this table."""
        return engine.scoresheet(self.game).roles

    @property
    def leaders(self) -> list[int]:
        """The seats with the highest running total once a hand has been scored."""
        if not self.game.rows:
            return []
        best = max(self.game.totals)
        return [seat for seat, total in enumerate(self.game.totals) if total == best]

    def hand(self, number: int) -> HandRecord | None:
        if 1 <= number <= len(self.hands):
            return self.hands[number - 1]
        return None

    def seat_of_token(self, token: str | None) -> int | None:
        return self.live.seat_of(tokens.hash_token(token)) if token else None


async def load(*, session_factory: SessionFactory, invite_code: str) -> TableHistory | None:
    """The table's history, or None for an unknown invite code."""
    async with session_factory() as session:
        rows = await repository.load_table(session=session, invite_code=invite_code)
    if rows is None:
        return None
    return history_of(rows)


def history_of(rows: repository.TableRows) -> TableHistory:
    """Replay the table (``app.tables.replay``), keeping a record of every finished hand."""
    return resumable_history(rows).history


@dataclass(frozen=True)
class ResumableHistory:
    """A table's history and the table just before its hand in progress was dealt (or as it
    is, when no hand is in progress): the newer rows of the table continue it from there,
    exactly as a whole replay would (the same replay, from a state it passed through).

    ``base`` holds nothing of the hand in progress, so keeping it reveals no card."""

    history: TableHistory
    base: LiveTable


def resumable_history(rows: repository.TableRows) -> ResumableHistory:
    """The whole table replayed from its rows."""
    return _continue(
        replay.empty(rows.table),
        (),
        created_at=rows.table.created_at,
        version=rows.table.version,
        seats=rows.seats,
        hands=rows.hands,
        actions=rows.actions,
    )


def continue_history(
    kept: ResumableHistory,
    *,
    version: int,
    seats: Sequence[SeatRow],
    hands: Sequence[HandRow],
    actions: Sequence[ActionRow],
) -> ResumableHistory:
    """``kept`` continued by the rows after its base (the hands after ``kept.base.hand_number``
    and the actions after ``kept.base.seq``), labelled ``version``.

    Raises:
        replay.ReplayError: the rows do not continue ``kept.base``.
    """
    history = kept.history
    return _continue(
        kept.base,
        history.hands,
        created_at=history.created_at,
        version=version,
        seats=seats,
        hands=hands,
        actions=actions,
    )


def _continue(
    base: LiveTable,
    finished: tuple[HandRecord, ...],
    *,
    created_at: datetime | None,
    version: int,
    seats: Sequence[SeatRow],
    hands: Sequence[HandRow],
    actions: Sequence[ActionRow],
) -> ResumableHistory:
    records = list(finished)
    running: list[int] = []

    def keep(hand: ReplayedHand) -> None:
        if not hand.over:
            running.append(hand.number)  # its cards stay on the server
            return
        records.append(HandRecord(hand.number, hand.dealer, hand.dealt, hand.moves, hand.final))

    # Up to the last hand, then the last hand: the state between is the next base if the last
    # hand is still being played.
    last = hands[-1].number if hands else None
    before_last = replay.advance(
        base,
        version=version,
        seats=seats,
        hands=hands[:-1],
        actions=[row for row in actions if last is None or row.hand_number < last],
        on_hand=keep,
    )
    live = replay.advance(
        before_last,
        version=version,
        hands=hands[-1:],
        actions=[row for row in actions if last is not None and row.hand_number >= last],
        on_hand=keep,
    )
    history = TableHistory(live, created_at, tuple(records), running[-1] if running else None)
    return ResumableHistory(history, before_last if running else live)
