"""What the host does to a table, each a build function for the room's single writer.

Every change goes through ``Room.apply`` with the host check: under the room's lock the host
token is checked against the database, then the change is built and committed with the
version guard. A host action racing another (on this process or another) fails the guard, the
room reloads, and the action is built once more against what was committed, the host token
checked again: it is applied once, or refused (``not_host`` when the other change was a
handover).

Each change logs a host marker row (``{"type": "host", "event": ...}``, ``app/tables/live.py``):
replays show it, every view tells it (``host`` in the table's fields), and the rooms of the
other processes catch up with it by the version bump.

A removed person's seat gets a new token hash (a bot's): their token holds no seat any more,
so every room closes their sockets (``CLOSE_REMOVED``, ``app/room/eviction.py``) and a new
join with it is refused (1008). Mid-hand the bot plays on with the seat's cards.

The host role handed over: the new host's *seat token* becomes the host token (its hash is
stored as the table's host token hash; the old host token is dead). So the new host's
personal rejoin link carries it, and each of their devices gets the host cookie from its seat
cookie (``POST …/host/claim``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from app.bots.runner import bot_name
from app.protocol.inbound import ErrorCode
from app.room import seating
from app.room.edit import Build, Check, Edit
from app.room.room import Room
from app.tables import live as tables_live
from app.tables import repository, tokens
from app.tables.live import LiveTable, SeatInfo
from app.tables.rows import ActionRow
from app.tables.writer import Change, StaleWrite
from engine.bots import DEFAULT_LEVEL

Destination = Literal["bot", "open"]
R = TypeVar("R")


class HostRefused(Exception):
    """A host action refused: an HTTP status and a stable code (``ErrorCode``)."""

    def __init__(self, status: int, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


NOT_HOST = HostRefused(403, ErrorCode.NOT_HOST, "only the table's host can do this")


@dataclass(frozen=True, slots=True)
class Caller:
    """Who asks for a host action: the host cookie or Bearer token, and the seat cookie's token
    (the role handed over makes a seat token the host token; its seat is the markers' "by")."""

    host_token: str | None
    seat_token: str | None

    @property
    def candidates(self) -> tuple[str | None, ...]:
        """The tokens that may be the host token."""
        return (self.host_token, self.seat_token)


async def is_host(room: Room, candidates: tuple[str | None, ...]) -> bool:
    """Whether one of the tokens (host cookie or Bearer, seat cookie) is the host token."""
    for token in candidates:
        if await repository.is_host(
            db=room.store.db, invite_code=room.live.invite_code, token=token
        ):
            return True
    return False


def seat_of(live: LiveTable, token: str | None) -> int | None:
    """The seat the caller's seat token holds (who the host is, for the markers' "by")."""
    return live.seat_of(tokens.hash_token(token)) if token else None


def _mark(live: LiveTable, by_seat: int | None, **fields: Any) -> dict[str, Any]:
    by = live.seats[by_seat] if by_seat is not None else None
    return {"type": tables_live.HOST_MARK, **fields, "by": by.name if by else None}


def host_check(room: Room, candidates: tuple[str | None, ...]) -> Check:
    """``Room.apply``'s check for the host's changes: raises ``not_host`` unless one of the
    ``candidates`` is the host token (read from the database at each try)."""

    async def check(_live: LiveTable) -> None:
        if not await is_host(room, candidates):
            raise NOT_HOST

    return check


async def apply(room: Room, candidates: tuple[str | None, ...], build: Build[R]) -> R:
    """A host change: checked, built and committed by the room (once more against a reloaded
    table when another writer came first)."""
    try:
        return await room.apply(build, check=host_check(room, candidates))
    except StaleWrite:
        raise HostRefused(409, ErrorCode.STALE_VERSION, "the table changed; try again") from None


Mark = dict[str, Any]


def _seated(live: LiveTable, seat: int) -> SeatInfo | None:
    """Who sits in ``seat`` (None: nobody); a seat the table does not have is refused."""
    if not 0 <= seat < live.options.players:
        raise HostRefused(422, ErrorCode.NO_SUCH_SEAT, f"seats are 0..{live.options.players - 1}")
    return live.seats[seat]


def _logged(live: LiveTable, after: LiveTable, seat: int, mark: dict[str, Any]) -> ActionRow:
    return ActionRow(after.seq, live.hand_number, seat, mark)


async def remove(room: Room, caller: Caller, *, seat: int, to: Destination) -> Mapping[str, Any]:
    """Remove the person in ``seat``: a bot takes the seat (``to="open"``: until a newcomer
    takes it over). Raises HostRefused."""

    def build(live: LiveTable) -> Edit[Mark]:
        info = _seated(live, seat)
        if info is None:
            raise HostRefused(409, ErrorCode.SEAT_EMPTY, "nobody sits in this seat")
        if info.bot:
            raise HostRefused(409, ErrorCode.SEAT_IS_BOT, "a bot sits here: use the bot controls")
        by = seat_of(live, caller.seat_token)
        if by == seat:
            raise HostRefused(409, ErrorCode.REMOVE_SELF, "the host cannot remove themselves")
        _token, seated, row = seating.seat(live, seat, name=bot_name(seat), bot_level=DEFAULT_LEVEL)
        mark = _mark(live, by, event="remove", seat=seat, name=info.name, to=to)
        after = tables_live.host_mark(seated, mark)
        change = Change(seats=[row], replaced=[seat], actions=[_logged(live, after, seat, mark)])
        return Edit(mark, after, change)

    return await apply(room, caller.candidates, build)


async def hand_over(room: Room, caller: Caller, *, seat: int) -> Mapping[str, Any]:
    """Make the person in ``seat`` the host (their seat token is the new host token)."""

    def build(live: LiveTable) -> Edit[Mark]:
        info = _seated(live, seat)
        if info is None or info.bot:
            raise HostRefused(409, ErrorCode.NOT_A_PERSON, "only a seated person can be host")
        by = seat_of(live, caller.seat_token)
        mark = _mark(live, by, event="handover", seat=seat, name=info.name)
        after = tables_live.host_mark(live, mark)
        logged = _logged(live, after, seat, mark)
        return Edit(mark, after, Change(actions=[logged], host_token_hash=info.token_hash))

    return await apply(room, caller.candidates, build)


async def close(
    room: Room, caller: Caller, *, newcomers: bool, spectators: bool
) -> Mapping[str, Any]:
    """Close (or open again) the table to newcomers and to spectators."""

    def build(live: LiveTable) -> Edit[Mark]:
        by = seat_of(live, caller.seat_token)
        mark = _mark(live, by, event="close", newcomers=newcomers, spectators=spectators)
        after = tables_live.host_mark(live, mark)
        return Edit(mark, after, Change(actions=[_logged(live, after, -1, mark)]))

    return await apply(room, caller.candidates, build)


async def send_spectators_away(room: Room, caller: Caller) -> Mapping[str, Any]:
    """Close every spectator socket (on every process); closed to spectators, they stay out."""

    def build(live: LiveTable) -> Edit[Mark]:
        mark = _mark(live, seat_of(live, caller.seat_token), event="spectators")
        after = tables_live.host_mark(live, mark)
        return Edit(mark, after, Change(actions=[_logged(live, after, -1, mark)]))

    return await apply(room, caller.candidates, build)
