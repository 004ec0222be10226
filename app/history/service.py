"""A table's history, rebuilt from the database the same way the server rebuilds a table.

The deal seeds and the action log are replayed by the server's own replay (``app.tables.replay``,
which deals with ``engine.deal_next`` and plays with ``engine.play``), so the history can never
disagree with the game that was played. Only **finished** hands are kept; the hand in progress is
replayed (the score sheet needs the game state) but its record is dropped before anything leaves
this module, so no page can reveal a card of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import cached_property

import engine
from app.db import SessionFactory
from app.tables import replay, repository, tokens
from app.tables.live import LiveTable
from app.tables.replay import Move, ReplayedHand


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
    records: list[HandRecord] = []
    running: list[int] = []

    def keep(hand: ReplayedHand) -> None:
        if not hand.over:
            running.append(hand.number)  # its cards stay on the server
            return
        records.append(HandRecord(hand.number, hand.dealer, hand.dealt, hand.moves, hand.final))

    live = replay.rebuild(rows, on_hand=keep)
    return TableHistory(
        live, rows.table.created_at, tuple(records), running[-1] if running else None
    )
