"""Undo by consent at one table: the request, its timer, the votes, and the relay between
processes (the tally itself is ``consent.py``).

The request is decided on the process of the asking socket, under the room's lock; the undo
marker is committed through the room's single writer like any action. Every state of the
request (``asked``, then ``done``, ``refused``, ``expired`` or ``cancelled``) is pushed to the
sockets here and relayed to the other processes (:class:`wire.UndoStatus`), which remember the
request until its deadline and send their people's answers back (:class:`wire.UndoVote`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Protocol

from app.realtime import consent, messages, wire
from app.realtime.consent import UndoRequest
from app.realtime.messages import ServerMessage, UndoOut, UndoState
from app.realtime.present import Snapshot
from app.realtime.protocol import ErrorCode, Refusal
from app.tables import live as tables_live
from app.tables.live import LiveTable
from app.tables.rows import ActionRow
from app.tables.writer import Change

Clock = Callable[[], float]


class Table(Protocol):
    """What undo needs of its room (``Room`` is one)."""

    @property
    def live(self) -> LiveTable: ...

    @property
    def lock(self) -> asyncio.Lock: ...

    def snapshot(self) -> Snapshot: ...

    async def commit(self, after: LiveTable, change: Change) -> bool:
        """Commit under the lock (held by the caller); False when another process was first."""
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

    async def ask(self, seat: int, version: int) -> Refusal | None:
        """``seat`` asks to take back its last action, made at ``version`` - 1."""
        async with self._table.lock:
            live = self._table.live
            if version != live.version:
                return Refusal.stale(version, live.version)
            if live.undoable is None or live.undoable.seat != seat:
                return Refusal(
                    ErrorCode.NOTHING_TO_UNDO, "only the last move can be taken back, by its player"
                )
            if self._request is not None or self._remote_request() is not None:
                return Refusal(ErrorCode.UNDO_PENDING, "another undo request is being decided")
            snapshot = self._table.snapshot()
            people = [i for i, info in enumerate(live.seats) if info is not None and not info.bot]
            waiting = consent.who_must_agree(
                asking=seat,
                people=people,
                connected=snapshot.connected,
                stand_ins=snapshot.stand_ins,
            )
            request = UndoRequest(seat, version, self._clock() + consent.UNDO_SECONDS, waiting)
            if not waiting:  # only bots to ask: they agree at once
                return await self._apply(request)
            self._request = request
            loop = asyncio.get_running_loop()
            self._timer = loop.call_later(consent.UNDO_SECONDS, self._expire, request)
            self._publish(_undo_out("asked", request))
            self._table.changed()
            return None

    async def answer(self, seat: int, version: int, allow: bool) -> Refusal | None:
        """``seat``'s answer to the undo request at ``version``."""
        async with self._table.lock:
            request = self._request
            if request is None and self._remote_request() is not None:
                return self._relay_vote(seat, version, allow)
            if request is None or request.version != version or seat == request.seat:
                return Refusal(ErrorCode.NO_UNDO_REQUEST, "there is no undo request to answer")
            if not allow:
                self._end("refused", by=seat)
                return None
            if request.allow(seat):
                return await self._apply(request)
            self._publish(_undo_out("asked", request))
            return None

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

    async def _apply(self, request: UndoRequest) -> Refusal | None:
        # Under the lock. The marker goes through the one writer like any action.
        self._clear()
        live = self._table.live
        if live.version != request.version or live.undoable is None:
            self._publish(_undo_out("cancelled", request))
            return Refusal.stale(request.version, live.version)
        after = tables_live.undo(live)
        mark = {"type": tables_live.UNDO_MARK}
        marker = ActionRow(after.seq, live.hand_number, request.seat, mark)
        if not await self._table.commit(after, Change(actions=[marker])):
            self._publish(_undo_out("cancelled", request))
            return Refusal.stale(request.version, self._table.live.version)
        self._publish(_undo_out("done", request))
        return None

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
