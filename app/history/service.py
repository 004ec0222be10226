"""A table's history, rebuilt from the database the same way the server rebuilds a table.

The deal seeds and the action log are replayed through the server's own replay primitives
(``app.tables.live``: ``deal`` and ``play``, i.e. ``engine.start_hand`` and ``engine.apply``),
so the history can never disagree with the game that was played. Only **finished** hands are
kept; the hand in progress is replayed (the score sheet needs the game state) but its record is
dropped before anything leaves this module, so no page can reveal a card of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any

import engine
from app.db import SessionFactory
from app.tables import live as live_mod
from app.tables import repository, tokens
from app.tables.live import LiveTable
from app.tables.models import Action, Hand


@dataclass(frozen=True, slots=True)
class LoggedAction:
    seat: int
    action: dict[str, Any]


@dataclass(frozen=True)
class HandRecord:
    """One finished hand: how it was dealt and every action taken in it, in log order."""

    number: int
    dealer: int
    dealt: engine.HandState
    actions: tuple[LoggedAction, ...]
    final: engine.HandState

    @cached_property
    def states(self) -> tuple[engine.HandState, ...]:
        """The hand after 0, 1, ... len(actions) actions (``engine.apply`` keeps each one)."""
        states = [self.dealt]
        for logged in self.actions:
            states.append(engine.apply(states[-1], logged.seat, logged.action))
        return tuple(states)

    @property
    def steps(self) -> int:
        return len(self.actions)

    @cached_property
    def result(self) -> dict[str, Any]:
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
    def game(self) -> engine.GameState:
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
    def roles(self) -> dict[str, str]:
        """The engine's names for the ``chief`` and ``vice`` roles at this table."""
        named: dict[str, str] = engine.scoresheet(self.game).get("roles") or {}
        return named

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
    return replay(rows)


def replay(rows: repository.TableRows) -> TableHistory:
    """Replay seats, then each hand's seed and actions, keeping a record of every finished hand."""
    live = live_mod.new_table(
        table_id=rows.table.id,
        invite_code=rows.table.invite_code,
        options=live_mod.TableOptions.from_json(rows.table.options),
    )
    for seat_row in rows.seats:
        info = live_mod.SeatInfo(
            seat_row.name, seat_row.token_hash, seat_row.is_bot, seat_row.bot_level
        )
        live = live_mod.seat(live, seat_row.seat, info)
    by_hand: dict[int, list[Action]] = {}
    for action in rows.actions:
        by_hand.setdefault(action.hand_number, []).append(action)
    records: list[HandRecord] = []
    running: int | None = None
    for hand_row in rows.hands:
        live, record = _replay_hand(live, hand_row, by_hand.get(hand_row.number, []))
        if record is None:
            running = hand_row.number
        else:
            records.append(record)
    return TableHistory(live, rows.table.created_at, tuple(records), running)


def _replay_hand(
    live: LiveTable, hand_row: Hand, actions: Sequence[Action]
) -> tuple[LiveTable, HandRecord | None]:
    live = live_mod.deal(live, hand_row.seed)
    assert live.hand is not None
    dealt = live.hand
    for action in actions:
        live = live_mod.play(live, action.seat, action.action)
    final = live.hand
    assert final is not None
    if final.phase != "over":
        return live, None
    logged = tuple(LoggedAction(a.seat, dict(a.action)) for a in actions)
    return live, HandRecord(hand_row.number, hand_row.dealer, dealt, logged, final)
