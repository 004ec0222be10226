"""Pause by consent, holidays and the vote on a friend who dropped out, at one table (issue 40):
each a build function for :meth:`Room.apply`, its result a pause marker in the table's log
(``app/tables/pausing.py`` keeps the tally).

- **Pause** (live tables, a game in play): a seated player asks; every person *present*
  (connected and playing for themselves: not bots, not the away people a bot stands in for)
  must agree within ``pausing.ASK_SECONDS``. The last yes pauses the table (the marker
  ``paused`` names who agreed); one no ends the request (``refuse``). A player alone with bots
  pauses at once. While paused nobody can act (:func:`refusal`), the bots do not move, the
  takeover clocks stand still, and any seated player may resume.
- **Holiday** (correspondence tables): a seated player is away until a moment at most
  ``pausing.HOLIDAY_DAYS`` ahead: their reminders wait for its end (``app/notify/pace.py``), no
  bot takes their seat meanwhile, and every view shows until when.
- **Drop-out vote** (tables with ``on_dropout`` "ask"): while a person is away, each person
  present votes "bot" (a bot plays for them now) or "wait"; a majority of those present
  decides (``pausing.decision``: a tie waits). The votes end when the person is back
  (:func:`back`, by the takeover clock).

Being markers in the log, all of this survives a restart and reaches the other processes as
any change does (the fan-out); its decisions are made by the room that writes the marker,
under its lock, against the presence it sees (its own sockets and the other processes').
"""

from __future__ import annotations

import time
from typing import Any

from app.protocol.inbound import (
    DropoutVoteIn,
    ErrorCode,
    HolidayIn,
    PauseAnswerIn,
    PauseAskIn,
    PauseMessage,
    Refusal,
    ResumeIn,
)
from app.protocol.present import Snapshot
from app.room.edit import Edit
from app.room.room import Room
from app.room.seating import holds, not_yours
from app.tables import live as tables_live
from app.tables import pausing
from app.tables.live import LiveTable
from app.tables.rows import ActionRow
from app.tables.writer import Acting, Change, StaleWrite

Reply = Refusal | None
PAUSED = Refusal(ErrorCode.PAUSED, "the table is paused: resume it first")


def refusal(live: LiveTable) -> Refusal | None:
    """Why no move can be made now, if the table is paused (the moves' build functions ask)."""
    return PAUSED if live.pause.paused else None


def present(snapshot: Snapshot) -> set[int]:
    """The people at the table right now: connected, and playing for themselves."""
    return {
        seat
        for seat, info in enumerate(snapshot.live.seats)
        if info is not None
        and not info.bot
        and snapshot.connected[seat]
        and seat not in snapshot.stand_ins
    }


def away_people(snapshot: Snapshot) -> list[int]:
    """The seated people with no socket on any process."""
    return [
        seat
        for seat, info in enumerate(snapshot.live.seats)
        if info is not None and not info.bot and not snapshot.connected[seat]
    ]


def asks_the_table(live: LiveTable) -> bool:
    """Whether the people present decide about a friend who dropped out (and now)."""
    return (
        live.options.on_dropout == "ask"
        and live.options.pace == "live"
        and live.status == "playing"
        and not live.pause.paused
    )


async def handle(room: Room, seat: int, token_hash: str, message: PauseMessage) -> Reply:
    """A seated socket's pause message, answered through the room's single writer."""
    now = time.time()
    snapshot = room.snapshot()
    if isinstance(message, PauseAskIn):
        build = _ask(seat, token_hash, present(snapshot), now)
    elif isinstance(message, PauseAnswerIn):
        build = _answer(seat, token_hash, message.agree, present(snapshot), now)
    elif isinstance(message, ResumeIn):
        build = _resume(seat, token_hash, now)
    elif isinstance(message, HolidayIn):
        build = _holiday(seat, token_hash, message.until, now)
    else:
        build = _vote(seat, token_hash, message, snapshot)
    try:
        return await room.apply(build)
    except StaleWrite:
        return Refusal.stale(room.live.version, room.live.version)


async def back(room: Room, about: int) -> None:
    """``about`` is back at the table: the votes about them are over (the takeover clock
    calls this; nothing happens when there are none, or they were cleared meanwhile)."""

    def build(live: LiveTable) -> Edit[Reply]:
        if not live.pause.votes_about(about):
            return Edit(None)
        return _marked(live, about, {"event": "back", "about": about}, acting=None)

    try:
        await room.apply(build)
    except StaleWrite:
        pass  # another process wrote first twice: the clock looks again at the next change


def _marked(
    live: LiveTable, seat: int, fields: dict[str, Any], *, acting: Acting | None
) -> Edit[Reply]:
    mark = {"type": pausing.PAUSE_MARK, **fields}
    after = tables_live.pause_mark(live, seat, mark)
    row = ActionRow(after.seq, live.hand_number, seat, mark)
    return Edit(None, after, Change(actions=[row], acting=acting))


def _pausable(live: LiveTable, seat: int, token_hash: str) -> Refusal | None:
    if not holds(live, seat, token_hash):
        return not_yours(live.version)
    if live.options.pace != "live" or live.status != "playing":
        return Refusal(ErrorCode.PAUSE_NOT_HERE, "only a live game in play pauses")
    return None


def _ask(seat: int, token_hash: str, people: set[int], now: float) -> Any:
    def build(live: LiveTable) -> Edit[Reply]:
        refused = _pausable(live, seat, token_hash)
        if refused is not None:
            return Edit(refused)
        if live.pause.paused:
            return Edit(Refusal(ErrorCode.PAUSED, "the table is paused already"))
        request = live.pause.request
        if request is not None and request.open(now):
            return _agreed(live, seat, token_hash, people, now)  # asking again agrees
        acting = Acting(seat, token_hash)
        if people <= {seat}:  # nobody else present: paused at once
            return _marked(live, seat, {"event": "paused", "at": now, "by": [seat]}, acting=acting)
        return _marked(live, seat, {"event": "ask", "at": now}, acting=acting)

    return build


def _answer(seat: int, token_hash: str, agree: bool, people: set[int], now: float) -> Any:
    def build(live: LiveTable) -> Edit[Reply]:
        refused = _pausable(live, seat, token_hash)
        if refused is not None:
            return Edit(refused)
        request = live.pause.request
        if request is None or not request.open(now) or live.pause.paused:
            return Edit(Refusal(ErrorCode.NO_PAUSE_REQUEST, "there is no pause request"))
        if not agree:
            return _marked(
                live, seat, {"event": "refuse", "at": now}, acting=Acting(seat, token_hash)
            )
        return _agreed(live, seat, token_hash, people, now)

    return build


def _agreed(
    live: LiveTable, seat: int, token_hash: str, people: set[int], now: float
) -> Edit[Reply]:
    request = live.pause.request
    assert request is not None
    agreed = request.agreed | {seat}
    acting = Acting(seat, token_hash)
    if people <= agreed:  # the last yes: paused, the asker named first
        by = [request.seat, *sorted(agreed - {request.seat})]
        return _marked(live, seat, {"event": "paused", "at": now, "by": by}, acting=acting)
    if seat in request.agreed:
        return Edit(None)  # said yes already: nothing new
    return _marked(live, seat, {"event": "agree", "at": now}, acting=acting)


def _resume(seat: int, token_hash: str, now: float) -> Any:
    def build(live: LiveTable) -> Edit[Reply]:
        if not holds(live, seat, token_hash):
            return Edit(not_yours(live.version))
        if not live.pause.paused:
            return Edit(Refusal(ErrorCode.NOT_PAUSED, "the table is not paused"))
        return _marked(live, seat, {"event": "resume", "at": now}, acting=Acting(seat, token_hash))

    return build


def _holiday(seat: int, token_hash: str, until: float | None, now: float) -> Any:
    def build(live: LiveTable) -> Edit[Reply]:
        if not holds(live, seat, token_hash):
            return Edit(not_yours(live.version))
        if live.options.pace != "correspondence" or live.status == "over":
            return Edit(Refusal(ErrorCode.PAUSE_NOT_HERE, "holidays are for correspondence games"))
        latest = now + pausing.HOLIDAY_DAYS * 86_400
        if until is not None and not now < until <= latest:
            message = f"a holiday ends in the future, within {pausing.HOLIDAY_DAYS} days"
            return Edit(Refusal(ErrorCode.BAD_HOLIDAY, message))
        if until is None and live.pause.holiday_until(seat, now) is None:
            return Edit(None)  # not on holiday: nothing to end
        fields = {"event": "holiday", "at": now, "until": None if until is None else round(until)}
        return _marked(live, seat, fields, acting=Acting(seat, token_hash))

    return build


def _vote(seat: int, token_hash: str, message: DropoutVoteIn, snapshot: Snapshot) -> Any:
    about, choice = message.seat, message.choice
    people, away = present(snapshot), away_people(snapshot)

    def build(live: LiveTable) -> Edit[Reply]:
        if not holds(live, seat, token_hash):
            return Edit(not_yours(live.version))
        if not asks_the_table(live) or about not in away or seat not in people:
            return Edit(Refusal(ErrorCode.NO_DROPOUT_VOTE, "there is no such question to answer"))
        if live.pause.votes_about(about).get(seat) == choice:
            return Edit(None)
        fields = {"event": "vote", "about": about, "choice": choice}
        return _marked(live, seat, fields, acting=Acting(seat, token_hash))

    return build
