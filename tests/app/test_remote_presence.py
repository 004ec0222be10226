"""Other processes' presence (``app/cluster/presence.py``): announcements add up per table,
this process's own are ignored, and a process's seats count while it is heard from (its
heartbeat, every round): one silent for three rounds is forgotten with all it announced."""

from __future__ import annotations

from app.cluster.presence import PRESENCE_ROUNDS, RemotePresence
from app.protocol.wire import Presence


def test_announcements_add_up_and_expire_unless_renewed() -> None:
    now = [100.0]
    remote = RemotePresence(process="here", clock=lambda: now[0])
    assert not remote.heard(Presence(7, "here", 0b111))  # our own, coming back
    assert remote.seats(7, 3) == (False, False, False)
    assert remote.heard(Presence(7, "a", 0b001)) and remote.heard(Presence(7, "b", 0b100))
    assert remote.heard(Presence(8, "a", 0b010))  # a table not cached here: kept too
    assert remote.seats(7, 3) == (True, False, True) and remote.seats(8, 3) == (False, True, False)
    now[0] += PRESENCE_ROUNDS * 2.0 - 1
    remote.heard(Presence(7, "b", 0b100))  # b renews, a does not
    assert remote.expire(2.0) == []
    now[0] += 2
    assert sorted(remote.expire(2.0)) == [7, 8]
    assert remote.seats(7, 3) == (False, False, True) and remote.seats(8, 3) == (
        False,
        False,
        False,
    )


def test_a_heartbeat_keeps_a_process_seats_without_announcing_them_again() -> None:
    now = [0.0]
    remote = RemotePresence(process="here", clock=lambda: now[0])
    assert remote.alive("a")  # new to us: it should hear our seats
    assert not remote.alive("a") and not remote.alive("here")
    remote.heard(Presence(7, "a", 0b011))
    remote.heard(Presence(9, "a", 0b100))
    for _ in range(10):  # a minute of quiet tables: nothing announced, only heartbeats
        now[0] += 2.0
        assert not remote.alive("a")
        assert remote.expire(2.0) == []
    assert remote.seats(7, 3) == (True, True, False) and remote.seats(9, 3) == (False, False, True)
    remote.heard(Presence(9, "a", 0))  # the last socket there left
    assert remote.seats(9, 3) == (False, False, False)
    now[0] += PRESENCE_ROUNDS * 2.0 + 0.5  # killed: no heartbeat any more
    assert remote.expire(2.0) == [7]  # table 9 had nothing left to forget
    assert remote.seats(7, 3) == (False, False, False)
    assert remote.alive("a")  # back (restarted): new again


def test_a_lost_goodbye_does_not_leave_a_seat_connected() -> None:
    """Notes may be lost while a connection is down (here: "nobody at table 9 any more").
    After a hello, what is not announced again within a round is dropped; what is, stays."""
    now = [0.0]
    remote = RemotePresence(process="here", clock=lambda: now[0])
    remote.heard(Presence(7, "a", 0b001))
    remote.heard(Presence(9, "a", 0b010))
    remote.heard(Presence(9, "b", 0b100))
    now[0] += 1.0
    remote.reconfirm("a")  # a said hello: it announces all its seats again, at once
    remote.heard(Presence(7, "a", 0b001))  # table 9's goodbye from a was lost
    now[0] += 0.5
    assert remote.expire(2.0) == []  # not a round yet
    now[0] += 1.5
    for process in ("a", "b"):
        remote.alive(process)  # their heartbeats
    assert remote.expire(2.0) == [9]
    assert remote.seats(7, 3) == (True, False, False)
    assert remote.seats(9, 3) == (False, False, True)  # b's seat was not asked about
    remote.reconfirm()  # our listener reconnected: everyone's must be confirmed
    now[0] += 2.0
    for process in ("a", "b"):
        remote.alive(process)  # their heartbeats
    assert sorted(remote.expire(2.0)) == [7, 9]  # nobody answered
    assert remote.seats(7, 3) == remote.seats(9, 3) == (False, False, False)
