"""Undo by consent at one table: the request, its timer, the votes, and the relay between
processes (the tally itself is ``consent.py``).

The request is decided on the process of the asking socket, in build functions run by the
room's single writer (``Room.apply``): the undo marker is committed like any action. Every
state of the request (``asked``, then ``done``, ``refused``, ``expired`` or ``cancelled``) is
pushed to the sockets here and relayed to the other processes (:class:`wire.UndoStatus`),
which remember the request until its deadline and send their people's answers back
(:class:`wire.UndoVote`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Protocol, TypeVar

from app.protocol import messages, wire
from app.protocol.inbound import ErrorCode, Refusal
from app.protocol.messages import ServerMessage, UndoOut, UndoState
from app.protocol.present import Snapshot
from app.room import consent, seating
from app.room.consent import UndoRequest
from app.room.edit import Build, Edit
from app.tables import live as tables_live
from app.tables.live import LiveTable
from app.tables.rows import ActionRow
from app.tables.writer import Acting, Change

Clock = Callable[[], float]
R = TypeVar("R")


class Table(Protocol):
    """What undo needs of its room (``Room`` is one)."""

    @property
    def live(self) -> LiveTable: ...

    def snapshot(self) -> Snapshot: ...

    async def apply(self, build: Build[R]) -> R:
        """Change the table through the room's single writer (see ``Room.apply``)."""
        ...

    def push(self, message: ServerMessage) -> None:
        """Send ``message`` to every socket at the table in this process."""

    def relay(self, said: wire.Said) -> None:
        """Tell the other processes."""

    def changed(self) -> None:
        """Tell the room's listeners (the bots wait while a request is open)."""


class UndoByConsent:
    """The undo request of one table in this process (a room's collaborator)."""

    def __init__(self, table: Table, *, clock: Clock = time.time) -> None:
        self._table = table
        self._clock = clock
        self._request: UndoRequest | None = None
        self._timer: asyncio.TimerHandle | None = None
        # A request being decided on another process: (asking seat, version, deadline); this
        # process relays its people's answers there.
        self._remote: tuple[int, int, float] | None = None
        self._votes: set[asyncio.Task[Refusal | None]] = set()

    @property
    def pending(self) -> bool:
        """An undo request is being decided here (bots wait meanwhile)."""
        return self._request is not None

    async def ask(self, seat: int, version: int, token_hash: str) -> Refusal | None:
        """``seat`` (its token's hash) asks to take back its last action, made at
        ``version`` - 1."""
        decided: list[UndoRequest] = []  # only bots to ask: decided at once

        def build(live: LiveTable) -> Edit[Refusal | None]:
            if decided:  # built again: another process wrote first
                return self._marker(live, decided[0])
            if version != live.version:
                return Edit(Refusal.stale(version, live.version))
            if live.undoable is None or live.undoable.seat != seat:
                message = "only the last move can be taken back, by its player"
                return Edit(Refusal(ErrorCode.NOTHING_TO_UNDO, message))
            if not seating.holds(live, seat, token_hash):
                return Edit(seating.not_yours(version))
            if live.pause.paused:  # app/room/pause.py: nothing moves, nor back
                return Edit(Refusal(ErrorCode.PAUSED, "the table is paused: resume it first"))
            if self._request is not None or self._remote_request() is not None:
                return Edit(
                    Refusal(ErrorCode.UNDO_PENDING, "another undo request is being decided")
                )
            request = self._request_of(live, seat, version, token_hash)
            if not request.waiting:
                decided.append(request)
                return self._marker(live, request)
            self._open(request)
            return Edit(None)

        return await self._table.apply(build)

    async def answer(self, seat: int, version: int, allow: bool) -> Refusal | None:
        """``seat``'s answer to the undo request at ``version``."""
        decided: list[UndoRequest] = []  # the last answer needed: decided

        def build(live: LiveTable) -> Edit[Refusal | None]:
            if decided:  # built again: another process wrote first
                return self._marker(live, decided[0])
            request = self._request
            if request is None and self._remote_request() is not None:
                return Edit(self._relay_vote(seat, version, allow))
            if request is None or request.version != version or seat == request.seat:
                return Edit(
                    Refusal(ErrorCode.NO_UNDO_REQUEST, "there is no undo request to answer")
                )
            if not allow:
                self._end("refused", by=seat)
            elif request.allow(seat):
                decided.append(request)
                return self._marker(live, request)
            else:
                self._publish(_undo_out("asked", request))
            return Edit(None)

        return await self._table.apply(build)

    def _request_of(self, live: LiveTable, seat: int, version: int, token_hash: str) -> UndoRequest:
        snapshot = self._table.snapshot()
        people = [i for i, info in enumerate(live.seats) if info is not None and not info.bot]
        waiting = consent.who_must_agree(
            asking=seat, people=people, connected=snapshot.connected, stand_ins=snapshot.stand_ins
        )
        deadline = self._clock() + consent.UNDO_SECONDS
        return UndoRequest(seat, version, deadline, waiting, token_hash)

    def _open(self, request: UndoRequest) -> None:
        self._request = request
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(consent.UNDO_SECONDS, self._expire, request)
        self._publish(_undo_out("asked", request))
        self._table.changed()

    def heard(self, message: UndoOut) -> None:
        """A request's state, here or from the process deciding it: remember another
        process's open request (its answers go there), and tell this process's sockets."""
        if self._request is None:
            asked = message["state"] == "asked"
            where = (message["seat"], message["version"], message["deadline"])
            self._remote = where if asked else None
        self._table.push(message)

    def heard_vote(self, vote: wire.UndoVote) -> None:
        """A person's answer given on another process, to the request decided here."""
        if self._request is not None and self._request.version == vote.version:
            task = asyncio.create_task(self.answer(vote.seat, vote.version, vote.allow))
            self._votes.add(task)
            task.add_done_callback(self._votes.discard)

    def cancel(self) -> None:
        """The table moved on (under the lock): a pending request no longer applies."""
        self._end("cancelled")

    def forget_remote(self) -> None:
        """Another process changed the table: its request, if any, is over too."""
        self._remote = None

    def _remote_request(self) -> tuple[int, int, float] | None:
        """Another process's undo request, until its deadline (that process may be gone)."""
        if self._remote is not None and self._clock() > self._remote[2] + 1:
            self._remote = None
        return self._remote

    def _relay_vote(self, seat: int, version: int, allow: bool) -> Refusal | None:
        # The request is another process's: send the answer there (through the fan-out).
        assert self._remote is not None
        asking, asked_version, _deadline = self._remote
        if version != asked_version or seat == asking:
            return Refusal(ErrorCode.NO_UNDO_REQUEST, "there is no undo request to answer")
        self._table.relay(wire.UndoVote(seat, version, allow))
        return None

    def _marker(self, live: LiveTable, request: UndoRequest) -> Edit[Refusal | None]:
        # The request is decided: its marker goes through the one writer like any action,
        # made for the asking token (it must still hold the seat).
        self._clear()
        if live.version != request.version or live.undoable is None:
            self._publish(_undo_out("cancelled", request))
            return Edit(Refusal.stale(request.version, live.version))
        after = tables_live.undo(live)
        mark = {"type": tables_live.UNDO_MARK}
        marker = ActionRow(after.seq, live.hand_number, request.seat, mark)
        change = Change(actions=[marker], acting=Acting(request.seat, request.token_hash))
        done = _undo_out("done", request)
        return Edit(None, after, change, then=lambda: self._publish(done))

    def _expire(self, request: UndoRequest) -> None:
        if self._request is request:
            self._end("expired")

    def _end(self, state: UndoState, by: int | None = None) -> None:
        request = self._request
        if request is None:
            return
        self._clear()
        self._publish(_undo_out(state, request, by))
        self._table.changed()  # bots waited for the answer

    def _clear(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._request = None
        self._timer = None

    def _publish(self, message: UndoOut) -> None:
        self.heard(message)
        self._table.relay(wire.UndoStatus(message))


def _undo_out(state: UndoState, request: UndoRequest, by: int | None = None) -> UndoOut:
    return messages.undo_message(
        state,
        seat=request.seat,
        version=request.version,
        deadline=request.deadline,
        waiting=sorted(request.waiting),
        by=by,
    )
