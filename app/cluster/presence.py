"""The seats of each table that have a socket on another server process.

Presence is per process: each process announces its own seats (:class:`wire.Presence`) when
they change. What another process announced counts as long as that process is alive: its
heartbeat (every resync round, ``pulse.py``) was heard within :data:`PRESENCE_ROUNDS` rounds.
So a killed process's seats turn away by themselves, while a live one sends nothing for tables
whose sockets do not change: the cost of presence grows with the comings and goings, not with
the number of open tables.

Notes may be lost when a connection drops (a listener that was reconnecting, a batch a notify
connection did not send). The process that may have lost some says ``hello`` (its heartbeat's
flag) and announces all its seats again; every process that hears it announces all of its own,
and asks for the announcements it holds to be confirmed (:meth:`RemotePresence.reconfirm`):
one not announced again within a round is dropped, so a lost "nobody here any more" cannot
leave a seat shown as connected.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from app.protocol import wire

# Another process's presence counts until its heartbeat has been missing this many rounds.
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
        self._alive: dict[str, float] = {}  # process -> when last heard from
        self._announced: dict[str, set[int]] = {}  # process -> its tables with seats
        # process (None: every process) -> announcements older than this need confirming
        self._unconfirmed: dict[str | None, float] = {}

    def heard(self, note: wire.Presence) -> bool:
        """Note another process's announcement; False when it is this process's own."""
        if note.process == self._process:
            return False
        self.alive(note.process)
        processes = self._tables.setdefault(note.table_id, {})
        tables = self._announced.setdefault(note.process, set())
        if note.mask:
            processes[note.process] = (note.mask, self._clock())
            tables.add(note.table_id)
        else:  # no socket there any more: nothing to keep
            self._drop(note.table_id, note.process)
        return True

    def alive(self, process: str) -> bool:
        """``process`` was heard from (a heartbeat, say); True when it is new to this one (first
        heard, or again after it had expired): it should hear this process's seats."""
        if process == self._process:
            return False
        new = process not in self._alive
        self._alive[process] = self._clock()
        return new

    def reconfirm(self, process: str | None = None) -> None:
        """The announcements of ``process`` (None: of every process) held now must be made
        again (they are being asked for): :meth:`expire` drops those that were not."""
        self._unconfirmed[process] = self._clock()

    def seats(self, table_id: int, players: int) -> tuple[bool, ...]:
        """Which of the table's seats have a socket on another process."""
        mask = 0
        for seats, _when in self._tables.get(table_id, {}).values():
            mask |= seats
        return tuple(bool(mask >> seat & 1) for seat in range(players))

    def expire(self, round_seconds: float) -> list[int]:
        """Forget the processes not heard from for ``PRESENCE_ROUNDS`` rounds and what they
        announced, and the announcements not confirmed within a round when asked to be; the
        tables whose presence changed."""
        now = self._clock()
        changed: list[int] = []
        for process in [
            p for p, when in self._alive.items() if when < now - PRESENCE_ROUNDS * round_seconds
        ]:
            del self._alive[process]
            for table_id in list(self._announced.get(process, ())):
                changed += self._drop(table_id, process)
            self._announced.pop(process, None)
        for asked, since in list(self._unconfirmed.items()):
            if now - since < round_seconds:
                continue
            del self._unconfirmed[asked]
            for process, tables in list(self._announced.items()):
                if asked is not None and process != asked:
                    continue
                for table_id in list(tables):
                    if self._tables[table_id][process][1] < since:
                        changed += self._drop(table_id, process)
        return changed

    def _drop(self, table_id: int, process: str) -> list[int]:
        """Forget ``process``'s announcement at ``table_id``; [table_id] if there was one."""
        processes = self._tables.get(table_id, {})
        dropped = processes.pop(process, None) is not None
        if not processes:
            self._tables.pop(table_id, None)
        self._announced.get(process, set()).discard(table_id)
        return [table_id] if dropped else []
