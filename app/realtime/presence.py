"""The seats of each table that have a socket on another server process.

Presence is per process: each process announces its own seats (:class:`wire.Presence`) when
they change, and all of them again when it may have been missed (its notify connection came
back, another process starts listening or appears). What another process announced counts as
long as that process is alive: its heartbeat (every resync round, ``pulse.py``) was heard within
:data:`PRESENCE_ROUNDS` rounds. So a killed process's seats turn away by themselves, while a
live one sends nothing for tables whose sockets do not change: the cost of presence grows with
the comings and goings, not with the number of open tables.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from app.realtime import wire

# Another process's presence counts until its heartbeat has been missing this many rounds.
PRESENCE_ROUNDS = 3
Clock = Callable[[], float]


class RemotePresence:
    """What the other processes announced, by table (also for tables not cached here: a room
    made later starts with them)."""

    def __init__(self, *, process: str, clock: Clock = time.monotonic) -> None:
        self._process = process  # this process: its own announcements coming back are ignored
        self._clock = clock
        self._tables: dict[int, dict[str, int]] = {}  # table id -> process -> seat bitmask
        self._alive: dict[str, float] = {}  # process -> when last heard from
        self._announced: dict[str, set[int]] = {}  # process -> its tables with seats

    def heard(self, note: wire.Presence) -> bool:
        """Note another process's announcement; False when it is this process's own."""
        if note.process == self._process:
            return False
        self.alive(note.process)
        processes = self._tables.setdefault(note.table_id, {})
        tables = self._announced.setdefault(note.process, set())
        if note.mask:
            processes[note.process] = note.mask
            tables.add(note.table_id)
        else:  # no socket there any more: nothing to keep
            processes.pop(note.process, None)
            tables.discard(note.table_id)
            if not processes:
                del self._tables[note.table_id]
        return True

    def alive(self, process: str) -> bool:
        """``process`` was heard from (a heartbeat, say); True when it is new to this one (first
        heard, or again after it had expired): it should hear this process's seats."""
        if process == self._process:
            return False
        new = process not in self._alive
        self._alive[process] = self._clock()
        return new

    def seats(self, table_id: int, players: int) -> tuple[bool, ...]:
        """Which of the table's seats have a socket on another process."""
        mask = 0
        for seats in self._tables.get(table_id, {}).values():
            mask |= seats
        return tuple(bool(mask >> seat & 1) for seat in range(players))

    def expire(self, round_seconds: float) -> list[int]:
        """Forget the processes not heard from for ``PRESENCE_ROUNDS`` rounds, and what they
        announced; the tables whose presence changed."""
        silent_since = self._clock() - PRESENCE_ROUNDS * round_seconds
        changed: list[int] = []
        for process in [p for p, when in self._alive.items() if when < silent_since]:
            del self._alive[process]
            for table_id in self._announced.pop(process, set()):
                processes = self._tables.get(table_id, {})
                if processes.pop(process, None) is not None:
                    changed.append(table_id)
                if not processes:
                    self._tables.pop(table_id, None)
        return changed
