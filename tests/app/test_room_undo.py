"""Undo by consent on its own (``app/room/undo.py``), against a fake room: who must agree,
the answers, the timer, the refusal codes, the commit of the marker, and the relay of a
request decided on another process. No socket, no database."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from typing import TypeVar

import pytest

import engine
from app.protocol import messages, wire
from app.protocol.inbound import ErrorCode, Refusal
from app.protocol.messages import ServerMessage, UndoOut
from app.protocol.present import Snapshot
from app.room import consent
from app.room.edit import Build
from app.room.undo import UndoByConsent
from app.tables import live as tables_live
from app.tables.live import LiveTable, SeatInfo, TableOptions
from app.tables.writer import Change, StaleWrite
from engine.bots import random_action
from tests.waiting import eventually

NOW = 1_000.0
R = TypeVar("R")


def played_table(*, bots: tuple[int, ...] = ()) -> LiveTable:
    """Three seats, a hand dealt, one action played (at version 5): it may be taken back."""
    live = tables_live.new_table(table_id=7, invite_code="u", options=TableOptions(players=3))
    for seat in range(3):
        bot = seat in bots
        info = SeatInfo(f"P{seat}", f"hash{seat}", bot=bot, bot_level="random" if bot else None)
        live = tables_live.seat(live, seat, info)
    live = replace(tables_live.deal(live, seed=3), version=4)
    assert live.hand is not None and live.hand.to_move is not None
    mover = live.hand.to_move
    action = random_action(engine.view(live.hand, mover), random.Random(1))
    return replace(tables_live.play(live, mover, action), version=5)


class FakeRoom:
    """The room as undo sees it: its lock, state and presence; what it pushes, relays and
    commits."""

    def __init__(self, live: LiveTable, connected: tuple[bool, ...] = (True, True, True)) -> None:
        self.live = live
        self.lock = asyncio.Lock()
        self.connected = connected
        self.pushed: list[ServerMessage] = []
        self.relayed: list[wire.Said] = []
        self.commits: list[Change] = []
        self.changes = 0
        self.commit_wins = True
        self.clock = NOW
        self.undo = UndoByConsent(self, clock=lambda: self.clock)

    @property
    def mover(self) -> int:
        assert self.live.undoable is not None
        return self.live.undoable.seat

    def others(self) -> list[int]:
        return [seat for seat in range(3) if seat != self.mover]

    def snapshot(self) -> Snapshot:
        return Snapshot(self.live, self.connected)

    async def apply(self, build: Build[R]) -> R:
        """As ``Room.apply``: under the lock, built once more after another process won."""
        async with self.lock:
            for _attempt in range(2):
                edit = build(self.live)
                if edit.after is None:
                    return edit.reply
                if await self.commit(edit.after, edit.change):
                    if edit.then is not None:
                        edit.then()
                    return edit.reply
        raise StaleWrite("twice")

    async def commit(self, after: LiveTable, change: Change) -> bool:
        if not self.commit_wins:
            self.live = replace(self.live, version=self.live.version + 1)  # another process
            return False
        self.commits.append(change)
        self.live = replace(after, version=self.live.version + 1)
        self.undo.cancel()  # as the room does after every commit
        return True

    def push(self, message: ServerMessage) -> None:
        self.pushed.append(message)

    def relay(self, said: wire.Said) -> None:
        self.relayed.append(said)

    def changed(self) -> None:
        self.changes += 1

    def states(self) -> list[str]:
        return [m["state"] for m in self.pushed if m["type"] == "undo"]


async def ask(room: FakeRoom, seat: int, version: int) -> Refusal | None:
    """``seat`` asks with the token that holds it (``played_table``: ``hash<seat>``)."""
    return await room.undo.ask(seat, version, f"hash{seat}")


def undo_out(message: ServerMessage) -> UndoOut:
    assert message["type"] == "undo"
    return message


async def test_everyone_agrees_and_the_marker_is_committed() -> None:
    room = FakeRoom(played_table())
    first, second = room.others()
    assert await ask(room, room.mover, 5) is None
    asked = undo_out(room.pushed[0])
    assert asked["state"] == "asked" and asked["waiting"] == [first, second]
    assert asked["deadline"] == NOW + consent.UNDO_SECONDS
    assert room.relayed == [wire.UndoStatus(asked)] and room.undo.pending and room.changes == 1
    assert await room.undo.answer(first, 5, True) is None
    assert undo_out(room.pushed[-1])["waiting"] == [second]  # asked again: who is left
    assert await room.undo.answer(second, 5, True) is None
    assert room.states() == ["asked", "asked", "done"] and not room.undo.pending
    (change,) = room.commits
    assert [row.action for row in change.actions] == [{"type": tables_live.UNDO_MARK}]
    assert change.actions[0].seat == asked["seat"] and room.live.version == 6
    assert room.relayed == [wire.UndoStatus(undo_out(m)) for m in room.pushed]


async def test_with_only_bots_and_away_people_to_ask_it_is_done_at_once() -> None:
    table = played_table()
    mover = table.undoable.seat if table.undoable else 0
    others = [seat for seat in range(3) if seat != mover]
    connected = tuple(seat != others[0] for seat in range(3))  # one away
    room = FakeRoom(
        replace(
            table,
            seats=tuple(
                replace(info, bot=True) if seat == others[1] and info else info
                for seat, info in enumerate(table.seats)
            ),
        ),
        connected,
    )
    assert await ask(room, mover, 5) is None
    assert room.states() == ["done"] and len(room.commits) == 1 and room.changes == 0


async def test_a_no_ends_the_request() -> None:
    room = FakeRoom(played_table())
    first, _second = room.others()
    await ask(room, room.mover, 5)
    assert await room.undo.answer(first, 5, False) is None
    refused = undo_out(room.pushed[-1])
    assert refused["state"] == "refused" and refused["by"] == first
    assert room.commits == [] and not room.undo.pending and room.changes == 2


async def test_refusals_have_their_codes() -> None:
    room = FakeRoom(played_table())
    first, _second = room.others()
    assert await ask(room, room.mover, 4) == Refusal.stale(4, 5)
    nothing = await ask(room, first, 5)
    assert nothing is not None and nothing.code == ErrorCode.NOTHING_TO_UNDO
    none = await room.undo.answer(first, 5, True)
    assert none is not None and none.code == ErrorCode.NO_UNDO_REQUEST
    await ask(room, room.mover, 5)
    again = await ask(room, room.mover, 5)
    assert again is not None and again.code == ErrorCode.UNDO_PENDING
    own = await room.undo.answer(room.mover, 5, True)
    assert own is not None and own.code == ErrorCode.NO_UNDO_REQUEST
    wrong = await room.undo.answer(first, 4, True)
    assert wrong is not None and wrong.code == ErrorCode.NO_UNDO_REQUEST
    assert room.states() == ["asked"]


async def test_an_unanswered_request_expires(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(consent, "UNDO_SECONDS", 0.01)
    room = FakeRoom(played_table())
    await ask(room, room.mover, 5)
    await eventually(lambda: room.states() != ["asked"], 10, "the request never expired")
    assert room.states() == ["asked", "expired"] and undo_out(room.pushed[-1])["by"] is None
    assert not room.undo.pending and room.changes == 2


async def test_any_change_to_the_table_cancels_it() -> None:
    room = FakeRoom(played_table())
    await ask(room, room.mover, 5)
    room.undo.cancel()
    room.undo.cancel()  # nothing pending any more: nothing said
    assert room.states() == ["asked", "cancelled"] and not room.undo.pending


async def test_a_commit_lost_to_another_process_cancels_it() -> None:
    room = FakeRoom(played_table())
    first, second = room.others()
    await ask(room, room.mover, 5)
    await room.undo.answer(first, 5, True)
    room.commit_wins = False
    assert await room.undo.answer(second, 5, True) == Refusal.stale(5, 6)
    assert room.states() == ["asked", "asked", "cancelled"] and room.commits == []


async def test_a_request_decided_elsewhere_gets_the_answers_given_here() -> None:
    room = FakeRoom(played_table())
    first, second = room.others()
    asked = messages.undo_message(
        "asked", seat=room.mover, version=5, deadline=NOW + 10, waiting=[first, second]
    )
    room.undo.heard(asked)
    assert room.pushed == [asked] and room.relayed == [] and not room.undo.pending
    busy = await ask(room, room.mover, 5)
    assert busy is not None and busy.code == ErrorCode.UNDO_PENDING
    own = await room.undo.answer(room.mover, 5, True)
    assert own is not None and own.code == ErrorCode.NO_UNDO_REQUEST
    assert await room.undo.answer(first, 5, False) is None
    assert room.relayed == [wire.UndoVote(first, 5, False)]
    # The deciding process may be gone: its request lapses a second after its deadline.
    room.clock = NOW + 11.5
    gone = await room.undo.answer(second, 5, True)
    assert gone is not None and gone.code == ErrorCode.NO_UNDO_REQUEST


async def test_an_ended_remote_request_takes_no_more_answers() -> None:
    room = FakeRoom(played_table())
    first, _second = room.others()
    fields = {"seat": room.mover, "version": 5, "deadline": NOW + 10, "waiting": [first]}
    room.undo.heard(messages.undo_message("asked", **fields))  # type: ignore[arg-type]
    room.undo.heard(messages.undo_message("done", **fields))  # type: ignore[arg-type]
    refusal = await room.undo.answer(first, 5, True)
    assert refusal is not None and refusal.code == ErrorCode.NO_UNDO_REQUEST
    room.undo.heard(messages.undo_message("asked", **fields))  # type: ignore[arg-type]
    room.undo.forget_remote()  # the table changed on another process
    assert await ask(room, room.mover, 5) is None


async def test_votes_from_other_processes_count_here() -> None:
    room = FakeRoom(played_table())
    first, second = room.others()
    await ask(room, room.mover, 5)
    room.undo.heard_vote(wire.UndoVote(first, 4, True))  # another request's: ignored
    room.undo.heard_vote(wire.UndoVote(first, 5, True))
    room.undo.heard_vote(wire.UndoVote(second, 5, True))
    await eventually(lambda: room.states()[-1] == "done", 10, "the votes did not carry it")
    assert room.states()[-1] == "done" and len(room.commits) == 1
