"""A table's room: its single writer, its connections and their presence.

Every change (a join, an action) runs under the room's lock through the same pipeline:
check the client's version -> compute the change with the engine -> commit it (version bump
guarded in the database, see ``app/tables/writer.py``) -> only then swap in the new state
and broadcast. A failed guard means another process wrote the table: the room reloads from
the database and the change is refused as stale, so two writers can never both apply an
action.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace

import engine
from app import logging as log
from app import metrics
from app.realtime.connection import Connection
from app.realtime.present import Snapshot
from app.realtime.protocol import ErrorCode
from app.tables import live as live_mod
from app.tables import repository, tokens
from app.tables.live import LiveTable, SeatInfo
from app.tables.rows import ActionRow, HandRow, SeatRow
from app.tables.store import Store
from app.tables.writer import Change, StaleWrite

SeedSource = Callable[[], int]
# Reads what other processes committed since the given state; None when nothing is newer.
CatchUp = Callable[[LiveTable], Awaitable[LiveTable | None]]


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a change was not made (sent to the client as an ``error`` message)."""

    code: str
    message: str


class SeatUnavailable(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Room:
    def __init__(
        self,
        live: LiveTable,
        *,
        store: Store,
        seeds: SeedSource,
    ) -> None:
        self.live = live
        self._store = store
        self._seeds = seeds
        self._lock = asyncio.Lock()
        self._connections: set[Connection] = set()
        self._presence = [0] * live.options.players
        # Seats connected to other server processes (told by the fan-out), and the hook that
        # tells them about this process's own sockets.
        self._remote: tuple[bool, ...] = (False,) * live.options.players
        self.presence_changed: Callable[[Room], None] | None = None
        # Seats whose away person a bot stands in for (the bot runner decides; views show it).
        self._stand_ins: frozenset[int] = frozenset()
        # Called after every broadcast (a commit, a reload, a presence change): wakes the
        # table's bot runner. It must not block: it only sets an event.
        self.on_change: Callable[[], None] | None = None

    # -- presence ---------------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        connected = tuple(
            count > 0 or remote for count, remote in zip(self._presence, self._remote, strict=True)
        )
        stand_ins = self._stand_ins
        if stand_ins:
            # A person who is back plays for themselves at once. The bot runner clears their
            # mark when it next looks, which may be after this broadcast; no view may show a
            # connected seat as played by a bot meanwhile (nor may the runner move for it).
            stand_ins = frozenset(seat for seat in stand_ins if not connected[seat])
        return Snapshot(self.live, connected, stand_ins)

    def local_presence(self) -> tuple[bool, ...]:
        """The seats connected to this process."""
        return tuple(count > 0 for count in self._presence)

    def set_remote_presence(self, connected: tuple[bool, ...]) -> None:
        """The seats connected to other processes (the fan-out keeps this current)."""
        if connected != self._remote:
            self._remote = connected
            self._broadcast()

    @property
    def idle(self) -> bool:
        return not self._connections

    @property
    def spectators(self) -> int:
        """Sockets without a seat connected to this process."""
        return sum(1 for connection in self._connections if connection.seat is None)

    def attach(self, connection: Connection) -> None:
        self._connections.add(connection)
        if connection.seat is not None:
            self._presence[connection.seat] += 1
            if self._presence[connection.seat] == 1:
                self._announce_presence()
                self._broadcast()
                return
        connection.push_view(self.snapshot())

    def detach(self, connection: Connection) -> None:
        self._connections.discard(connection)
        if connection.seat is not None:
            self._presence[connection.seat] -= 1
            if self._presence[connection.seat] == 0:
                self._announce_presence()
                self._broadcast()

    def _announce_presence(self) -> None:
        if self.presence_changed is not None:
            self.presence_changed(self)

    def _broadcast(self) -> None:
        snapshot = self.snapshot()
        for connection in self._connections:
            connection.push_view(snapshot)
        if self.on_change is not None:
            self.on_change()

    def set_stand_ins(self, seats: frozenset[int]) -> None:
        """Mark the seats a bot now plays for their away person; every view shows it."""
        if seats != self._stand_ins:
            self._stand_ins = seats
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
            engine=self._store.engine, table_id=self.live.table_id, token_hash=token_hash
        ):
            return seat
        async with self._lock:
            await self._reload()
        return self.live.seat_of(token_hash)

    async def is_host(self, token: str | None) -> bool:
        """Whether ``token`` is the table's host token (it may seat bots)."""
        if not token:
            return False
        stored = await repository.host_token_hash(
            engine=self._store.engine, invite_code=self.live.invite_code
        )
        return stored is not None and tokens.matches(token, stored)

    # -- the single writer ----------------------------------------------------------------

    async def act(self, seat: int, version: int, action: engine.Action) -> Refusal | None:
        """Apply ``action`` by ``seat`` if the client saw the current ``version``."""
        async with self._lock:
            current = self.live
            if version != current.version:
                return _stale(version, current.version)
            try:
                after = live_mod.play(current, seat, action)
            except engine.IllegalAction as exc:
                return Refusal(exc.code, exc.message)
            # The log holds the action's JSON form: its type and fields, nothing a client added.
            logged = ActionRow(after.seq, current.hand_number, seat, engine.action_to_json(action))
            after, hands = self._deal_if_due(after)
            if not await self._commit(after, Change(hands=hands, actions=[logged])):
                return _stale(version, self.live.version)
            return None

    async def join(
        self, *, name: str, wanted: int | None, bot_level: str | None = None
    ) -> tuple[int, str]:
        """Seat a person (or, with ``bot_level``, a bot); returns (seat, token). The last
        free seat starts the game. A bot's token is for whatever drives it in-process.
        A person may take a bot's seat (asked for, or when no seat is free): the bot leaves
        and the person plays from the next action on.

        Raises:
            SeatUnavailable: ``seat_taken``, ``table_full`` or ``no_such_seat``.
        """
        async with self._lock:
            # A stale cache only means another process seated someone: reload and retry once.
            for _attempt in range(2):
                index = _pick_seat(self.live, wanted, take_bots=bot_level is None)
                replaced = [index] if self.live.seats[index] is not None else []
                token = tokens.new_seat_token()
                info = SeatInfo(
                    name=name,
                    token_hash=tokens.hash_token(token),
                    bot=bot_level is not None,
                    bot_level=bot_level,
                )
                after, hands = self._deal_if_due(live_mod.seat(self.live, index, info))
                row = SeatRow(index, info.name, info.token_hash, info.bot, info.bot_level)
                change = Change(seats=[row], hands=hands, replaced=replaced)
                if await self._commit(after, change):
                    return index, token
            raise SeatUnavailable("seat_taken", "the table changed while joining; try again")

    def _deal_if_due(self, live: LiveTable) -> tuple[LiveTable, list[HandRow]]:
        # The next hand is dealt in the same transaction as the change that made it due, so
        # the database never holds a finished hand without its successor.
        if not live.needs_deal:
            return live, []
        seed = self._seeds()
        dealt = live_mod.deal(live, seed)
        assert dealt.hand is not None  # just dealt
        return dealt, [HandRow(dealt.hand_number, dealt.hand.dealer, seed)]

    async def _commit(self, after: LiveTable, change: Change) -> bool:
        started = time.perf_counter()
        try:
            version = await self._store.writer.commit(
                table_id=after.table_id, expected_version=self.live.version, change=change
            )
        except StaleWrite:
            await self._reload()
            return False
        finally:
            metrics.COMMIT.observe(metrics.since(started))
        self.live = replace(after, version=version)
        log.event("commit", table=after.table_id, version=version, seq=after.seq)
        self._broadcast()
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
            self._broadcast()
            return fresh

    async def going_away(self, code: int, reason: str) -> None:
        """Let the change in progress finish, then close every socket (graceful shutdown)."""
        async with self._lock:
            for connection in list(self._connections):
                await connection.close(code, reason)

    async def _reload(self) -> None:
        fresh = await self._store.load(self.live.invite_code)
        if fresh is not None:
            self.live = fresh
            self._broadcast()


def _stale(sent: int, current: int) -> Refusal:
    return Refusal(ErrorCode.STALE_VERSION, f"version {sent} is stale; the table is at {current}")


def _pick_seat(live: LiveTable, wanted: int | None, *, take_bots: bool) -> int:
    # A free seat first; a person may also take a bot's seat, a bot never takes another's.
    free = live.free_seats() + (live.bot_seats() if take_bots else [])
    if wanted is None:
        if not free:
            raise SeatUnavailable("table_full", "every seat is taken")
        return free[0]
    if not 0 <= wanted < live.options.players:
        raise SeatUnavailable("no_such_seat", f"seats are 0..{live.options.players - 1}")
    if wanted not in free:
        raise SeatUnavailable("seat_taken", f"seat {wanted} is taken")
    return wanted
