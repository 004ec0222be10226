"""The process's rooms: each table is loaded (replayed) once and then served from memory.

Rooms nobody is connected to stay cached up to ``max_idle`` of them; beyond that the least
recently used idle rooms are dropped and replayed again from the database when next needed.
With several processes on one database the fan-out (``fanout.py``) finds rooms by table id
and keeps them current; on shutdown the hub closes every socket with "going away".

Whoever follows the rooms (the fan-out, the push notifier, the bot runner) registers a
:class:`RoomListener` here once; the hub adds it to every room it holds and makes.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator

from app.room.room import Room, RoomListener, SeedSource
from app.tables import again, chat
from app.tables.live import LiveTable
from app.tables.store import Store

# Reads what other processes committed to a room's table into it (``Hub.refresh_with``).
Refresh = Callable[[Room], Awaitable[object]]


class UnknownTable(Exception):
    """No table has this invite code."""


def secret_seed() -> int:
    # 63 bits: fits a signed BIGINT column on every backend.
    return secrets.randbits(63)


class _Loading:
    """The lock of one table's first load, and the visitors holding or awaiting it."""

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


class Hub:
    def __init__(
        self, store: Store, *, seeds: SeedSource = secret_seed, max_idle: int = 1000
    ) -> None:
        self._store = store
        self._seeds = seeds
        self._max_idle = max_idle
        self._rooms: OrderedDict[str, Room] = OrderedDict()
        self._codes: dict[int, str] = {}  # table id -> invite code, for the fan-out
        # One lock per table being loaded (and how many visitors hold or wait for it): two
        # first visitors of one table build one room, different tables load side by side.
        self._loading: dict[str, _Loading] = {}
        # Set on shutdown: new sockets are turned away, so clients reconnect elsewhere.
        self.draining = False
        # Added to every room: the fan-out, the push notifier, the bot runner.
        self._listeners: list[RoomListener] = []
        self._refresh: Refresh | None = None

    @property
    def store(self) -> Store:
        return self._store

    def refresh_with(self, refresh: Refresh) -> None:
        """Let ``refresh`` bring a room up to date with what other processes committed (the
        fan-out sets it when several processes share the database)."""
        self._refresh = refresh

    async def refresh(self, room: Room) -> None:
        """Bring ``room`` up to date with the database (a client asked for a resync); nothing
        to do when this process is the table's only writer."""
        if self._refresh is not None:
            await self._refresh(room)

    def listen(self, listener: RoomListener) -> None:
        """Tell ``listener`` of the events of every room, those held now and those to come."""
        self._listeners.append(listener)
        for room in self.rooms():
            room.listen(listener)
            listener.opened(room)

    async def room(self, invite_code: str) -> Room | None:
        """The table's room, replaying it from the database on first use; None if unknown."""
        room = self._rooms.get(invite_code)
        if room is None:
            loading = self._loading.setdefault(invite_code, _Loading())
            loading.users += 1
            try:
                async with loading.lock:
                    room = self._rooms.get(invite_code) or await self._open(invite_code)
            finally:
                loading.users -= 1
                if not loading.users:
                    del self._loading[invite_code]
        if room is not None:
            self._rooms.move_to_end(invite_code)
        return room

    async def get_room(self, invite_code: str) -> Room:
        """Like :meth:`room`, for callers that answer an unknown table with an error.

        Raises:
            UnknownTable: no table has this invite code.
        """
        room = await self.room(invite_code)
        if room is None:
            raise UnknownTable(invite_code)
        return room

    def add(self, live: LiveTable) -> Room:
        """Register a table created by this process (nothing to replay yet)."""
        room = self._new_room(live)
        self._rooms[live.invite_code] = room
        self._codes[live.table_id] = live.invite_code
        self._evict_idle()
        return room

    def cached(self, table_id: int) -> Room | None:
        """The room of a table this process holds in memory (no database read), or None."""
        code = self._codes.get(table_id)
        return self._rooms.get(code) if code is not None else None

    @property
    def size(self) -> int:
        """Tables held in memory."""
        return len(self._rooms)

    @property
    def active(self) -> int:
        """Tables with at least one socket here."""
        return sum(1 for room in self._rooms.values() if not room.idle)

    def rooms(self) -> Iterator[Room]:
        return iter(list(self._rooms.values()))

    def peek(self, invite_code: str) -> Room | None:
        """The table's room if this process holds it (no database read)."""
        return self._rooms.get(invite_code)

    def discard(self, invite_code: str) -> None:
        """Drop the table's room whatever its sockets (its table was deleted)."""
        if invite_code in self._rooms:
            self._drop(invite_code)

    def forget(self, room: Room) -> None:
        """Drop an idle room whose table changed elsewhere; the next visitor replays it."""
        if room.idle and self._rooms.get(room.live.invite_code) is room:
            self._drop(room.live.invite_code)

    async def going_away(self, code: int, reason: str) -> None:
        """Refuse new sockets, let in-flight changes finish, then close every socket."""
        self.draining = True
        await asyncio.gather(*(room.going_away(code, reason) for room in self.rooms()))

    async def _open(self, invite_code: str) -> Room | None:
        live = await self._store.load(invite_code)
        if live is None:
            return None
        db = self._store.db
        recent_chat = await chat.lines(db=db, table_id=live.table_id)
        next_code = None
        if live.status == "over":
            next_code = await again.next_code(db=db, table_id=live.table_id)
        room = self.add(live)
        room.talk.remember(recent_chat, next_code)
        return room

    def _new_room(self, live: LiveTable) -> Room:
        room = Room(live, store=self._store, seeds=self._seeds)
        for listener in self._listeners:
            room.listen(listener)
        for listener in self._listeners:
            listener.opened(room)
        return room

    def _evict_idle(self) -> None:
        idle = [code for code, room in self._rooms.items() if room.idle]
        for code in idle[: max(0, len(idle) - self._max_idle)]:
            self._drop(code)

    def _drop(self, invite_code: str) -> None:
        room = self._rooms.pop(invite_code)
        if self._codes.get(room.live.table_id) == invite_code:
            del self._codes[room.live.table_id]
