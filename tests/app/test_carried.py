"""Actions carried in the commit notes (``app/cluster/carried.py``), without a database: which
commits carry their action, and that replaying carried actions gives exactly the table the log
gives, or nothing (then the log is read) when they do not continue the state held."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.cluster import carried
from app.cluster.carried import CarriedActions
from app.jobs.rows import JobRow
from app.protocol import wire
from app.tables.live import LiveTable
from app.tables.rows import ActionRow, HandRow, SeatRow
from app.tables.writer import Change
from tests.app.test_replay import Played, from_scratch, play, same

ACTION = ActionRow(12, 1, 2, {"type": "play", "card": 7})


@pytest.fixture(scope="module")
def played() -> Played:
    return play(60)  # into the second hand


def upto(played: Played, count: int) -> LiveTable:
    """The table after its first ``count`` actions, at version ``count``, as the log gives it."""
    last_hand = played.actions[count - 1].hand_number
    hands = [hand for hand in played.hands if hand.number <= last_hand]
    return replace(from_scratch(played, actions=played.actions[:count], hands=hands), version=count)


def notes(played: Played, versions: range) -> list[wire.Played]:
    return [wire.Played(7, version, played.actions[version - 1]) for version in versions]


def test_only_a_commit_of_one_action_carries_it() -> None:
    job = JobRow(kind="review", key="review:7:1", hand_number=1)
    assert carried.carried(Change(actions=[ACTION])) == ACTION
    assert carried.carried(Change(actions=[ACTION], jobs=[job])) == ACTION
    host = ActionRow(12, 1, 0, {"type": "host", "event": "closed"})
    for change in (
        Change(),
        Change(actions=[ACTION, ACTION._replace(seq=13)]),
        Change(actions=[ACTION], hands=[HandRow(2, 1, 99)]),  # a hand ended: the next dealt
        Change(actions=[ACTION], seats=[SeatRow(1, "Anna", "hash")]),
        Change(actions=[ACTION], replaced=[1]),
        Change(actions=[ACTION], host_token_hash="hash"),
        Change(actions=[host]),
    ):
        assert carried.carried(change) is None
        assert carried.note(7, 42, change) == "7:42"  # a bare commit: the others read the log
    assert wire.decode(carried.note(7, 42, Change(actions=[ACTION]))) == wire.Played(7, 42, ACTION)


def test_an_action_too_large_for_a_note_is_read_from_the_log() -> None:
    huge = ACTION._replace(action={"type": "play", "note": "x" * wire.MAX_PAYLOAD_BYTES})
    assert carried.note(7, 42, Change(actions=[huge])) == "7:42"


@pytest.mark.parametrize("known", [1, 10, 29, 40, 57])
@pytest.mark.parametrize("heard", [1, 3])
def test_carried_actions_give_the_table_the_log_gives(
    played: Played, known: int, heard: int
) -> None:
    held = CarriedActions()
    for note in notes(played, range(known + 1, known + heard + 1)):
        held.keep(note)
    after = held.advance(upto(played, known))
    expected = upto(played, known + heard)
    hands = {row.hand_number for row in played.actions[known - 1 : known + heard]}
    if len(hands) > 1 or expected.needs_deal:
        assert after is None  # a hand ended: the next one's deal is in the log
        return
    assert after is not None and after.version == known + heard
    assert same(after, expected)


def test_only_the_actions_that_continue_the_state_are_used(played: Played) -> None:
    held = CarriedActions()
    for note in notes(played, range(3, 6)):  # 3, 4, 5 heard
        held.keep(note)
    assert held.advance(upto(played, 1)) is None  # 2 is missing: read the log
    after = held.advance(upto(played, 3))  # 3 already held: 4 and 5 continue it
    assert after is not None and after.version == 5 and same(after, upto(played, 5))
    assert len(held) == 2  # what the state had passed was dropped
    assert held.advance(upto(played, 5)) is None  # nothing newer


def test_an_action_that_does_not_continue_the_state_is_not_applied(played: Played) -> None:
    held = CarriedActions()
    # Version 6 said to be the action that was really the 8th: not the next seq.
    held.keep(wire.Played(7, 6, played.actions[7]))
    assert held.advance(upto(played, 5)) is None
    # The right seq but another seat's move: the engine refuses it, the log is read.
    wrong = played.actions[5]._replace(seat=(played.actions[5].seat + 1) % 3)
    held.keep(wire.Played(7, 6, wrong))
    assert held.advance(upto(played, 5)) is None


def test_nothing_is_held_for_a_table_once_forgotten(played: Played) -> None:
    held = CarriedActions()
    for note in notes(played, range(2, 4)):
        held.keep(note)
    held.keep(replace(notes(played, range(2, 3))[0], table_id=8))
    held.forget(7)
    assert len(held) == 1 and held.advance(upto(played, 1)) is None
