"""The changes a seat makes to a live table, each a build function for :meth:`Room.apply`.

A build function reads the table as it is under the room's lock and answers with an
:class:`~app.room.edit.Edit`: the table after, the rows to commit, the caller's reply (or
only a reply: nothing changes). It is pure but for the undo's bookkeeping, and the room may
run it twice (once more after another process wrote first), so it reads nothing but ``live``.

The entry points here (:func:`act`, :func:`join`) are what the socket endpoint, the lobby and
the bot runner call; the host's changes are in ``app/host/service.py``, the undo marker in
``undo.py``: each is a build function passed to the same :meth:`Room.apply`.
"""

from __future__ import annotations

import time

import engine
from app.protocol.inbound import ErrorCode, Refusal
from app.room import eviction, pause, seating
from app.room.edit import Build, Edit
from app.room.room import Room
from app.room.seating import SeatUnavailable, holds, not_yours
from app.tables import live as tables_live
from app.tables.live import LiveTable
from app.tables.rows import ActionRow
from app.tables.writer import Acting, Change, StaleWrite


def play(seat: int, version: int, action: engine.Action, token_hash: str) -> Build[Refusal | None]:
    """``seat``'s ``action``, by the token holding it, if the client saw ``version``."""

    def build(live: LiveTable) -> Edit[Refusal | None]:
        if version != live.version:
            return Edit(Refusal.stale(version, live.version))
        if not holds(live, seat, token_hash):
            return Edit(not_yours(version))
        if paused := pause.refusal(live):  # paused by consent: nobody moves
            return Edit(paused)
        try:
            after = tables_live.play(live, seat, action)
        except engine.IllegalAction as exc:
            return Edit(Refusal.illegal(exc))
        # The log holds the action's JSON form: its type and fields, nothing a client added.
        logged = ActionRow(after.seq, live.hand_number, seat, engine.action_to_json(action))
        return Edit(None, after, Change(actions=[logged], acting=Acting(seat, token_hash)))

    return build


async def act(
    room: Room, seat: int, version: int, action: engine.Action, token_hash: str
) -> Refusal | None:
    """Apply ``action`` by ``seat`` (whose token hash is ``token_hash``) if the client saw the
    current ``version``; the refusal otherwise."""
    try:
        return await room.apply(play(seat, version, action, token_hash))
    except StaleWrite:
        return Refusal.stale(version, room.live.version)


async def join(
    room: Room,
    *,
    name: str,
    wanted: int | None,
    bot_level: str | None = None,
    kept_for_you: bool = False,
) -> tuple[int, str]:
    """Seat a person (or, with ``bot_level``, a bot); returns (seat, token). The last
    free seat starts the game. A bot's token is for whatever drives it in-process.
    A person may take a bot's seat (asked for, or when no seat is free): the bot leaves
    and the person plays from the next action on. Seats kept for the previous game's
    players ("Play again") are only taken with ``kept_for_you`` (the caller checked).

    Raises:
        SeatUnavailable: ``seat_taken``, ``table_full``, ``no_such_seat`` or ``table_closed``.
    """

    def build(live: LiveTable) -> Edit[tuple[int, str]]:
        eviction.check_newcomer(live, kept_for_you=kept_for_you, bot_level=bot_level)
        now = None if kept_for_you else time.time()
        # A person may take over a bot's seat unless the host said no.
        take_bots = bot_level is None and live.options.newcomers_take_bots
        index = seating.pick_seat(
            live, wanted, take_bots=take_bots, now=now, opened=bot_level is None
        )
        replaced = [index] if live.seats[index] is not None else []
        token, seated, row = seating.seat(live, index, name=name, bot_level=bot_level)
        return Edit((index, token), seated, Change(seats=[row], replaced=replaced))

    try:
        return await room.apply(build)
    except StaleWrite:
        raise SeatUnavailable(ErrorCode.SEAT_TAKEN, "the table changed; try again") from None
