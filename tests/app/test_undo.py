"""Undo by consent: the player who made the last action asks, the other people at the table
agree (bots and stand-ins at once), and the server takes the action back through the single
writer, only while nothing else happened since. The log keeps both rows (the action and an
undo marker) and every replay, e.g. after a restart, honours the marker."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from starlette.testclient import TestClient, WebSocketTestSession

from app.room import consent
from tests.app.helpers import (
    choose,
    create_table,
    next_of_type,
    receive,
    seat_everyone,
    view_at,
)
from tests.app.test_persistence import read_log, seated, without_presence

View = dict[str, Any]


def _act(sockets: list[WebSocketTestSession], views: list[View]) -> tuple[int, list[View]]:
    """The seat to move plays; returns (that seat, everyone's next view)."""
    mover = views[0]["view"]["to_move"]
    version = views[0]["version"]
    action = choose(views[mover]["view"])
    sockets[mover].send_json({"type": "action", "version": version, "action": action})
    return mover, [view_at(ws, version + 1) for ws in sockets]


def _undo(ws: WebSocketTestSession, state: str | None = None) -> dict[str, Any]:
    """The next undo message (with ``state``: the first in that state)."""
    while True:
        message = next_of_type(ws, "undo")
        if state is None or message["state"] == state:
            return message


def _done_and_view(ws: WebSocketTestSession, version: int, state: str = "done") -> View:
    """Both the undo message in ``state`` and the view at ``version``, in whichever order."""
    done, view = False, None
    while not (done and view is not None):
        message = receive(ws)
        if message["type"] == "undo":
            done = done or message["state"] == state
        elif message["type"] == "view" and message["version"] >= version:
            view = message
    return view


def test_agreed_undo_takes_the_move_back_and_the_log_keeps_both_rows(
    make_app: Callable[..., FastAPI], database_url: str
) -> None:
    with TestClient(make_app()) as client:
        code = create_table(client, players=3)
        tokens = seat_everyone(client, code)
        with seated(client, code, tokens) as (sockets, views):
            before = views
            mover, views = _act(sockets, views)
            assert views[0]["view"]["undoable_by"] == mover
            others = [seat for seat in range(3) if seat != mover]
            version = views[0]["version"]
            sockets[mover].send_json({"type": "undo_ask", "version": version})
            asked = _undo(sockets[others[0]])
            assert asked["state"] == "asked" and asked["seat"] == mover
            assert asked["waiting"] == others
            for seat in others:
                sockets[seat].send_json({"type": "undo_answer", "version": version, "allow": True})
            # Everyone hears it is done and sees the table one version on (in either order:
            # replies are sent before the newest view).
            back = [_done_and_view(ws, version + 1) for ws in sockets]
        for seat in range(3):
            # The table as before the move (but at a newer version), for every seat.
            ignored = {"version": 0, "undoable_by": None, "seats": None}
            assert {**back[seat]["view"], **ignored} == {**before[seat]["view"], **ignored}
        assert back[0]["view"]["undoable_by"] is None  # one undo per move
    _table, actions, _hands = read_log(database_url, code)
    assert [row.action["type"] for row in actions][-1] == "undo"
    assert len(actions) == 2  # the action stays in the log, followed by its marker
    # A restarted server replays the log to the same table.
    with (
        TestClient(make_app()) as restarted,
        restarted.websocket_connect(f"/ws/{code}?token={tokens[0]}") as ws,
    ):
        replayed = next_of_type(ws, "view")
    assert replayed["version"] == back[0]["version"]
    assert without_presence(replayed["view"]) == without_presence(back[0]["view"])


def test_a_refusal_cancels_and_changes_nothing(client: TestClient) -> None:
    code = create_table(client, players=3)
    tokens = seat_everyone(client, code)
    with seated(client, code, tokens) as (sockets, views):
        mover, views = _act(sockets, views)
        other = (mover + 1) % 3
        version = views[0]["version"]
        sockets[mover].send_json({"type": "undo_ask", "version": version})
        assert _undo(sockets[other])["state"] == "asked"
        sockets[other].send_json({"type": "undo_answer", "version": version, "allow": False})
        refused = _undo(sockets[mover], "refused")
        assert refused["state"] == "refused" and refused["by"] == other
        # Nothing changed: the next player plays on the same version.
        _next, after = _act(sockets, views)
        assert after[0]["version"] == version + 1


def test_an_unanswered_request_expires(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(consent, "UNDO_SECONDS", 0.3)
    code = create_table(client, players=3)
    tokens = seat_everyone(client, code)
    with seated(client, code, tokens) as (sockets, views):
        mover, views = _act(sockets, views)
        sockets[mover].send_json({"type": "undo_ask", "version": views[0]["version"]})
        assert _undo(sockets[mover])["state"] == "asked"
        assert _undo(sockets[mover], "expired")["by"] is None


def test_no_undo_once_another_move_was_made(client: TestClient) -> None:
    code = create_table(client, players=3)
    tokens = seat_everyone(client, code)
    with seated(client, code, tokens) as (sockets, views):
        first, views = _act(sockets, views)
        version = views[0]["version"]
        sockets[first].send_json({"type": "undo_ask", "version": version})
        assert _undo(sockets[first])["state"] == "asked"
        # The next player moves before everyone agreed: the request is cancelled ...
        second = views[0]["view"]["to_move"]
        action = choose(views[second]["view"])
        sockets[second].send_json({"type": "action", "version": version, "action": action})
        views = [_done_and_view(ws, version + 1, "cancelled") for ws in sockets]
        assert views[0]["view"]["undoable_by"] == second
        # ... and the first move can no longer be taken back (it is not the last one).
        sockets[first].send_json({"type": "undo_ask", "version": views[0]["version"]})
        assert next_of_type(sockets[first], "error")["code"] == "nothing_to_undo"
        # Answering a request that does not exist is refused too.
        sockets[first].send_json(
            {"type": "undo_answer", "version": views[0]["version"], "allow": True}
        )
        assert next_of_type(sockets[first], "error")["code"] == "no_undo_request"


def test_only_the_last_mover_asks_and_people_away_need_not_agree(client: TestClient) -> None:
    code = create_table(client, players=3)
    tokens = seat_everyone(client, code)
    with seated(client, code, tokens[:2]) as (sockets, views):
        # Seat 2 is not connected: one yes from the other connected person is enough (seat 2
        # counts as away). The first hand's dealer, seat 0, opens the auction (C3), so the
        # first mover is one of the two people here.
        mover = views[0]["view"]["to_move"]
        assert mover in (0, 1)
        action = choose(views[mover]["view"])
        version = views[0]["version"]
        sockets[mover].send_json({"type": "action", "version": version, "action": action})
        views = [view_at(ws, version + 1) for ws in sockets]
        other = 1 - mover
        sockets[other].send_json({"type": "undo_ask", "version": version + 1})
        assert next_of_type(sockets[other], "error")["code"] == "nothing_to_undo"
        sockets[mover].send_json({"type": "undo_ask", "version": version + 1})
        asked = _undo(sockets[other])
        assert asked["waiting"] == [other]
        sockets[other].send_json({"type": "undo_answer", "version": version + 1, "allow": True})
        assert _done_and_view(sockets[mover], version + 2)["view"]["to_move"] == mover


def test_who_must_agree() -> None:
    people = [0, 1, 3]  # seat 2 is a bot
    connected = (True, True, False, True)
    assert consent.who_must_agree(
        asking=0, people=people, connected=connected, stand_ins=frozenset()
    ) == {1, 3}
    # Away, or played by a stand-in bot: agrees at once.
    assert (
        consent.who_must_agree(
            asking=0, people=people, connected=(True, False, False, True), stand_ins=frozenset({3})
        )
        == set()
    )
