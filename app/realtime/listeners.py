"""Who follows the rooms: the fan-out, the push notifier, the bot runner.

Each registers one :class:`RoomListener` with the hub (``Hub.listen``), which adds it to every
room it holds and makes, so a room publishes to a list of typed listeners and never knows who
they are. A listener overrides the events it wants; none may block (the room calls them from
its single writer): they note, schedule or set an event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.realtime.present import Snapshot
from app.realtime.wire import Said
from app.tables.live import LiveTable

if TYPE_CHECKING:
    from app.realtime.room import Room


class RoomListener:
    """The events of the rooms of this process; every one does nothing unless overridden."""

    def opened(self, room: Room) -> None:
        """The hub made ``room`` (also told, on registering, of the rooms held already)."""

    def attached(self, room: Room) -> None:
        """A socket opened on ``room``: someone plays or watches there now."""

    def changed(self, room: Room) -> None:
        """``room`` sent its sockets a new view (a commit, a reload, presence, stand-ins), or
        an undo request began or ended."""

    def committed(self, room: Room, before: LiveTable, after: Snapshot) -> None:
        """``room`` committed a change of this process: the state before, the snapshot after."""

    def presence_changed(self, room: Room) -> None:
        """A seat of ``room`` got its first socket on this process, or lost its last one."""

    def said(self, room: Room, said: Said) -> None:
        """Something said at ``room``'s table here, for the other processes' rooms."""
