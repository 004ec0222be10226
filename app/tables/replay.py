"""Replaying a table from its rows: the one place where stored rows become a live table.

A table is stored as its seats, its hands (number, dealer, secret deal seed) and the
append-only log of accepted actions (their JSON form). Replaying deals each hand from its seed
and plays its actions through the engine (``live.deal``, ``live.play``; the stored JSON becomes a
typed action through ``engine.action_from_json``, here and nowhere else), so a rebuilt table can
never disagree with the game that was played. One replay serves every reader:

- the hub rebuilds a table it does not hold yet: :func:`load` (rows: :func:`rebuild`);
- the fan-out takes in what another process committed to a table it holds: :func:`advance` on
  the new rows it read itself (its fast path), or :func:`load_newer`, which reads them too;
- the history pages want a record of each hand: the ``on_hand`` observer of :func:`rebuild`;
- a review wants one finished hand: :func:`replay_hand` replays it alone from its own rows
  (:func:`load_hand` reads them), the same hand the whole replay's observer gets.

An undo marker row (``{"type": "undo"}``, undo by consent) takes back the action before it:
the replay restores the table as it was before that action (``live.undo``), and a hand's
record leaves the taken-back move out. Both rows stay in the log. A host marker row
(``{"type": "host", ...}``, app/host) records what the host did, a pause marker
(``{"type": "pause", ...}``, ``pausing.py``) a pause, a holiday or a vote; neither moves a card.

Rows that do not replay (a hand or action out of order, actions of a hand that is not there, a
vacated seat, an action today's rules refuse) raise :class:`ReplayError`: a stored log that does
not replay is an error, never silently skipped.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from sqlalchemy.ext.asyncio import AsyncEngine

import engine
from app.db import SessionFactory
from app.tables import repository
from app.tables.live import (
    Branch,
    LiveTable,
    SeatInfo,
    deal,
    host_mark,
    is_host_mark,
    is_undo,
    new_table,
    pause_mark,
    play,
    seat,
    undo,
)
from app.tables.models import Table
from app.tables.options import TableOptions
from app.tables.pausing import is_pause_mark
from app.tables.rows import ActionRow, HandRow, SeatRow


class ReplayError(Exception):
    """The stored rows do not replay (a corrupted database, an incompatible engine, or rows
    that do not continue the live table they were applied to)."""


@dataclass(frozen=True, slots=True)
class Move:
    """One logged action as the rules read it: who, and what."""

    seat: int
    action: engine.Action


@dataclass(frozen=True, slots=True)
class ReplayedHand:
    """One hand as replayed: how it was dealt, its moves in log order, the state after them."""

    number: int
    dealer: int
    dealt: engine.HandState
    moves: tuple[Move, ...]
    final: engine.HandState

    @property
    def over(self) -> bool:
        return self.final.is_over


# Told every hand that is dealt during a replay, once its logged actions are played.
OnHand = Callable[[ReplayedHand], None]


async def load(*, session_factory: SessionFactory, invite_code: str) -> LiveTable | None:
    """The table rebuilt from the database, or None for an unknown invite code."""
    async with session_factory() as session:
        rows = await repository.load_table(session=session, invite_code=invite_code)
    return None if rows is None else rebuild(rows)


def rebuild(rows: repository.TableRows, *, on_hand: OnHand | None = None) -> LiveTable:
    """Replay a whole table: its seats, then each hand's deal and its actions in order."""
    return advance(
        empty(rows.table),
        version=rows.table.version,
        seats=rows.seats,
        hands=rows.hands,
        actions=rows.actions,
        on_hand=on_hand,
    )


def empty(table: Table) -> LiveTable:
    """The table as created: its options, no seat taken, nothing dealt (replays start here)."""
    return new_table(
        table_id=table.id,
        invite_code=table.invite_code,
        options=TableOptions.from_json(table.options),
        branch=Branch.from_json(table.branch) if table.branch else None,
    )


def advance(
    live: LiveTable,
    *,
    version: int,
    seats: Sequence[SeatRow] | None = None,
    hands: Sequence[HandRow] = (),
    actions: Sequence[ActionRow] = (),
    on_hand: OnHand | None = None,
) -> LiveTable:
    """``live`` plus rows committed after it, labelled ``version``.

    ``seats`` are all of the table's seat rows (None: unchanged), ``hands`` the hands dealt
    after ``live.hand_number`` and ``actions`` the actions after ``live.seq``, both in order.
    The current hand's new actions are played first, then each new hand is dealt and played.

    Raises:
        ReplayError: the rows do not continue ``live``.
    """
    if seats is not None:
        live = _with_seats(live, seats)
    pending: dict[int, list[ActionRow]] = {}
    for row in actions:
        pending.setdefault(row.hand_number, []).append(row)
    live = _play_all(live, pending.pop(live.hand_number, []))
    for hand in hands:
        live = _replay_hand(live, hand, pending.pop(hand.number, []), on_hand)
    if pending:
        raise ReplayError(f"table {live.table_id}: actions of hands {sorted(pending)} left over")
    return replace(live, version=version)


async def load_newer(*, db_engine: AsyncEngine, live: LiveTable) -> LiveTable | None:
    """``live`` plus everything committed after it (seats, hands, actions), or None when the
    database holds nothing newer.

    Raises:
        ReplayError: the rows do not continue ``live`` (e.g. the table was rebuilt under it).
    """
    rows = await repository.load_newer(
        db=db_engine,
        table_id=live.table_id,
        version=live.version,
        hand_number=live.hand_number,
        seq=live.seq,
    )
    if rows is None:
        return None
    return advance(
        live, version=rows.version, seats=rows.seats, hands=rows.hands, actions=rows.actions
    )


async def load_hand(*, db_engine: AsyncEngine, table_id: int, number: int) -> ReplayedHand | None:
    """Hand ``number`` of the table replayed alone (:func:`replay_hand`), or None when the
    table or the hand is not there."""
    rows = await repository.load_hand(db=db_engine, table_id=table_id, number=number)
    if rows is None:
        return None
    options, hand, actions = rows
    return replay_hand(TableOptions.from_json(options), hand, actions)


def replay_hand(options: TableOptions, row: HandRow, actions: Sequence[ActionRow]) -> ReplayedHand:
    """One hand from its own rows: dealt from its seed by its dealer under the table's
    ``options``, then its logged ``actions`` (all of its hand, in order) played, an undo
    marker taking back the move before it, a host marker moving no card. What a whole replay
    tells its ``on_hand`` observer of that hand, without the table's other hands.

    Raises:
        ReplayError: the rows do not replay.
    """
    rules = options.game_options()
    dealt = engine.deal(
        rules.players, row.dealer, random.Random(row.seed), rules.variant, rules.removed_colours
    )
    states: list[engine.HandState] = [dealt]
    moves: list[Move] = []
    for action_row in actions:
        if action_row.hand_number != row.number:
            raise ReplayError(f"hand {row.number}: action {action_row.seq} of another hand")
        if is_undo(action_row.action):
            if not moves:
                raise ReplayError(f"hand {row.number}: nothing to take back")
            states.pop()
            moves.pop()
            continue
        if is_host_mark(action_row.action) or is_pause_mark(action_row.action):
            continue
        try:
            action = engine.action_from_json(action_row.action)
            states.append(engine.apply(states[-1], action_row.seat, action))
        except engine.IllegalAction as exc:
            raise ReplayError(f"hand {row.number}: action {action_row.seq}: {exc.code}") from exc
        moves.append(Move(action_row.seat, action))
    return ReplayedHand(row.number, row.dealer, dealt, tuple(moves), states[-1])


def _with_seats(live: LiveTable, rows: Sequence[SeatRow]) -> LiveTable:
    taken = {row.seat for row in rows}
    if any(info is not None and index not in taken for index, info in enumerate(live.seats)):
        raise ReplayError(f"table {live.table_id}: a seat was vacated")
    for row in rows:
        info = SeatInfo(row.name, row.token_hash, row.is_bot, row.bot_level)
        if live.seats[row.seat] != info:
            live = seat(live, row.seat, info)
    return live


def _replay_hand(
    live: LiveTable, row: HandRow, actions: list[ActionRow], on_hand: OnHand | None
) -> LiveTable:
    game = live.game
    if not game.needs_deal or row.number != game.hand_number + 1 or row.dealer != game.next_dealer:
        raise ReplayError(f"table {live.table_id}: hand {row.number} out of order")
    live = deal(live, row.seed)
    dealt = live.hand
    moves: list[Move] = []
    live = _play_all(live, actions, moves)
    if on_hand is not None:
        assert dealt is not None and live.hand is not None  # just dealt
        on_hand(ReplayedHand(row.number, row.dealer, dealt, tuple(moves), live.hand))
    return live


def _play_all(
    live: LiveTable, actions: Iterable[ActionRow], moves: list[Move] | None = None
) -> LiveTable:
    for row in actions:
        if row.seq != live.seq + 1:
            raise ReplayError(f"table {live.table_id}: action {row.seq} out of order")
        try:
            if is_undo(row.action):
                # A taken-back action stays in the log; this marker drops it from the game.
                live = undo(live)
                if moves:
                    moves.pop()
                continue
            if is_host_mark(row.action):
                live = host_mark(live, row.action)  # the host's doing: no card moves
                continue
            if is_pause_mark(row.action):
                live = pause_mark(live, row.seat, row.action)  # a pause, a vote: no card moves
                continue
            action = engine.action_from_json(row.action)
            live = play(live, row.seat, action)
        except engine.IllegalAction as exc:
            # Accepted once, refused now: the engine's rules changed under a stored game.
            raise ReplayError(f"table {live.table_id}: action {row.seq}: {exc.code}") from exc
        if moves is not None:
            moves.append(Move(row.seat, action))
    return live
