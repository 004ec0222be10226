"""Pause by consent, holidays and the drop-out vote (issue 40, ``app/room/pause.py``): through
the table socket on each test database, the restart, the bots and the takeover clock."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from starlette.testclient import TestClient, WebSocketTestSession

from app.protocol.inbound import ErrorCode
from app.tables import pausing
from app.tables.pausing import PauseState
from tests.app.helpers import choose, create_table, nothing_pending, receive, seat_everyone
from tests.app.test_pace import _scan
from tests.app.test_push import Browser, Receiver, _subscribe, receiver

__all__ = ["receiver"]  # the fixture, used by name

AppFactory = Callable[..., FastAPI]


def until(ws: WebSocketTestSession, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The first message ``wanted`` accepts (views and errors alike)."""
    while True:
        message = receive(ws)
        if wanted(message):
            return message


def pause_of(message: dict[str, Any]) -> dict[str, Any] | None:
    return message["view"].get("pause") if message["type"] == "view" else None


def paused(message: dict[str, Any]) -> bool:
    pause = pause_of(message)
    return pause is not None and pause["paused"]


def error(code: str) -> Callable[[dict[str, Any]], bool]:
    return lambda message: message["type"] == "error" and message["code"] == code


@contextlib.contextmanager
def three_at_the_table(
    client: TestClient, **options: Any
) -> Iterator[tuple[str, list[str], list[WebSocketTestSession]]]:
    code = create_table(client, players=3, takeover_seconds=None, **options)
    tokens = seat_everyone(client, code)
    with contextlib.ExitStack() as stack:
        sockets = [
            stack.enter_context(client.websocket_connect(f"/ws/{code}?token={token}"))
            for token in tokens
        ]
        for ws in sockets:  # everyone sees everyone connected
            until(
                ws,
                lambda m: m["type"] == "view" and all(s["connected"] for s in m["view"]["seats"]),
            )
        yield code, tokens, sockets


def test_everyone_present_agrees_and_the_table_pauses(client: TestClient) -> None:
    with three_at_the_table(client) as (_code, _tokens, sockets):
        sockets[0].send_json({"type": "pause_ask"})
        asked = until(sockets[1], lambda m: (pause_of(m) or {}).get("request") is not None)
        request = pause_of(asked)["request"]  # type: ignore[index]
        assert request["seat"] == 0 and request["agreed"] == [0] and request["waiting"] == [1, 2]
        sockets[1].send_json({"type": "pause_answer", "agree": True})
        until(
            sockets[2],
            lambda m: (
                (pause_of(m) or {}).get("request", {})
                and pause_of(m)["request"]["agreed"] == [0, 1]
            ),
        )  # type: ignore[index]
        sockets[2].send_json({"type": "pause_answer", "agree": True})
        views = [until(ws, paused) for ws in sockets]
        pause = pause_of(views[0])
        assert pause is not None and pause["by"] == [0, 1, 2] and pause["request"] is None
        # Nobody can act while paused: a clear, typed refusal.
        mover = views[0]["view"]["to_move"]
        mine = views[mover]
        sockets[mover].send_json(
            {"type": "action", "version": mine["version"], "action": choose(mine["view"])}
        )
        assert until(sockets[mover], lambda m: m["type"] == "error")["code"] == ErrorCode.PAUSED
        # Anyone resumes; then the move goes through.
        sockets[2].send_json({"type": "resume"})
        resumed = until(sockets[mover], lambda m: m["type"] == "view" and not paused(m))
        sockets[mover].send_json(
            {"type": "action", "version": resumed["version"], "action": choose(resumed["view"])}
        )
        moved = until(
            sockets[mover], lambda m: m["type"] == "view" and m["version"] > resumed["version"]
        )
        assert not paused(moved)


def test_one_refusal_and_the_table_plays_on(client: TestClient) -> None:
    with three_at_the_table(client) as (_code, _tokens, sockets):
        sockets[2].send_json({"type": "pause_ask"})
        until(sockets[0], lambda m: (pause_of(m) or {}).get("request") is not None)
        sockets[0].send_json({"type": "pause_answer", "agree": True})
        sockets[1].send_json({"type": "pause_answer", "agree": False})
        view = until(
            sockets[2], lambda m: ((pause_of(m) or {}).get("last") or {}).get("event") == "refuse"
        )
        pause = pause_of(view)
        assert pause is not None and not pause["paused"] and pause["request"] is None
        assert pause["last"]["seat"] == 1
        # Answering the request that is over is refused; resuming a running table too.
        sockets[0].send_json({"type": "pause_answer", "agree": True})
        assert until(sockets[0], lambda m: m["type"] == "error")["code"] == "no_pause_request"
        sockets[0].send_json({"type": "resume"})
        assert until(sockets[0], lambda m: m["type"] == "error")["code"] == "not_paused"


def test_a_pause_survives_a_restart(make_app: AppFactory) -> None:
    with TestClient(make_app()) as first, three_at_the_table(first) as (code, tokens, sockets):
        sockets[0].send_json({"type": "pause_ask"})
        for seat in (1, 2):
            until(sockets[seat], lambda m: (pause_of(m) or {}).get("request") is not None)
            sockets[seat].send_json({"type": "pause_answer", "agree": True})
        until(sockets[0], paused)
    with TestClient(make_app()) as second:  # a new process on the same database
        with second.websocket_connect(f"/ws/{code}?token={tokens[1]}") as ws:
            view = until(ws, lambda m: m["type"] == "view")
            assert paused(view) and pause_of(view)["by"] == [0, 1, 2]  # type: ignore[index]
            ws.send_json({"type": "resume"})
            assert not paused(until(ws, lambda m: m["type"] == "view" and not paused(m)))


def test_alone_with_bots_pauses_at_once_and_the_bots_wait(client: TestClient) -> None:
    code = create_table(client, players=3)
    token = client.post(f"/api/tables/{code}/seats", json={"name": "Anna", "seat": 0}).json()[
        "token"
    ]
    with client.websocket_connect(f"/ws/{code}?token={token}") as ws:
        ws.send_json({"type": "pause_ask"})  # before the game: nothing to pause
        assert until(ws, lambda m: m["type"] == "error")["code"] == "pause_not_here"
        for seat in (1, 2):
            assert client.post(f"/api/tables/{code}/bots", json={"seat": seat}).status_code == 201
        view = until(ws, lambda m: m["type"] == "view" and m["view"]["status"] == "playing")
        ws.send_json({"type": "pause_ask"})
        view = until(ws, paused)
        assert pause_of(view)["by"] == [0]  # type: ignore[index]
        # The bots do not move while paused (whoever is to move).
        assert nothing_pending(ws, wait=0.6)
        ws.send_json({"type": "resume"})
        until(ws, lambda m: m["type"] == "view" and not paused(m))


def test_correspondence_holiday_is_shown_and_checked(client: TestClient) -> None:
    code = create_table(client, players=3, pace="correspondence")
    tokens = seat_everyone(client, code)
    with (
        client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as mine,
        client.websocket_connect(f"/ws/{code}?token={tokens[1]}") as theirs,
    ):
        until(mine, lambda m: m["type"] == "view")
        mine.send_json({"type": "pause_ask"})  # correspondence tables take holidays instead
        assert until(mine, lambda m: m["type"] == "error")["code"] == "pause_not_here"
        mine.send_json({"type": "holiday", "until": time.time() + 400 * 86_400})
        assert until(mine, lambda m: m["type"] == "error")["code"] == "bad_holiday"
        back = round(time.time() + 3 * 86_400)
        mine.send_json({"type": "holiday", "until": back})
        seen = until(theirs, lambda m: bool((pause_of(m) or {}).get("holidays")))
        assert pause_of(seen)["holidays"] == [[0, back]]  # type: ignore[index]
        mine.send_json({"type": "holiday", "until": None})
        over = until(theirs, lambda m: pause_of(m) is not None and not pause_of(m)["holidays"])  # type: ignore[index]
        assert pause_of(over)["last"]["event"] == "holiday"  # type: ignore[index]


def test_a_dropout_vote_decides_by_majority(client: TestClient) -> None:
    code = create_table(client, players=3, on_dropout="ask")
    tokens = seat_everyone(client, code)
    with (
        client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as anna,
        client.websocket_connect(f"/ws/{code}?token={tokens[1]}") as bert,
    ):
        # Carl (seat 2) never came: the two present are asked.
        view = until(anna, lambda m: len((pause_of(m) or {}).get("dropouts", ())) == 1)
        assert pause_of(view)["dropouts"] == [{"seat": 2, "bot": [], "wait": [], "decided": None}]  # type: ignore[index]
        anna.send_json({"type": "dropout_vote", "seat": 1, "choice": "bot"})  # Bert is here
        assert until(anna, lambda m: m["type"] == "error")["code"] == "no_dropout_vote"
        anna.send_json({"type": "dropout_vote", "seat": 2, "choice": "wait"})
        # One of two said wait: a tie waits.
        view = until(
            bert, lambda m: any(d["decided"] for d in (pause_of(m) or {}).get("dropouts", []))
        )
        assert pause_of(view)["dropouts"][0]["decided"] == "wait"  # type: ignore[index]
        assert not view["view"]["seats"][2]["bot_playing"]
        anna.send_json({"type": "dropout_vote", "seat": 2, "choice": "bot"})
        bert.send_json({"type": "dropout_vote", "seat": 2, "choice": "bot"})
        view = until(anna, lambda m: m["type"] == "view" and m["view"]["seats"][2]["bot_playing"])
        assert pause_of(view)["dropouts"][0]["decided"] == "bot"  # type: ignore[index]
        # Carl comes back: he plays for himself, and the votes about him are over.
        with client.websocket_connect(f"/ws/{code}?token={tokens[2]}"):
            view = until(
                anna,
                lambda m: (
                    pause_of(m) is not None
                    and not pause_of(m)["dropouts"]
                    and m["view"]["seats"][2]["connected"]
                    and ((pause_of(m) or {}).get("last") or {}).get("event") == "back"
                ),
            )  # type: ignore[index]
            assert not view["view"]["seats"][2]["bot_playing"]


def test_the_state_of_the_markers() -> None:
    state = PauseState()
    state = pausing.apply_mark(state, 0, {"event": "ask", "at": 10.0})
    assert state.request is not None and state.request.agreed == {0}
    state = pausing.apply_mark(state, 1, {"event": "agree", "at": 11.0})
    assert state.request is not None and state.request.agreed == {0, 1}
    state = pausing.apply_mark(state, 2, {"event": "paused", "at": 20.0, "by": [0, 1, 2]})
    assert state.paused and state.request is None and state.paused_by == (0, 1, 2)
    # The clock stands still while paused, and goes on after.
    assert pausing.running_time(state, 0.0, 50.0) == 20.0
    state = pausing.apply_mark(state, 1, {"event": "resume", "at": 100.0})
    assert not state.paused and state.pauses == ((20.0, 100.0),)
    assert pausing.running_time(state, 0.0, 110.0) == 30.0
    assert pausing.running_time(state, 50.0, 110.0) == 10.0
    assert pausing.decision({0: "bot"}, [0, 1]) is None
    assert pausing.decision({0: "bot", 1: "bot"}, [0, 1, 2]) == "bot"
    assert pausing.decision({0: "wait"}, [0, 1]) == "wait"


@pytest.mark.parametrize("pace", ["live"])
def test_takeover_clock_goes_on_after_a_pause(pace: str) -> None:
    state = pausing.apply_mark(PauseState(), 0, {"event": "paused", "at": 100.0, "by": [0]})
    state = pausing.apply_mark(state, 0, {"event": "resume", "at": 400.0})
    # Away since 70 s, 60 s takeover: 30 s ran before the pause, 30 more after it.
    assert pausing.running_time(state, 70.0, 430.0) == 60.0


def test_a_holiday_stops_the_reminders_until_it_ends(
    make_app: AppFactory, receiver: Receiver
) -> None:
    browsers = [Browser() for _ in range(3)]
    with TestClient(make_app()) as client:
        code = create_table(client, pace="correspondence", move_hours=24)
        tokens = seat_everyone(client, code)  # deals: the first turn begins now
        began = datetime.now(UTC)
        for seat, (browser, token) in enumerate(zip(browsers, tokens, strict=True)):
            _subscribe(client, code, token, browser.subscription(receiver.url(f"/s/{seat}")), "en")
        back = began + timedelta(days=3)
        with client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as ws:
            mover = until(ws, lambda m: m["type"] == "view")["view"]["to_move"]
        with client.websocket_connect(f"/ws/{code}?token={tokens[mover]}") as ws:
            ws.send_json({"type": "holiday", "until": back.timestamp()})
            until(ws, lambda m: bool((pause_of(m) or {}).get("holidays")))
        # The turn's reminder was due after 22 of 24 hours: the holiday holds it back (the
        # marker began no new turn), the job waits for the holiday's end.
        assert _scan(client, began + timedelta(hours=22, minutes=5)) == 0
        assert _scan(client, began + timedelta(days=2)) == 0
    with TestClient(make_app()) as client:  # a restart changes nothing
        assert _scan(client, back - timedelta(minutes=1)) == 0
        assert _scan(client, back + timedelta(minutes=1)) == 1  # back, and still their turn
        assert _scan(client, back + timedelta(hours=1)) == 0  # once
    arrived = receiver.wait_for(1)
    assert [path for path, _body, _ in arrived] == [f"/s/{mover}"]
