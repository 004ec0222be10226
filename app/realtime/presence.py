"""The seats of each table that have a socket on another server process.

Presence is per process: each process announces its own seats (:class:`wire.Presence`) when
they change and again every round of the fan-out's resync. This module keeps what the others
announced; an announcement not renewed within :data:`PRESENCE_ROUNDS` rounds is dropped, so
the seats of a killed process turn away by themselves.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from app.realtime import wire

# Another process's presence counts until it has missed this many announcement rounds.
PRESENCE_ROUNDS = 3
Clock = Callable[[], float]


class RemotePresence:
    """What the other processes announced, by table (also for tables not cached here: a room
    made later starts with them)."""

    def __init__(self, *, process: str, clock: Clock = time.monotonic) -> None:
        self._process = process  # this process: its own announcements coming back are ignored
        self._clock = clock
        # table id -> process -> (seat bitmask, when announced)
        self._tables: dict[int, dict[str, tuple[int, float]]] = {}

    def heard(self, note: wire.Presence) -> bool:
        """Note another process's announcement; False when it is this process's own."""
        if note.process == self._process:
            return False
        self._tables.setdefault(note.table_id, {})[note.process] = (note.mask, self._clock())
        return True

    def seats(self, table_id: int, players: int) -> tuple[bool, ...]:
        """Which of the table's seats have a socket on another process."""
        mask = 0
        for seats, _when in self._tables.get(table_id, {}).values():
            mask |= seats
        return tuple(bool(mask >> seat & 1) for seat in range(players))

    def expire(self, round_seconds: float) -> list[int]:
        """Forget announcements not renewed for ``PRESENCE_ROUNDS`` rounds; the tables whose
        presence changed."""
        expired = self._clock() - PRESENCE_ROUNDS * round_seconds
        changed = []
        for table_id, processes in list(self._tables.items()):
            stale = [process for process, (_mask, when) in processes.items() if when < expired]
            for process in stale:
                del processes[process]
            if not processes:
                del self._tables[table_id]
            if stale:
                changed.append(table_id)
        return changed
