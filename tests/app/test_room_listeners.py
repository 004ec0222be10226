"""The rooms publish to the listeners registered with the hub (``RoomListener``): every room,
made before or after the registration, tells each listener of its events, in order."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from types import SimpleNamespace
from typing import Any, cast

import engine
from app.protocol import messages, wire
from app.protocol.present import Snapshot
from app.room.connection import Connection
from app.room.hub import Hub
from app.room.room import Room, RoomListener
from app.tables import chat
from app.tables import live as tables_live
from app.tables.live import LiveTable, SeatInfo, TableOptions
from app.tables.store import Store
from app.tables.writer import Change
from engine.bots import random_action
from tests.app.helpers import act_as_seated


class Recorder(RoomListener):
    def __init__(self) -> None:
        self.events: list[tuple[Any, ...]] = []
        self.changes: list[Change] = []

    def opened(self, room: Room) -> None:
        self.events.append(("opened", room.live.invite_code))

    def attached(self, room: Room) -> None:
        self.events.append(("attached", room.live.invite_code))

    def changed(self, room: Room) -> None:
        self.events.append(("changed", room.live.invite_code))

    def committed(self, room: Room, before: LiveTable, after: Snapshot, change: Change) -> None:
        self.events.append(("committed", before.version, after.live.version))
        self.changes.append(change)

    def presence_changed(self, room: Room) -> None:
        self.events.append(("presence", room.local_presence()))

    def said(self, room: Room, said: wire.Said) -> None:
        self.events.append(("said", said))


class Writer:
    def __init__(self) -> None:
        self.written: list[Change] = []

    async def commit(self, *, table_id: int, expected_version: int, change: Change) -> int:
        self.written.append(change)
        return expected_version + 1


class Socket:
    """A connection as the room sees it."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.views: list[Snapshot] = []

    def push_view(self, snapshot: Snapshot) -> None:
        self.views.append(snapshot)


def table(code: str) -> LiveTable:
    live = tables_live.new_table(
        table_id=len(code), invite_code=code, options=TableOptions(players=3)
    )
    for seat in range(3):
        live = tables_live.seat(live, seat, SeatInfo(f"P{seat}", f"hash{seat}"))
    return tables_live.deal(live, seed=5)


def hub() -> Hub:
    store = SimpleNamespace(db=None, writer=Writer())
    return Hub(cast(Store, store), seeds=lambda: 1)


def test_a_listener_hears_the_rooms_made_before_and_after_it() -> None:
    rooms = hub()
    old = rooms.add(table("old"))
    first, second = Recorder(), Recorder()
    rooms.listen(first)
    assert first.events == [("opened", "old")]
    rooms.listen(second)
    new = rooms.add(table("new1"))
    assert first.events[-1] == second.events[-1] == ("opened", "new1")
    old.set_standing(frozenset({1}), {})
    new.set_standing(frozenset({0}), {})
    assert first.events[-2:] == [("changed", "old"), ("changed", "new1")]
    assert second.events[-2:] == [("changed", "old"), ("changed", "new1")]


def test_attaching_and_presence_are_told_before_the_new_views() -> None:
    rooms = hub()
    recorder = Recorder()
    rooms.listen(recorder)
    room = rooms.add(table("t"))
    seat, watcher = Socket(1), Socket(None)
    room.attach(cast(Connection, seat))
    room.attach(cast(Connection, watcher))
    assert recorder.events[1:] == [
        ("attached", "t"),
        ("presence", (False, True, False)),
        ("changed", "t"),
        ("attached", "t"),  # a spectator: no presence, no broadcast
    ]
    assert seat.views[-1].connected == (False, True, False) and len(watcher.views) == 1
    room.detach(cast(Connection, seat))
    assert recorder.events[-2:] == [("presence", (False, False, False)), ("changed", "t")]


async def test_a_commit_is_broadcast_then_told_with_the_state_before() -> None:
    rooms = hub()
    recorder = Recorder()
    rooms.listen(recorder)
    room = rooms.add(table("t"))
    live = room.live
    assert live.hand is not None and live.hand.to_move is not None
    mover = live.hand.to_move
    action = random_action(engine.view(live.hand, mover), random.Random(2))
    assert await act_as_seated(room, mover, live.version, action) is None
    assert recorder.events[-2:] == [("changed", "t"), ("committed", live.version, live.version + 1)]
    # The one announcement of a commit: the listeners get exactly the change written (the
    # fan-out carries it to the other processes from there).
    assert recorder.changes == cast(Writer, room.store.writer).written
    assert recorder.changes[0].actions[0].seat == mover


async def test_talk_is_relayed_through_the_listeners() -> None:
    rooms = hub()
    recorder = Recorder()
    rooms.listen(recorder)
    room = rooms.add(table("t"))
    assert room.talk.react(0, "wow") is None
    assert recorder.events[-1] == (
        "said",
        wire.Talk({"type": "reaction", "seat": 0, "reaction": "wow"}),
    )


class SlowStore:
    """A store whose loads take a while, counting how many run at once."""

    def __init__(self) -> None:
        self.db = None
        self.writer = Writer()
        self.loads: list[str] = []
        self.running = 0
        self.most = 0

    async def load(self, invite_code: str) -> LiveTable | None:
        self.loads.append(invite_code)
        self.running += 1
        self.most = max(self.most, self.running)
        await asyncio.sleep(0.05)  # a slow load, so that loads of one table would overlap
        self.running -= 1
        return table(invite_code)


async def test_tables_load_side_by_side_but_each_table_once(monkeypatch: Any) -> None:
    async def no_lines(**_: Any) -> list[Any]:
        return []

    monkeypatch.setattr(chat, "lines", no_lines)
    store = SlowStore()
    rooms = Hub(cast(Store, store), seeds=lambda: 1)
    a1, a2, b = await asyncio.gather(rooms.room("a"), rooms.room("a"), rooms.room("bb"))
    assert a1 is a2 and a1 is not None and b is not None
    assert sorted(store.loads) == ["a", "bb"]  # one load per table
    assert store.most == 2  # the two tables loaded in parallel
    assert not rooms._loading  # no lock left behind


async def test_one_snapshot_per_state_renewed_by_every_change() -> None:
    """The bots look at a room several times per change: the same snapshot (and the frames
    rendered for it) until the table, who is connected here or elsewhere, or the bots'
    standing changes."""
    room = hub().add(table("t"))
    first = room.snapshot()
    assert room.snapshot() is first
    seat, second_tab = Socket(1), Socket(1)
    room.attach(cast(Connection, seat))
    attached = room.snapshot()
    assert attached is not first and attached.connected == (False, True, False)
    room.attach(cast(Connection, second_tab))  # the same seat again: the same state
    assert room.snapshot() is attached and second_tab.views[-1] is attached
    room.set_remote_presence((True, False, False))
    remote = room.snapshot()
    assert remote.connected == (True, True, False)
    room.set_standing(frozenset({2}), {})
    standing = room.snapshot()
    assert standing is not remote and standing.stand_ins == frozenset({2})
    room.set_standing(frozenset(), {2: 1_795_000_000.0})
    assert room.snapshot().takeovers == {2: 1_795_000_000.0} and not room.snapshot().stand_ins
    before = room.snapshot()
    room.set_standing(frozenset(), {2: 1_795_000_000.0})  # the driver's look changed nothing
    assert room.snapshot() is before
    live = room.live
    assert live.hand is not None and live.hand.to_move is not None
    action = random_action(engine.view(live.hand, live.hand.to_move), random.Random(2))
    assert await act_as_seated(room, live.hand.to_move, live.version, action) is None
    after = room.snapshot()
    assert after is not before and after.live.version == live.version + 1
    assert seat.views[-1] is after
    room.detach(cast(Connection, second_tab))
    assert room.snapshot() is after  # seat 1 still has a socket
    room.detach(cast(Connection, seat))
    assert room.snapshot().connected == (True, False, False)


async def test_the_table_keys_carried_between_snapshots_are_never_stale() -> None:
    """A snapshot takes over the previous one's encoded seats, scores and host keys, and each
    recipient's own part, while what they are made of is equal: every frame, every seat's and
    a spectator's, is byte for byte the one a fresh snapshot gives, through two hands (the
    scores change) and an away seat's takeover countdown."""
    room = hub().add(table("carry"))
    seat = Socket(0)
    room.attach(cast(Connection, seat))
    rng, frames, carried, before = random.Random(4), 0, 0, b""
    own_carried, own_before = Counter[int | None](), dict[int | None, str]()
    while room.live.hand_number < 3:
        shown = room.snapshot()
        fresh = Snapshot.of(shown.live, shown.connected, shown.stand_ins, shown.takeovers)
        for recipient in (None, 2, 1):
            assert messages.view_text(shown, recipient) == messages.view_text(fresh, recipient)
            text = shown.own_json[recipient][1]
            own_carried[recipient] += text is own_before.get(recipient)
            own_before[recipient] = text
        frame = messages.view_text(shown, 0)
        assert frame == messages.view_text(fresh, 0)
        frames += 1
        carried += shown.around_json[0][1] is before
        before = shown.around_json[0][1]
        if frames == 40:
            room.set_standing(frozenset(), {2: 1_795_000_000.0})  # a seat's countdown shows
            assert '"takeover_at":1795000000.0' in messages.view_text(room.snapshot(), 0)
        live = room.live
        assert live.hand is not None and live.hand.to_move is not None
        action = random_action(engine.view(live.hand, live.hand.to_move), rng)
        assert await act_as_seated(room, live.hand.to_move, live.version, action) is None
    # Nearly every frame took the table keys over (a fresh snapshot encodes its own), and the
    # recipients' own parts: a spectator's never changes, a seat's when it is to move or was.
    assert frames > 40 and carried > frames - 6, (frames, carried)
    assert own_carried[None] > frames - 6 and own_carried[1] > 0, (frames, own_carried)
