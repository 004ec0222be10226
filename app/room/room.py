"""A table's room: its single writer, its connections and their presence.

:meth:`Room.apply` is the one way to change a live table (an action, a join, the undo marker,
each of the host's decisions, the deletion): under the room's lock, an optional check (the
host's token), then ``build(live) -> Edit`` (the table after, the rows, the caller's reply),
the next deal if the change made one due, the jobs it makes due, the commit (the version bump,
and the acting token's seat, guarded in the database: ``app/tables/writer.py``), then the
broadcast and the listeners. A failed guard means another process wrote the table first: the
room reloads what it wrote and builds once more against it; a second failure raises
``StaleWrite``. The lock and the commit are private: nothing outside the room takes them.

Two collaborators hold the rest of the table's live business: :class:`TableTalk` (chat,
reactions, the next game's code; ``talk.py``) and :class:`UndoByConsent` (``undo.py``). The
room publishes what happens to a list of :class:`RoomListener` s (``RoomListener``, below) that the
hub registers: the fan-out, the push notifier, the bot runner.
"""

from __future__ import annotations

import asyncio
import logging
import operator
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TypeVar

from app import logging as log
from app.http import metrics
from app.protocol import wire
from app.protocol.inbound import Refusal
from app.protocol.messages import ServerMessage
from app.protocol.present import Snapshot
from app.room import eviction
from app.room.connection import Connection
from app.room.edit import Build, Check, Edit
from app.room.seating import SeatUnavailable
from app.room.talk import TableTalk
from app.room.undo import UndoByConsent
from app.tables import live as tables_live
from app.tables import repository, tokens
from app.tables.due import with_jobs_due
from app.tables.live import LiveTable
from app.tables.replay import ReplayError
from app.tables.rows import ActionRow, HandRow
from app.tables.store import Store
from app.tables.writer import Change, StaleWrite

__all__ = ["Build", "CatchUp", "Check", "Edit", "Refusal", "Room", "SeatUnavailable", "SeedSource"]

SeedSource = Callable[[], int]
# Reads what other processes committed since the given state; None when nothing is newer.
CatchUp = Callable[[LiveTable], Awaitable[LiveTable | None]]
R = TypeVar("R")


# Who follows the rooms (the fan-out, the push notifier, the bot runner) registers one listener
# with the hub (``Hub.listen``), which adds it to every room it holds and makes: a room
# publishes to a list of typed listeners and never knows who they are. A listener overrides
# the events it wants; none may block (the room calls them from its single writer): they
# note, schedule or set an event.
class RoomListener:
    """The events of the rooms of this process; every one does nothing unless overridden."""

    def opened(self, room: Room) -> None:
        """The hub made ``room`` (also told, on registering, of the rooms held already)."""

    def attached(self, room: Room) -> None:
        """A socket opened on ``room``: someone plays or watches there now."""

    def changed(self, room: Room) -> None:
        """``room`` sent its sockets a new view (a commit, a reload, presence, stand-ins), or
        an undo request began or ended."""

    def committed(self, room: Room, before: LiveTable, after: Snapshot, change: Change) -> None:
        """``room`` committed ``change`` in this process: the state before, the snapshot after
        (the one announcement of a commit: the fan-out tells the other processes from here)."""

    def presence_changed(self, room: Room) -> None:
        """A seat of ``room`` got its first socket on this process, or lost its last one."""

    def said(self, room: Room, said: wire.Said) -> None:
        """Something said at ``room``'s table here, for the other processes' rooms."""


class Room:
    def __init__(self, live: LiveTable, *, store: Store, seeds: SeedSource) -> None:
        self.live = live
        self.store = store
        self._seeds = seeds
        self._lock = asyncio.Lock()  # held by every change: the single writer
        self._listeners: list[RoomListener] = []
        self._connections: set[Connection] = set()
        self._presence = [0] * live.options.players
        # Seats connected to other server processes (told by the fan-out).
        self._remote: tuple[bool, ...] = (False,) * live.options.players
        # Seats whose away person a bot stands in for (the bot runner decides; views show it).
        self._stand_ins: frozenset[int] = frozenset()
        # Away people not yet stood in for: when (Unix time) a bot will play for them.
        self._takeovers: dict[int, float] = {}
        self._shown: Snapshot | None = None  # the snapshot of the state above, once made
        self.talk = TableTalk(db=store.db, table_id=live.table_id, push=self.push, relay=self.relay)
        self.undo = UndoByConsent(self)

    def listen(self, listener: RoomListener) -> None:
        """Tell ``listener`` of this room's events from now on (the hub registers them)."""
        self._listeners.append(listener)

    # -- presence ---------------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        """The table now with who is connected: one per state (the bots look several times
        per change, and the frames rendered for one state are reused)."""
        shown = self._shown
        if shown is None or shown.live is not self.live:
            connected = tuple(map(operator.or_, map(bool, self._presence), self._remote))
            shown = Snapshot.of(
                self.live, connected, self._stand_ins, self._takeovers, previous=shown
            )
            self._shown = shown
        return shown

    def local_presence(self) -> tuple[bool, ...]:
        """The seats connected to this process."""
        return tuple(count > 0 for count in self._presence)

    def set_remote_presence(self, connected: tuple[bool, ...]) -> None:
        """The seats connected to other processes (the fan-out keeps this current)."""
        if connected != self._remote:
            self._remote, self._shown = connected, None
            self._broadcast()

    @property
    def idle(self) -> bool:
        return not self._connections

    @property
    def spectators(self) -> int:
        """Sockets without a seat connected to this process."""
        return sum(1 for connection in self._connections if connection.seat is None)

    def attach(self, connection: Connection) -> None:
        for listener in self._listeners:
            listener.attached(self)
        self._connections.add(connection)
        if connection.seat is not None:
            self._presence[connection.seat] += 1
            if self._presence[connection.seat] == 1:
                self._presence_changed()
                return
        connection.push_view(self.snapshot())

    def detach(self, connection: Connection) -> None:
        if connection not in self._connections:
            return  # already sent away (``_send_away``)
        self._connections.discard(connection)
        if connection.seat is not None:
            self._presence[connection.seat] -= 1
            if self._presence[connection.seat] == 0:
                self._presence_changed()

    def _presence_changed(self) -> None:
        self._shown = None
        for listener in self._listeners:
            listener.presence_changed(self)
        self._broadcast()

    def _broadcast(self) -> None:
        for connection, code, reason in eviction.sent_away(self.live, self._connections):
            self.detach(connection)  # before the view: they see nothing of what follows
            connection.end(code, reason)
        snapshot = self.snapshot()
        for connection in self._connections:
            connection.push_view(snapshot)
        self.changed()

    def set_standing(self, stand_ins: frozenset[int], takeovers: dict[int, float]) -> None:
        """The seats a bot now plays for their away person, and when (Unix time) a bot takes
        over each other away person: the driver's decision, which every view shows. A seat
        keeps the deadline it was first given (no new view for the same countdown)."""
        takeovers = {seat: self._takeovers.get(seat, at) for seat, at in takeovers.items()}
        if stand_ins == self._stand_ins and takeovers == self._takeovers:
            return  # the driver looks after every change; most change nothing here
        shown = self.snapshot()
        self._stand_ins, self._takeovers, self._shown = stand_ins, takeovers, None
        now = self.snapshot()
        if (now.stand_ins, now.takeovers) != (shown.stand_ins, shown.takeovers):
            self._broadcast()

    async def seat_of(self, token: str) -> int | None:
        """The seat this token holds here, or None.

        A token this process has not seen may belong to a seat taken through another
        process: then (and only then, so bad tokens cost one indexed lookup, not a replay)
        the table is reloaded.
        """
        token_hash = tokens.hash_token(token)
        seat = self.live.seat_of(token_hash)
        if seat is not None or not await repository.has_seat_token(
            db=self.store.db, table_id=self.live.table_id, token_hash=token_hash
        ):
            return seat
        async with self._lock:
            await self._reload()
        return self.live.seat_of(token_hash)

    def push(self, message: ServerMessage) -> None:
        """Send ``message`` to every socket at the table in this process."""
        for connection in self._connections:
            connection.push(message)

    def relay(self, said: wire.Said) -> None:
        """Tell the other processes' rooms of this table (through the listeners: the fan-out)."""
        for listener in self._listeners:
            listener.said(self, said)

    def changed(self) -> None:
        """Tell the listeners that the table changed (wakes the table's bots)."""
        for listener in self._listeners:
            listener.changed(self)

    # -- the single writer ----------------------------------------------------------------

    async def apply(self, build: Build[R], *, check: Check | None = None) -> R:
        """Change the table: ``check`` (if any, may raise), ``build``, commit, broadcast;
        the build's reply. Built once more after another process wrote first.

        Raises:
            StaleWrite: another process wrote first twice running (the caller says "try
                again"); whatever ``check`` or ``build`` raise (nothing is written).
        """
        async with self._lock:
            for _attempt in range(2):
                if check is not None:
                    await check(self.live)
                edit = build(self.live)
                if edit.after is None:
                    return edit.reply
                after, hands, opened = _deal_if_due(edit.after, self._seeds)
                change = edit.change
                if hands:  # the next hand, dealt in the same commit
                    change = replace(change, hands=[*change.hands, *hands])
                if opened:  # a practice table's moves before its moment (app/practice)
                    change = replace(change, actions=[*change.actions, *opened])
                if await self._commit(after, change):
                    if edit.then is not None:
                        edit.then()
                    return edit.reply
        raise StaleWrite(f"table {self.live.table_id} changed twice while a change was made")

    async def _commit(self, after: LiveTable, change: Change) -> bool:
        """Commit ``after`` (under the lock): False when another process wrote the table first
        (the room then reloaded it)."""
        started = time.perf_counter()
        # The review of a hand this change ended, a correspondence turn's reminder: same commit.
        change = with_jobs_due(self.live, after, change)
        try:
            version = await self.store.writer.commit(
                table_id=after.table_id, expected_version=self.live.version, change=change
            )
        except StaleWrite:
            await self._reload()
            return False
        finally:
            metrics.COMMIT.observe(metrics.since(started))
        before, self.live = self.live, replace(after, version=version)
        level = logging.INFO if change.seats or change.hands else logging.DEBUG  # per action
        log.event("commit", level=level, table=after.table_id, version=version, seq=after.seq)
        self.undo.cancel()  # the table moved on: a pending undo request no longer applies
        self._broadcast()
        snapshot = self.snapshot()
        for listener in self._listeners:
            listener.committed(self, before, snapshot, change)
        return True

    # -- changes made by other processes ---------------------------------------------------

    async def catch_up(self, read: CatchUp, wanted: int | None = None) -> LiveTable | None:
        """Take in what other processes committed (read under the lock, so it never races a
        local change) and send every socket its view; returns the new state, or None.

        With ``wanted``, nothing is read if the room already reached that version: a
        process often hears its own commit's notification while that commit is finishing.
        """
        async with self._lock:
            if wanted is not None and self.live.version >= wanted:
                return None
            fresh = await read(self.live)
            if fresh is None or fresh.version <= self.live.version:
                return None
            self.live = fresh
            self.undo.cancel()
            self.undo.forget_remote()
            self._broadcast()
            return fresh

    async def going_away(self, code: int, reason: str) -> None:
        """Let the change in progress finish, then close every socket (graceful shutdown)."""
        async with self._lock:
            for connection in list(self._connections):
                await connection.close(code, reason)

    async def _reload(self) -> None:
        """Catch up with what another process committed (a stale write, an unknown token):
        only the newer rows are read and replayed; the whole table only if they do not fit."""
        try:
            fresh = await self.store.newer(self.live)
        except ReplayError as exc:
            log.event("reload_full", table=self.live.table_id, reason=str(exc))
            fresh = await self.store.load(self.live.invite_code)
        if fresh is not None:
            self.live = fresh
            self._broadcast()


def _deal_if_due(
    live: LiveTable, seeds: SeedSource
) -> tuple[LiveTable, list[HandRow], list[ActionRow]]:
    # The next hand is dealt in the same transaction as the change that made it due, so the
    # database never holds a finished hand without its successor. A table dealt from another's
    # deals (live.Branch: practice, a group's game on an earlier game's deals) uses their seeds,
    # and a practice table plays the moves before its moment in the same commit.
    if not live.needs_deal:
        return live, [], []
    kept = live.branch.seed(live.hand_number + 1) if live.branch is not None else None
    seed = kept if kept is not None else seeds()
    dealt = tables_live.deal(live, seed)
    assert dealt.hand is not None  # just dealt
    hands = [HandRow(dealt.hand_number, dealt.hand.dealer, seed)]
    opened, moves = tables_live.open_branch(dealt)
    number = dealt.hand_number
    actions = [
        ActionRow(dealt.seq + index, number, seat, action)
        for index, (seat, action) in enumerate(moves, start=1)
    ]
    return opened, hands, actions
