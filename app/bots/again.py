"""Play again, as a use case: the caller's seat at the next game (opened exactly once by
``app.tables.again``), or, for a player who declines, a bot in that seat.

It lives with the bots because a player who does not come along is replaced by one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from app.bots.runner import BotRunner, bot_name
from app.room import changes
from app.room.hub import Hub
from app.tables import again
from app.tables.live import LiveTable
from engine.bots import DEFAULT_LEVEL


class NotOver(Exception):
    """Play again is offered once the game is over."""


class NotSeated(Exception):
    """Only a player of the finished game may open the next one or take their seat there."""


# Told once, by the request that opened the next game: the finished table and who asked.
Opened = Callable[[LiveTable, int], Awaitable[None]]


async def play_again(
    *,
    hub: Hub,
    runner: BotRunner,
    invite_code: str,
    token: str | None,
    decline: bool,
    opened_hook: Opened | None = None,
) -> tuple[str, int, str | None]:
    """Open (exactly once) the next game with the same players, seats and rules, and take the
    caller's seat there: (new invite code, seat, the caller's new seat token). With
    ``decline`` a bot takes the caller's seat instead (no token).

    Raises:
        UnknownTable, NotSeated, NotOver, or SeatUnavailable (the seat is taken already,
        e.g. through this person's other tab).
    """
    room = await hub.get_room(invite_code)
    seat = await room.seat_of(token) if token else None
    if seat is None:
        raise NotSeated
    if room.live.status != "over":
        raise NotOver
    info = room.live.seats[seat]
    assert info is not None  # the token holds it
    code, opened = await again.open_next(db=hub.store.db, old=room.live)
    if opened:
        room.talk.announce_next(code)
        if opened_hook is not None:
            await opened_hook(room.live, seat)
    following = await hub.get_room(code)
    if decline:
        taken, _bot_token = await changes.join(
            following, name=bot_name(seat), wanted=seat, bot_level=DEFAULT_LEVEL, kept_for_you=True
        )
        runner.watch(following)
        return code, taken, None
    taken, new_token = await changes.join(following, name=info.name, wanted=seat, kept_for_you=True)
    return code, taken, new_token
