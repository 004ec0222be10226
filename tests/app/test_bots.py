"""Bots at the table: the host token, seating bots, and bots playing through the server.

Every test runs on SQLite and PostgreSQL (the ``client`` fixture); bots move without delay.
"""

from __future__ import annotations

import hashlib
import logging
import random
import time
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import pytest
from sqlalchemy import create_engine, select
from starlette.testclient import TestClient, WebSocketTestSession

import engine
from app.bots import runner as runner_mod
from app.config import sync_database_url
from app.tables.models import Table
from tests.app.helpers import choose, join, next_of_type, receive, view_at
from tests.waiting import wait_until

View = dict[str, Any]


@pytest.fixture(autouse=True)
def no_bot_delay(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOT_DELAY_MS", "0")


def new_table(client: TestClient, players: int = 3, **options: Any) -> tuple[str, str]:
    """A table and its host token; the client keeps the host cookie."""
    response = client.post("/api/tables", json={"players": players, **options})
    assert response.status_code == 201, response.text
    body = response.json()
    return body["invite_code"], body["host_token"]


def add_bot(
    client: TestClient, code: str, seat: int | None, level: str = "heuristic", **kwargs: Any
) -> Any:
    body: dict[str, Any] = {"level": level}
    if seat is not None:
        body["seat"] = seat
    return client.post(f"/api/tables/{code}/bots", json=body, **kwargs)


def seats(client: TestClient, code: str) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = client.get(f"/api/tables/{code}").json()["seats"]
    return result


def drive(
    observer: WebSocketTestSession,
    people: dict[int, WebSocketTestSession],
    stop: Callable[[View], bool],
    limit: int = 5000,
) -> View:
    """Follow the table on ``observer``; each person whose turn it is plays ``choose``.
    Bots move by themselves. Returns the first view (as seen by ``observer``) that ``stop``s
    (a person to move in it has already been told to play)."""
    for _ in range(limit):
        message = next_of_type(observer, "view")
        view = message["view"]
        # Act before checking: a later drive() must not find the table waiting for a turn
        # this one saw last and left unplayed.
        mover = view["to_move"]
        if mover in people and view["status"] == "playing" and view["phase"] != "over":
            socket = people[mover]
            own = message if socket is observer else view_at(socket, message["version"])
            if own["version"] == message["version"] and own["view"]["prompt"] is not None:
                action = choose(own["view"])
                socket.send_json({"type": "action", "version": own["version"], "action": action})
        if stop(view):
            return view
    raise AssertionError("the table did not get there")


def stays_at(ws: WebSocketTestSession, version: int, wait: float) -> bool:
    """Whether every view ``ws`` gets within ``wait`` seconds is still at ``version``
    (presence updates repeat the version; a move would bump it)."""
    deadline = time.monotonic() + wait
    while (left := deadline - time.monotonic()) > 0:
        try:
            message = receive(ws, timeout=left)
        except TimeoutError:
            break
        if message["type"] == "view" and message["version"] != version:
            return False
    return True


# -- the host token -------------------------------------------------------------------------


def test_the_creator_gets_a_host_token_stored_only_as_its_hash(
    client: TestClient, database_url: str
) -> None:
    response = client.post("/api/tables", json={"players": 3})
    body = response.json()
    code, token = body["invite_code"], body["host_token"]
    assert len(token) >= 32  # 24 random bytes = 192 bits
    cookie = next(value for value in response.headers.get_list("set-cookie") if "mu_host_" in value)
    assert cookie.startswith(f"mu_host_{code}={token};")
    assert "HttpOnly" in cookie and f"Path=/api/tables/{code}" in cookie
    db = create_engine(sync_database_url(database_url))
    try:
        with db.connect() as conn:
            stored = conn.execute(
                select(Table.host_token_hash).where(Table.invite_code == code)
            ).scalar_one()
    finally:
        db.dispose()
    assert stored == hashlib.sha256(token.encode()).hexdigest()
    assert client.get(f"/api/tables/{code}").json()["host"] is True
    client.cookies.clear()
    assert client.get(f"/api/tables/{code}").json()["host"] is False


def test_only_the_host_seats_bots(client: TestClient) -> None:
    code, token = new_table(client)
    client.cookies.clear()
    stranger = add_bot(client, code, 1)
    assert stranger.status_code == 403 and stranger.json()["detail"]["code"] == "not_host"
    forged = add_bot(client, code, 1, headers={"Authorization": "Bearer forged"})
    assert forged.status_code == 403
    other_code, other_token = new_table(client)  # a host of another table is a stranger here
    client.cookies.clear()
    bearer = {"Authorization": f"Bearer {other_token}"}
    assert add_bot(client, code, 1, headers=bearer).status_code == 403
    assert seats(client, code)[1]["occupied"] is False

    seated = add_bot(client, code, 1, "search", headers={"Authorization": f"Bearer {token}"})
    assert seated.status_code == 201
    assert seated.json() == {"seat": 1, "name": "Alan", "level": "search"}
    assert seats(client, code)[1] == {
        "seat": 1,
        "name": "Alan",
        "occupied": True,
        "bot": True,
        "bot_level": "search",
        "connected": False,
        "bot_playing": False,
        "opened": False,  # a bot's seat the host opened for someone new
    }
    assert add_bot(client, other_code, None, headers=bearer).json()["seat"] == 0


def test_bot_seat_errors(client: TestClient) -> None:
    code, _token = new_table(client)  # the client holds the host cookie
    assert add_bot(client, code, 2, "random").status_code == 201
    taken = add_bot(client, code, 2)
    assert taken.status_code == 409 and taken.json()["detail"]["code"] == "seat_taken"
    join(client, code, "Anna", seat=0)
    person = add_bot(client, code, 0)
    assert person.status_code == 409
    assert add_bot(client, code, 1, "genius").status_code == 422
    outside = add_bot(client, code, 3)
    assert outside.status_code == 422 and outside.json()["detail"]["code"] == "no_such_seat"
    assert add_bot(client, "no-such-table", 1).status_code == 404
    assert add_bot(client, code, None).json()["seat"] == 1  # the first free seat
    full = add_bot(client, code, None)
    assert full.status_code == 409 and full.json()["detail"]["code"] == "table_full"


# -- bots at play ---------------------------------------------------------------------------


class SpyBot:
    """Wraps a real bot and checks every call against the table's true state."""

    def __init__(self, inner: Any, client: TestClient, code: str, calls: list[str]) -> None:
        self.name = inner.name
        self._inner = inner
        self._client = client
        self._code = code
        self.calls = calls

    def act(self, view: engine.HandView, rng: random.Random) -> engine.Action:
        hub = self._client.app.state.hub  # type: ignore[attr-defined]
        live = hub._rooms[self._code].live
        seat = live.hand.to_move
        # Exactly the engine's view for the seat to move: no table extras, no other hand.
        if view != engine.view(live.hand, seat):
            self.calls.append("not the seat's engine view")
        if not isinstance(view, engine.HandView) or view.seat != seat or view.prompt is None:
            self.calls.append("wrong view")
        self.calls.append("ok")
        action: engine.Action = self._inner.act(view, rng)
        return action


def test_bots_see_only_their_view_and_play_only_legal_actions(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    calls: list[str] = []
    code, _token = new_table(client, players=4, hands=1)
    real = runner_mod.make_bot
    monkeypatch.setattr(
        runner_mod, "make_bot", lambda level: SpyBot(real(level), client, code, calls)
    )
    for seat, level in ((1, "random"), (2, "heuristic"), (3, "random")):
        assert add_bot(client, code, seat, level).status_code == 201
    token = join(client, code, "Anna", seat=0)
    caplog.set_level(logging.WARNING, logger="app.bots")
    with client.websocket_connect(f"/ws/{code}?token={token}") as ws:
        final = drive(ws, {0: ws}, lambda view: view["game_over"])
    # The bots' decisions are seeded by the table's id among others, which depends on the
    # tests that ran before on the same database: the auction may end the hand before any
    # card is played (seen with three workers), else every card was played.
    kind = final["last_result"]["kind"]
    assert final["seat"] == 0 and kind in ("played", "stalemate", "all_passed")
    assert kind != "played" or len(final["hand"]) == 0
    assert calls and set(calls) == {"ok"}, set(calls)
    assert not [r for r in caplog.records if r.name.startswith("app.bots")]


def test_one_person_and_four_bots_play_a_game_to_the_end(client: TestClient) -> None:
    code, _token = new_table(client, players=5, hands=2)
    for seat, level in ((1, "heuristic"), (2, "random"), (3, "search"), (4, "expert")):
        assert add_bot(client, code, seat, level).status_code == 201
    token = join(client, code, "Anna", seat=0)
    with client.websocket_connect(f"/ws/{code}?token={token}") as ws:
        final = drive(ws, {0: ws}, lambda view: view["game_over"])
    sheet = client.get(f"/api/tables/{code}/scoresheet").json()
    assert sheet["over"] and len(sheet["rows"]) == 2 and sheet["winners"]
    assert final["totals"] == sheet["totals"] and final["winners"] == sheet["winners"]
    assert [seat["bot_level"] for seat in final["seats"]] == [
        None,
        "heuristic",
        "random",
        "search",
        "expert",
    ]
    info = client.get(f"/api/tables/{code}").json()
    assert info["status"] == "over"
    # The table's task ends with the game: finished tables do not keep tasks alive.
    runner = client.app.state.bots  # type: ignore[attr-defined]
    wait_until(lambda: code not in runner.watching, 10, "the finished table keeps its task")


def test_a_person_takes_a_bots_seat_back(client: TestClient) -> None:
    code, _token = new_table(client, players=3)
    add_bot(client, code, 1)
    add_bot(client, code, 2)
    anna = join(client, code, "Anna", seat=0)  # the game starts
    client.cookies.clear()
    with ExitStack() as stack:
        ws0 = stack.enter_context(client.websocket_connect(f"/ws/{code}?token={anna}"))
        drive(ws0, {0: ws0}, lambda view: view["to_move"] == 0 and view["version"] > 5)
        # Bert takes seat 1 through the invite link, without asking for a seat: the first
        # seat a person can take is a bot's.
        taken = client.post(f"/api/tables/{code}/seats", json={"name": "Bert"})
        assert taken.status_code == 201 and taken.json()["seat"] == 1
        bert = taken.json()["token"]
        client.cookies.clear()
        seat_one = seats(client, code)[1]
        assert seat_one["name"] == "Bert" and seat_one["bot"] is False
        ws1 = stack.enter_context(client.websocket_connect(f"/ws/{code}?token={bert}"))
        # From now on nobody moves for seat 1 but Bert.
        view = drive(ws0, {0: ws0}, lambda v: v["to_move"] == 1 and v["seats"][1]["name"] == "Bert")
        assert stays_at(ws0, view["version"], wait=0.3)
        mine = view_at(ws1, view["version"])
        assert mine["view"]["prompt"] is not None and len(mine["view"]["hand"]) > 0
        action = {"type": "action", "version": mine["version"], "action": choose(mine["view"])}
        ws1.send_json(action)
        assert view_at(ws0, mine["version"] + 1)["version"] == mine["version"] + 1
    assert seats(client, code)[2]["bot"] is True


def test_a_bot_plays_for_an_away_person_until_they_return(client: TestClient) -> None:
    code, _token = new_table(client, players=3, takeover_seconds=0.2)
    tokens = [join(client, code, name, seat) for seat, name in enumerate(("Anna", "Bert", "Cleo"))]
    client.cookies.clear()
    with ExitStack() as stack:
        ws0, ws2 = (
            stack.enter_context(client.websocket_connect(f"/ws/{code}?token={tokens[seat]}"))
            for seat in (0, 2)
        )
        people = {0: ws0, 2: ws2}
        # Bert never came: after 0.2 s a bot plays for him, and the views say so.
        marked = drive(ws0, people, lambda view: view["seats"][1]["bot_playing"])
        assert marked["seats"][1]["connected"] is False
        assert not marked["seats"][0]["bot_playing"] and not marked["seats"][2]["bot_playing"]
        start = marked["version"]
        # The stand-in plays Bert's turns: the table gets past several of them.
        drive(ws0, people, lambda view: view["version"] >= start + 12)
        # Bert returns: control is his again at once.
        ws1 = stack.enter_context(client.websocket_connect(f"/ws/{code}?token={tokens[1]}"))
        back = drive(ws0, people, lambda view: view["seats"][1]["connected"])
        assert back["seats"][1]["bot_playing"] is False
        view = drive(ws0, people, lambda view: view["to_move"] == 1)
        assert stays_at(ws0, view["version"], wait=0.4)  # nobody moves for Bert any more
        own = view_at(ws1, view["version"])
        assert own["view"]["prompt"] is not None
        ws1.send_json({"type": "action", "version": own["version"], "action": choose(own["view"])})
        assert view_at(ws0, own["version"] + 1)["version"] == own["version"] + 1


def test_everyone_sees_the_takeover_countdown_of_an_away_person(client: TestClient) -> None:
    """While a person is away, every view carries when the bot will take over (Unix time, the
    table's takeover_seconds after they left); once it has, or they are back, it is gone."""
    code, _token = new_table(client, players=3, takeover_seconds=3)
    tokens = [join(client, code, name, seat) for seat, name in enumerate(("Anna", "Bert", "Cleo"))]
    client.cookies.clear()
    with ExitStack() as stack:
        ws0, ws2 = (
            stack.enter_context(client.websocket_connect(f"/ws/{code}?token={tokens[seat]}"))
            for seat in (0, 2)
        )
        people = {0: ws0, 2: ws2}
        counting = drive(ws0, people, lambda view: view["seats"][1]["takeover_at"] is not None)
        left = counting["seats"][1]["takeover_at"] - time.time()
        assert 0 < left <= 3.1  # rounded to a tenth
        assert counting["seats"][1]["bot_playing"] is False
        assert counting["seats"][0]["takeover_at"] is None  # connected: no countdown
        spectator = stack.enter_context(client.websocket_connect(f"/ws/{code}"))
        assert next_of_type(spectator, "view")["view"]["seats"][1]["takeover_at"] is not None
        taken = drive(ws0, people, lambda view: view["seats"][1]["bot_playing"])
        assert taken["seats"][1]["takeover_at"] is None
        assert time.time() >= counting["seats"][1]["takeover_at"] - 0.05
        # Cleo leaves: her countdown starts; she returns before it ends: no bot, no countdown.
        ws2.close()
        del people[2]
        gone = drive(ws0, people, lambda view: view["seats"][2]["takeover_at"] is not None)
        assert gone["seats"][2]["connected"] is False
        stack.enter_context(client.websocket_connect(f"/ws/{code}?token={tokens[2]}"))
        back = drive(ws0, people, lambda view: view["seats"][2]["connected"])
        assert back["seats"][2]["takeover_at"] is None and not back["seats"][2]["bot_playing"]


def test_no_takeover_when_the_table_turns_it_off(client: TestClient) -> None:
    code, _token = new_table(client, players=3, takeover_seconds=None)
    tokens = [join(client, code, name, seat) for seat, name in enumerate(("Anna", "Bert", "Cleo"))]
    client.cookies.clear()
    assert client.get(f"/api/tables/{code}").json()["options"]["takeover_seconds"] is None
    with ExitStack() as stack:
        ws0, ws2 = (
            stack.enter_context(client.websocket_connect(f"/ws/{code}?token={tokens[seat]}"))
            for seat in (0, 2)
        )
        view = drive(ws0, {0: ws0, 2: ws2}, lambda view: view["to_move"] == 1)
        assert stays_at(ws0, view["version"], wait=0.5)
        assert view["seats"][1]["bot_playing"] is False
        assert view["seats"][1]["takeover_at"] is None


def test_decision_seeds_are_fixed_per_table_hand_and_version() -> None:
    seed = runner_mod.decision_seed
    base = {"deal_seed": 7, "table_id": 1, "hand": 1, "version": 10}
    assert seed(**base) == seed(**base)
    for key in base:
        assert seed(**{**base, key: base[key] + 1}) != seed(**base)
