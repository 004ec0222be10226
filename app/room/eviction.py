"""Who the host's decisions keep out (app/host): pure checks the room runs.

- A socket whose seat token no longer holds its seat (the host removed the person; on every
  process, once the room caught up with the change) is closed with ``CLOSE_REMOVED``.
- Spectator sockets older than the host's last "send the spectators away" are closed too.
- Every socket of a table whose history the host deleted is closed with ``CLOSE_TABLE_DELETED``.
- A table closed to newcomers seats nobody new (``table_closed``); closed to spectators, a
  socket without a seat is refused (``CLOSE_TABLE_CLOSED``; the endpoint checks).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol, TypeVar

from app.protocol.inbound import CLOSE_REMOVED, CLOSE_TABLE_DELETED, ErrorCode
from app.room.seating import SeatUnavailable
from app.tables.live import LiveTable

REMOVED = "the host removed you from this table"
SENT_AWAY = "the host sent the spectators away"
DELETED = "the host deleted this table"


class Socket(Protocol):
    """A connection as the room sees it (``Connection`` also has ``token_hash`` and
    ``sent_away``; a socket without them is never sent away)."""

    seat: int | None


S = TypeVar("S", bound=Socket)


def sent_away(live: LiveTable, sockets: Iterable[S]) -> Iterator[tuple[S, int, str]]:
    """The sockets to close now: (socket, close code, reason)."""
    host = live.host
    for socket in list(sockets):
        if host.deleted:
            yield socket, CLOSE_TABLE_DELETED, DELETED
        elif socket.seat is None:
            if getattr(socket, "sent_away", host.spectators_sent_away) < host.spectators_sent_away:
                yield socket, CLOSE_REMOVED, SENT_AWAY
        elif (token_hash := getattr(socket, "token_hash", None)) is not None:
            info = live.seats[socket.seat]
            if info is None or info.token_hash != token_hash:
                yield socket, CLOSE_REMOVED, REMOVED


def check_newcomer(live: LiveTable, *, kept_for_you: bool, bot_level: str | None) -> None:
    """Raises SeatUnavailable (``table_closed``) for a newcomer at a table the host closed."""
    if live.host.closed_to_newcomers and not kept_for_you and bot_level is None:
        raise SeatUnavailable(ErrorCode.TABLE_CLOSED, "the host closed this table to newcomers")
