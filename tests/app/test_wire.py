"""The notes between server processes (``app/protocol/wire.py``): every kind survives its
trip through text, garbage is None (never an exception in the listener), and the largest note
fits PostgreSQL's NOTIFY payload."""

from __future__ import annotations

import pytest

from app.protocol import messages, wire
from app.protocol.inbound import CHAT_MAX_CHARS
from app.protocol.wire import (
    Commit,
    Heartbeat,
    Played,
    Presence,
    Relay,
    Standing,
    Talk,
    UndoStatus,
    UndoVote,
)
from app.tables.rows import ActionRow

LINE: messages.ChatLineOut = {"id": 3, "seat": 1, "at": "2026-11-25T05:44:10+00:00", "text": "a:b"}
UNDO = messages.undo_message("refused", seat=0, version=4, deadline=1.25, waiting=[1, 2], by=2)

NOTES: list[wire.Note] = [
    Commit(17, 42),
    Played(17, 42, ActionRow(37, 2, 4, {"type": "play", "card": 23})),
    Played(17, 43, ActionRow(38, 2, 0, {"type": "bid", "cards": [1, 2]})),
    Played(17, 44, ActionRow(39, 2, 1, {"type": "undo"})),
    Presence(17, "a1b2c3", 0b101),
    Presence(17, "a1b2c3", 0),
    Relay(17, "a1b2c3", Talk({"type": "chat", "lines": [LINE], "recent": False})),
    Relay(17, "a1b2c3", Talk(messages.reaction_message(2, "well_played"))),
    Relay(17, "a1b2c3", Talk(messages.next_table_message("Q0S8mRj3"))),
    Relay(17, "a1b2c3", UndoStatus(UNDO)),
    Relay(
        17,
        "a1b2c3",
        UndoStatus(messages.undo_message("asked", seat=1, version=9, deadline=5.0, waiting=[0])),
    ),
    Relay(17, "a1b2c3", UndoVote(seat=2, version=9, allow=False)),
    Heartbeat("a1b2c3"),
    Heartbeat("a1b2c3", hello=True),
    Relay(17, "a1b2c3", Standing(frozenset({1, 3}), {0: 1_795_000_123.25, 2: 1_795_000_130})),
    Relay(17, "a1b2c3", Standing(frozenset(), {})),
]


@pytest.mark.parametrize("note", NOTES, ids=lambda note: type(note).__name__)
def test_every_kind_round_trips(note: wire.Note) -> None:
    assert wire.decode(wire.encode(note)) == note


def test_the_texts_are_the_ones_every_process_reads() -> None:
    # The formats other processes (also of the previous release, during a deploy) read.
    assert wire.encode(Commit(17, 42)) == "17:42"
    assert wire.encode(Heartbeat("a1b2c3")) == "h:a1b2c3"
    played = Played(17, 42, ActionRow(37, 2, 4, {"type": "play", "card": 23}))
    assert wire.encode(played) == 'a:17:42:37:2:4:{"type":"play","card":23}'
    assert wire.encode(Heartbeat("a1b2c3", hello=True)) == "h:a1b2c3:hello"
    assert wire.decode("h:") is None and wire.decode("h:a:b") is None
    assert wire.decode("h::hello") is None and wire.decode("h:a:hello:x") is None
    assert wire.encode(Presence.of(17, "p", (True, False, True))) == "p:17:p:5"
    vote = wire.encode(Relay(7, "p", UndoVote(1, 4, True)))
    assert vote == 't:7:p:{"type":"undo_vote","seat":1,"version":4,"allow":true}'
    standing = wire.encode(Relay(7, "p", Standing(frozenset({2}), {1: 12.5})))
    assert (
        standing == 't:7:p:{"type":"stand_ins","stand_ins":[2],"takeovers":[{"seat":1,"at":12.5}]}'
    )
    reaction = wire.encode(Relay(7, "p", Talk(messages.reaction_message(1, "wow"))))
    assert reaction == "t:7:p:" + messages.encode(messages.reaction_message(1, "wow"))


@pytest.mark.parametrize(
    "text",
    [
        "",
        ":",
        "17",
        "17:",
        "x:1",
        "17:-1",
        "17:4²",
        "p:17:proc",
        "p:x:proc:5",
        "p:17:proc:five",
        "t:7:proc",
        "t:x:proc:{}",
        "t:7:proc:{not json",
        't:7:proc:{"type":"view"}',
        't:7:proc:{"type":"chat","lines":"no","recent":false}',
        't:7:proc:{"type":"reaction","seat":1,"reaction":"<script>"}',
        't:7:proc:{"type":"undo_vote","seat":"1","version":4,"allow":true}',
        't:7:proc:{"type":"undo","state":"maybe","seat":0,"version":4,"deadline":1.0,'
        '"waiting":[],"by":null}',
        "t:7:proc:" + "[" * 5000,
        "t:7:proc:null",
        "q:7:proc:1",
        "a:17:42:37:2:4",
        'a:17:42:37:2:x:{"type":"pass"}',
        'a:17:42:-1:2:4:{"type":"pass"}',
        "a:17:42:37:2:4:{not json",
        "a:17:42:37:2:4:[1,2]",
        'a:17:42:37:2:4:{"card":3}',
        'a:17:42:37:2:4:{"type":5}',
    ],
)
def test_garbage_is_none(text: str) -> None:
    assert wire.decode(text) is None


def test_the_largest_note_fits_a_notify_payload() -> None:
    # The longest chat line, in the widest characters, with the longest numbers.
    line: messages.ChatLineOut = {
        "id": 2**63 - 1,
        "seat": 5,
        "at": "2026-11-25T05:44:10.123456+00:00",
        "text": "\U0001f600" * CHAT_MAX_CHARS,
    }
    chat = Relay(2**63 - 1, "a" * 12, Talk({"type": "chat", "lines": [line], "recent": False}))
    text = wire.encode(chat)
    assert wire.fits(text) and len(text.encode()) < wire.MAX_PAYLOAD_BYTES
    assert not wire.fits("é" * wire.MAX_PAYLOAD_BYTES)
    assert wire.fits("x" * wire.MAX_PAYLOAD_BYTES)


def test_presence_masks_read_back_as_seats() -> None:
    note = Presence.of(3, "p", (False, True, False, True))
    assert note.mask == 0b1010
