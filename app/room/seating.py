"""Taking a seat: which seat a newcomer gets, and what seating them changes.

Pure functions over the live table; the room runs them under its lock and commits the result
through its single writer (``Room.join``).
"""

from __future__ import annotations

from app.protocol.inbound import ErrorCode, Refusal
from app.tables import live as tables_live
from app.tables import tokens
from app.tables.live import LiveTable, SeatInfo
from app.tables.rows import SeatRow


class SeatUnavailable(Exception):
    """A seat could not be taken: ``seat_taken``, ``table_full`` or ``no_such_seat``."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def holds(live: LiveTable, seat: int, token_hash: str) -> bool:
    """Whether the token (its hash) still holds ``seat`` in this copy of the table."""
    info = live.seats[seat] if 0 <= seat < len(live.seats) else None
    return info is not None and info.token_hash == token_hash


def not_yours(version: int) -> Refusal:
    """The acting token no longer holds its seat (removed, replaced): the client's view is
    stale; its socket is being closed (``eviction.py``)."""
    return Refusal(ErrorCode.STALE_VERSION, f"version {version}: this seat is no longer yours")


def pick_seat(
    live: LiveTable, wanted: int | None, *, take_bots: bool, now: float | None, opened: bool = False
) -> int:
    """The seat to give: ``wanted``, else the first free one.

    A free seat first; a person may also take a bot's seat (``take_bots``), a bot never takes
    another's; with ``opened``, a person may take a bot's seat the host opened for someone new.
    With ``now``, seats still kept for the previous game's players are not free.

    Raises:
        SeatUnavailable: ``table_full``, ``no_such_seat`` or ``seat_taken``.
    """
    bots = live.bot_seats()
    if not take_bots:  # a person may still take a bot's seat the host opened for someone new
        bots = [index for index in bots if opened and index in live.host.opened]
    free = live.free_seats(now=now) + bots
    if wanted is None:
        if not free:
            raise SeatUnavailable(ErrorCode.TABLE_FULL, "every seat is taken")
        return free[0]
    if not 0 <= wanted < live.options.players:
        raise SeatUnavailable(ErrorCode.NO_SUCH_SEAT, f"seats are 0..{live.options.players - 1}")
    if wanted not in free:
        raise SeatUnavailable(ErrorCode.SEAT_TAKEN, f"seat {wanted} is taken")
    return wanted


def seat(
    live: LiveTable, index: int, *, name: str, bot_level: str | None
) -> tuple[str, LiveTable, SeatRow]:
    """Seat a person (or, with ``bot_level``, a bot) at ``index``: (their new seat token, the
    table after, the row to store). Only the token's hash is kept."""
    token = tokens.new_seat_token()
    info = SeatInfo(
        name=name,
        token_hash=tokens.hash_token(token),
        bot=bot_level is not None,
        bot_level=bot_level,
    )
    row = SeatRow(index, info.name, info.token_hash, info.bot, info.bot_level)
    return token, tables_live.seat(live, index, info), row
