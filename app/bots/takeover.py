"""The away/takeover clock of one table, kept by the process that drives it.

A seated person whose sockets are all gone is *away* from that moment; after the table's
takeover time (:func:`takeover_limit`) a bot stands in for them until they are back. When they
went away is written to the database (``seats.away_since``, ``app/tables/away.py``), so a new
driver (another process, or this one after a restart or deploy) continues the countdown rather
than starting it again; the stand-ins and deadlines are told to the other processes
(``wire.Standing``) so that every view shows the same.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from app.protocol import wire
from app.room import pause
from app.room.room import Room
from app.tables import away, pausing
from app.tables.options import TableOptions
from app.tables.store import Store

Clock = Callable[[], float]


def takeover_limit(options: TableOptions) -> float | None:
    """After how many seconds away a bot may play for a person, given the table's pace; None:
    never. Live: the takeover time. Correspondence: the move time, and only if the host allowed
    bots at all (the table otherwise waits for the person, however long). A live table that
    waits without a bot, or asks the people present (``on_dropout``), has no takeover time."""
    if options.pace == "correspondence":
        return options.move_hours * 3600 if options.correspondence_bots else None
    return options.takeover_seconds if options.on_dropout == "bot" else None


class TakeoverClock:
    """Who is away since when at one table, the stand-ins and deadlines it makes."""

    def __init__(self, store: Store, *, clock: Clock = time.time) -> None:
        self._store = store
        self._clock = clock  # Unix time: the clock is kept in the database
        self._away_since: dict[int, float] = {}  # seat -> since when (Unix time)
        self._stored: dict[int, float] = {}  # what the database holds of it
        # Last told to the other processes (None: nothing yet, so the first is always told:
        # they may still show what a previous driver said).
        self._standing: wire.Standing | None = None
        self._resumed = True  # nothing to read back until this process drives (resume)

    async def resume(self, room: Room) -> None:
        """This process just became the table's driver: continue where the database says, read
        once somebody is away while the clock runs (most tables never need it)."""
        self._resumed = False
        self._standing = None

    async def _read_back(self, room: Room) -> None:
        self._stored = await away.away_since(db=self._store.db, table_id=room.live.table_id)
        self._away_since.update(self._stored)  # the stored times are the older ones
        self._resumed = True

    def announce(self, room: Room) -> None:
        """Tell the other processes the stand-ins and deadlines again (the drivers' rounds: a
        process that opened the table since, a note lost)."""
        standing = self._standing
        if standing is not None and (standing.stand_ins or standing.takeovers):
            room.relay(standing)

    async def update(self, room: Room) -> float | None:
        """Mark away people a bot stands in for; returns seconds until the next one is due."""
        running = self._running(room)
        if running and not self._resumed:
            await self._read_back(room)
        deadline = self._stand_ins(room)
        await self.end_votes(room)
        if running or self._stored:  # the database hears only of a clock that runs
            await self._store_away(room)
        snapshot = room.snapshot()
        standing = wire.Standing(snapshot.stand_ins, dict(snapshot.takeovers))
        if standing != self._standing:
            self._standing = standing
            room.relay(standing)
        return deadline

    @staticmethod
    def _running(room: Room) -> bool:
        """Whether the clock runs: a game in play with a takeover time, somebody there to be
        kept waiting and somebody away."""
        snapshot = room.snapshot()
        live = snapshot.live
        if live.status != "playing" or takeover_limit(live.options) is None:
            return False
        people = [seat for seat, info in enumerate(live.seats) if info is not None and not info.bot]
        connected = [snapshot.connected[seat] for seat in people]
        return any(snapshot.connected) and not all(connected)

    async def _store_away(self, room: Room) -> None:
        """Write who went away and who came back since last time (the clock a new driver
        reads)."""
        changes: dict[int, float | None] = {
            seat: since
            for seat, since in self._away_since.items()
            if self._stored.get(seat) != since
        }
        changes.update({seat: None for seat in self._stored if seat not in self._away_since})
        if changes:
            await away.mark(db=self._store.db, table_id=room.live.table_id, changes=changes)
            self._stored = dict(self._away_since)

    def _stand_ins(self, room: Room) -> float | None:
        now = self._clock()
        snapshot = room.snapshot()
        live = snapshot.live
        people = [i for i, seat in enumerate(live.seats) if seat is not None and not seat.bot]
        for seat in people:
            if snapshot.connected[seat]:
                self._away_since.pop(seat, None)
            else:
                self._away_since.setdefault(seat, now)
        for seat in [seat for seat in self._away_since if seat not in people]:
            del self._away_since[seat]  # a bot took the seat, or it was vacated
        # Only while somebody is there to be kept waiting: an empty table just pauses.
        if live.status != "playing" or not any(snapshot.connected):
            room.set_standing(frozenset(), {})
            return None
        if live.options.pace == "live" and live.options.on_dropout == "ask":
            # The people present decide (app/room/pause.py): a bot now, or none.
            present = pause.present(snapshot)
            chosen = [
                seat
                for seat in self._away_since
                if pausing.decision(live.pause.votes_about(seat), present) == "bot"
            ]
            room.set_standing(frozenset(chosen), {})
            return None
        limit = takeover_limit(live.options)
        if limit is None:
            room.set_standing(frozenset(), {})
            return None
        # Nobody is replaced while on holiday; the clock stands still while the table is
        # paused and goes on from where it stood once resumed (pausing.running_time).
        ran = {
            seat: pausing.running_time(live.pause, since, now)
            for seat, since in self._away_since.items()
            if live.pause.holiday_until(seat, now) is None
        }
        counting = {seat: limit - spent for seat, spent in ran.items() if spent < limit}
        # Who a bot plays for, and when a bot will take over each other away person
        # (browsers count down), until it has; no countdown while paused.
        room.set_standing(
            frozenset(seat for seat, spent in ran.items() if spent >= limit),
            {} if live.pause.paused else {seat: now + left for seat, left in counting.items()},
        )
        return None if live.pause.paused else min(counting.values(), default=None)

    async def end_votes(self, room: Room) -> None:
        """The people back at the table whose drop-out votes are still open: end them."""
        snapshot = room.snapshot()
        about = {seat for seat, _voter, _choice in snapshot.live.pause.votes}
        for seat in sorted(about):
            if snapshot.connected[seat]:
                await pause.back(room, seat)
