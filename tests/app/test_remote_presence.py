"""Other processes' presence (``app/realtime/presence.py``): announcements add up per table,
this process's own are ignored, and a process's seats count while it is heard from (its
heartbeat, every round): one silent for three rounds is forgotten with all it announced."""

from __future__ import annotations

from app.realtime.presence import PRESENCE_ROUNDS, RemotePresence
from app.realtime.wire import Presence


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
