"""Several processes, one PostgreSQL database: "table changed" signals via LISTEN/NOTIFY.

Each process writes its own tables' changes (the room is the single writer, the version
compare-and-set in the database decides between processes). The fan-out hears each commit as
a room listener and announces ``NOTIFY mu_table, '<table id>:<version>'``, or the action
itself (``carried.py``); every process LISTENs on one dedicated connection and, for tables it
holds, replays the carried action or reads what it has not seen from the log (the one replay),
then sends each of its sockets its own view.

Notifications are sent on a second dedicated connection, batched: one round trip (and one
short transaction, see ``app/tables/writer.py`` on why not inside the commit) announces every
change committed meanwhile. Losing one only delays a process: a version jump is healed by
reading from the log, and every ``resync_seconds`` one ``SELECT`` compares the versions of all
cached rooms with the database (a writer killed between commit and NOTIFY, a listener that was
reconnecting). Presence (``presence.py``), talk, undo requests and each process's heartbeat
(``pulse.py``: a process that does not hear its own is not ready and reconnects its listener)
go over the same channel, every note a typed value of ``wire.py``.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import psycopg
from sqlalchemy import Integer, any_, bindparam, select
from sqlalchemy.dialects import postgresql
from sqlalchemy.ext.asyncio import AsyncEngine

from app import logging as log
from app.cluster import carried
from app.cluster.catchup import LogReader
from app.cluster.dedicated import Outbox, keep_connected
from app.cluster.presence import RemotePresence
from app.cluster.pulse import Pulse
from app.config import libpq_url
from app.http import metrics
from app.protocol import wire
from app.protocol.present import Snapshot
from app.room.hub import Hub
from app.room.room import Room, RoomListener
from app.tables.live import LiveTable
from app.tables.models import Table
from app.tables.replay import ReplayError
from app.tables.writer import Change

CHANNEL = "mu_table"
# The versions of the cached tables: one array parameter, one cached statement however many.
_VERSIONS = select(Table.id, Table.version).where(
    Table.id == any_(bindparam("ids", type_=postgresql.ARRAY(Integer)))
)


class Fanout(RoomListener):
    """One per process: announces local commits and keeps cached rooms current."""

    def __init__(
        self,
        *,
        database_url: str,
        db_engine: AsyncEngine,
        resync_seconds: float = 2.0,
        listen_url: str | None = None,
        options: dict[str, Any] | None = None,
    ) -> None:
        # Notify and read through ``database_url`` (a pooler may stand in between); LISTEN needs
        # a direct connection (``listen_url``, LISTEN_DATABASE_URL).
        self._conninfo = libpq_url(database_url)
        self._listen_conninfo = libpq_url(listen_url or database_url)
        self._options = options or {}
        self._db = db_engine
        self._resync_seconds = resync_seconds
        self._hub: Hub | None = None
        self._outbox = Outbox(CHANNEL)
        self._wanted: dict[int, int] = {}  # table id -> newest version announced
        self._refreshing: dict[int, asyncio.Task[None]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._background: set[asyncio.Task[None]] = set()
        self._process = secrets.token_hex(6)
        self._reader = LogReader(conninfo=self._conninfo, db=db_engine, options=self._options)
        self._carried = carried.CarriedActions()  # heard in notes, for the rooms catching up
        self._remote = RemotePresence(process=self._process)  # other processes' sockets
        # (table id, version) -> when this process committed it: the NOTIFY lag metric.
        self._sent_at: dict[tuple[int, int], float] = {}
        self._pulse = Pulse(every=resync_seconds)
        self.listening = False
        self.notifying = False  # the notify connection is up

    # -- lifecycle (the app's lifespan) -------------------------------------------------------

    def start(self, hub: Hub) -> None:
        self._hub = hub
        hub.listen(self)
        hub.refresh_with(self.refresh)
        self._tasks = [
            asyncio.create_task(self._listen_forever(), name="fanout-listen"),
            asyncio.create_task(self._notify_forever(), name="fanout-notify"),
            asyncio.create_task(self._resync_forever(), name="fanout-resync"),
        ]

    async def stop(self) -> None:
        await self._outbox.flush(self._conninfo, self._options)
        tasks = self._tasks + list(self._refreshing.values()) + list(self._background)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks = []
        await self._reader.close()

    # -- outgoing: the room events (the fan-out is a listener of every room) -----------------

    def committed(self, room: Room, before: LiveTable, after: Snapshot, change: Change) -> None:
        """A commit of this process: announce it to the others (never blocks)."""
        if len(self._sent_at) > 10_000:  # not heard back (listener down): forget them
            self._sent_at.clear()
        table_id, version = after.live.table_id, after.live.version
        self._sent_at[table_id, version] = time.perf_counter()
        self._outbox.put(carried.note(table_id, version, change))

    def opened(self, room: Room) -> None:
        self._apply_presence(room)

    def presence_changed(self, room: Room) -> None:
        note = wire.Presence.of(room.live.table_id, self._process, room.local_presence())
        self._outbox.put(wire.encode(note))

    def said(self, room: Room, said: wire.Said) -> None:
        text = wire.encode(wire.Relay(room.live.table_id, self._process, said))
        if not wire.fits(text):  # PostgreSQL would refuse the whole batch with it
            log.event("relay_too_large", table=room.live.table_id, size=len(text))
            return
        self._outbox.put(text)

    async def _notify_forever(self) -> None:
        await keep_connected(self._conninfo, "notify_down", self._send_batches, self._options)

    async def _send_batches(self, conn: psycopg.AsyncConnection[Any]) -> None:
        # On a failure the batch in hand is lost; the others' periodic resync heals it, and
        # the presence in it is announced again on the new connection.
        self.notifying = True
        self._hello()
        try:
            await self._outbox.send_forever(conn)
        finally:
            self.notifying = False

    @property
    def unready(self) -> str | None:
        """What keeps this process from serving current tables (None: nothing)."""
        if not self.listening:
            return "listener"
        if not self.notifying:
            return "notifier"
        return None if self._pulse.alive else "heartbeat"

    # -- incoming --------------------------------------------------------------------------

    async def _listen_forever(self) -> None:
        await keep_connected(self._listen_conninfo, "listen_down", self._listen)

    async def _listen(self, conn: psycopg.AsyncConnection[Any]) -> None:
        await conn.execute(f"LISTEN {CHANNEL}")
        self._pulse.restart()
        # Presence announced while we were not listening is lost: ask everyone for theirs.
        self._remote.reconfirm()
        self._hello()
        self.listening = True
        try:
            log.event("listening", channel=CHANNEL)
            # Whatever was announced while we were not listening: ask the log.
            self._spawn(self._resync_once())
            while self._pulse.alive:  # deaf: reconnect (a half-dead connection hears nothing)
                async for note in conn.notifies(timeout=self._resync_seconds):
                    self._heard(note.payload)
            log.event("heartbeat_lost", bound=self._pulse.bound)
        finally:
            self.listening = False

    def _heard(self, text: str) -> None:
        note = wire.decode(text)
        if note is None or self._hub is None:
            return
        if isinstance(note, wire.Heartbeat):
            if note.process == self._process:
                self._pulse.heard()
            else:
                new = self._remote.alive(note.process)
                if note.hello:  # it may have missed our notes, and we some of its
                    self._remote.reconfirm(note.process)
                if new or note.hello:
                    self._announce_all()
        elif isinstance(note, wire.Presence):
            if self._remote.heard(note):
                self._presence_moved([note.table_id])
        elif isinstance(note, wire.Relay):
            self._heard_relay(note)
        else:
            self._heard_commit(note)

    def _heard_commit(self, note: wire.Commit | wire.Played) -> None:
        assert self._hub is not None
        sent = self._sent_at.pop((note.table_id, note.version), None)
        if sent is not None:
            metrics.NOTIFY_LAG.observe(metrics.since(sent))
        room = self._hub.cached(note.table_id)
        if room is None or note.version <= room.live.version:
            return  # not ours to serve, or our own commit coming back
        if room.idle:
            self._hub.forget(room)  # nobody watching here: not woken, read when someone comes
            return
        if isinstance(note, wire.Played):
            self._carried.keep(note)  # until the room is current (``_refresh_until_current``)
        self.wake(room, note.version)

    def _heard_relay(self, note: wire.Relay) -> None:
        assert self._hub is not None
        room = self._hub.cached(note.table_id) if note.process != self._process else None
        if room is None:
            return
        said = note.said
        if isinstance(said, wire.Talk):
            room.talk.hear(said.message)
        elif isinstance(said, wire.UndoStatus):
            room.undo.heard(said.message)
        elif isinstance(said, wire.Standing):  # the driver's bots (app/bots/drivers.py)
            room.set_standing(said.stand_ins, said.takeovers)
        else:
            room.undo.heard_vote(said)

    def _apply_presence(self, room: Room) -> None:
        players = room.live.options.players
        room.set_remote_presence(self._remote.seats(room.live.table_id, players))

    def _hello(self) -> None:
        """Notes of ours or to us may have been lost: say hello, then announce ours again."""
        self._outbox.put(wire.encode(wire.Heartbeat(self._process, hello=True)))
        self._announce_all()

    def _announce_all(self) -> None:
        """Announce the seats of every room with a socket here (they may have been missed)."""
        for room in self._hub.rooms() if self._hub is not None else ():
            if not room.idle:
                self.presence_changed(room)

    def _presence_moved(self, table_ids: list[int]) -> None:
        """Other processes' seats changed at these tables: tell the rooms held here."""
        assert self._hub is not None
        for room in filter(None, map(self._hub.cached, table_ids)):
            self._apply_presence(room)

    def wake(self, room: Room, version: int) -> None:
        """Bring ``room`` up to at least ``version`` soon (one reader per table at a time)."""
        table_id = room.live.table_id
        self._wanted[table_id] = max(version, self._wanted.get(table_id, 0))
        if table_id not in self._refreshing:
            task = asyncio.create_task(self._refresh_until_current(room))
            self._refreshing[table_id] = task

    async def _refresh_until_current(self, room: Room) -> None:
        table_id = room.live.table_id
        try:
            # Notifications that arrive while reading raise the wanted version: read again.
            while room.live.version < (wanted := self._wanted.get(table_id, 0)):
                if await self.refresh(room, wanted) is None:
                    break
        finally:
            self._refreshing.pop(table_id, None)
            self._wanted.pop(table_id, None)
            self._carried.forget(table_id)

    async def refresh(self, room: Room, wanted: int | None = None) -> LiveTable | None:
        """Read and replay what other processes committed to ``room``'s table; the new state,
        or None when the room was already current (at ``wanted`` or later, if given: then
        nothing is read)."""
        before = room.live.version
        try:
            fresh = await room.catch_up(self._read, wanted)
        except ReplayError as exc:
            # The incremental read did not fit (e.g. a table rebuilt under us): replay it all.
            log.event("reload_full", table=room.live.table_id, reason=str(exc))
            fresh = await room.catch_up(self._full_reload(room), wanted)
        if fresh is not None:
            # Every action of another process comes through here: DEBUG, the commit is logged.
            table, version = fresh.table_id, fresh.version
            log.event("reload", level=logging.DEBUG, table=table, version=version, previous=before)
        return fresh

    async def _read(self, live: LiveTable) -> LiveTable | None:
        # The actions carried in the notes if they continue ``live``, else the log's.
        if (fresh := self._carried.advance(live)) is not None:
            metrics.CATCH_UPS.labels("carried").inc()
            return fresh
        metrics.CATCH_UPS.labels("log").inc()
        return await self._reader.catch_up(live)

    def _full_reload(self, room: Room) -> Callable[[LiveTable], Awaitable[LiveTable | None]]:
        async def read(live: LiveTable) -> LiveTable | None:
            assert self._hub is not None
            return await self._hub.store.load(live.invite_code)

        return read

    # -- the safety net --------------------------------------------------------------------

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        # Keep a reference: the event loop holds tasks only weakly.
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _resync_forever(self) -> None:
        failing = False  # logged once per outage, not every round
        while True:
            await asyncio.sleep(self._resync_seconds)
            self._outbox.put(wire.encode(wire.Heartbeat(self._process)))
            # Forget the seats of processes whose heartbeat has not been heard for a while.
            self._presence_moved(self._remote.expire(self._resync_seconds))
            try:
                await self._resync_once()
            except Exception as exc:  # the database may be down: try again next round
                if not failing:
                    log.event("resync_failed", error=type(exc).__name__)
                failing = True
            else:
                if failing:
                    log.event("resync_back")
                failing = False

    async def _resync_once(self) -> None:
        """One ``SELECT`` of the versions of every cached table; catch up what moved."""
        if self._hub is None:
            return
        rooms = {room.live.table_id: room for room in self._hub.rooms()}
        if not rooms:
            return
        async with self._db.connect() as conn:
            versions = (await conn.execute(_VERSIONS, {"ids": list(rooms)})).all()
        for table_id, version in versions:
            room = rooms[table_id]
            if version <= room.live.version:
                continue
            if room.idle:
                self._hub.forget(room)  # nobody watching: replay it when someone comes
            else:
                log.event("gap", table=table_id, version=version, previous=room.live.version)
                self.wake(room, version)
