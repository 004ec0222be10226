"""The host's table (issue 28): remove a person, hand over, close, send spectators away.

Every test runs on SQLite and PostgreSQL (the ``client`` fixture).
"""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from app.protocol import inbound
from tests.app.helpers import join, receive_raw, view_at


@pytest.fixture(autouse=True)
def no_bot_delay(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOT_DELAY_MS", "0")


def host_table(client: TestClient, players: int = 3) -> tuple[str, str, list[str]]:
    """A full table (hand 1 dealt): (code, host token, seat tokens); the host is seat 0."""
    body = client.post("/api/tables", json={"players": players}).json()
    code, host = body["invite_code"], body["host_token"]
    client.cookies.clear()
    seats = [join(client, code, name, seat) for seat, name in enumerate(("Anna", "Bert", "Cleo"))]
    client.cookies.clear()
    return code, host, seats


def as_host(host: str, seat_token: str | None = None) -> dict[str, Any]:
    params = {"token": seat_token} if seat_token else {}
    return {"headers": {"Authorization": f"Bearer {host}"}, "params": params}


def closed_with(ws: Any) -> int:
    """Read until the socket is closed; its close code."""
    while True:
        message = receive_raw(ws)
        if message["type"] == "websocket.close":
            return int(message["code"])


def test_removing_a_person_closes_their_socket_and_a_bot_plays_on(client: TestClient) -> None:
    code, host, seats = host_table(client)
    with (
        client.websocket_connect(f"/ws/{code}?token={seats[0]}") as anna,
        client.websocket_connect(f"/ws/{code}?token={seats[1]}") as bert,
    ):
        before = view_at(anna, 0)
        hand = before["view"]
        response = client.post(
            f"/api/tables/{code}/host/remove",
            json={"seat": 1, "to": "bot"},
            **as_host(host, seats[0]),
        )
        assert response.status_code == 200, response.text
        assert response.json() == {
            "event": "remove",
            "by": "Anna",
            "detail": {"seat": 1, "name": "Bert", "to": "bot"},
        }
        assert closed_with(bert) == inbound.CLOSE_REMOVED
        after = view_at(anna, before["version"] + 1)["view"]
        assert after["seats"][1]["bot"] is True
        assert after["host_event"] == {
            "event": "remove",
            "seat": 1,
            "name": "Bert",
            "to": "bot",
            "by": "Anna",
        }
        assert after["hand"] == hand["hand"]  # the hand stays exact
    # The old token is dead: no socket, no rejoin.
    with client.websocket_connect(f"/ws/{code}?token={seats[1]}") as ws:
        assert receive_raw(ws)["code"] == inbound.CLOSE_BAD_TOKEN
    assert client.post(f"/api/tables/{code}/rejoin", json={"token": seats[1]}).status_code == 404
    # Replays show it: a fresh process (cache dropped) rebuilds the same seats.
    info = client.get(f"/api/tables/{code}").json()
    assert info["seats"][1]["bot"] is True


def test_host_actions_without_the_host_token_change_nothing(client: TestClient) -> None:
    code, host, seats = host_table(client)
    version = client.get(f"/api/tables/{code}").json()["version"]
    for auth in ({}, as_host("wrong"), as_host(seats[1]), {"params": {"token": seats[1]}}):
        for path, body in (
            ("remove", {"seat": 2}),
            ("handover", {"seat": 2}),
            ("close", {"newcomers": True, "spectators": True}),
            ("spectators", None),
        ):
            response = client.post(f"/api/tables/{code}/host/{path}", json=body, **auth)
            assert response.status_code == 403, (path, response.text)
            assert response.json()["detail"]["code"] == "not_host"
    assert client.get(f"/api/tables/{code}").json()["version"] == version


def test_removing_an_empty_seat_a_bot_or_yourself_is_refused(client: TestClient) -> None:
    body = client.post("/api/tables", json={"players": 3}).json()
    code, host = body["invite_code"], body["host_token"]
    anna = join(client, code, "Anna", 0)
    client.cookies.clear()
    assert (
        client.post(f"/api/tables/{code}/bots", json={"seat": 1}, **as_host(host)).status_code
        == 201
    )
    cases = {2: "seat_empty", 1: "seat_is_bot", 0: "remove_self", 7: "no_such_seat"}
    for seat, wanted in cases.items():
        response = client.post(
            f"/api/tables/{code}/host/remove", json={"seat": seat}, **as_host(host, anna)
        )
        assert response.json()["detail"]["code"] == wanted, response.text
        assert response.status_code == (422 if wanted == "no_such_seat" else 409)


def test_handover_moves_the_host_token_to_the_seat(client: TestClient) -> None:
    code, host, seats = host_table(client)
    response = client.post(
        f"/api/tables/{code}/host/handover", json={"seat": 2}, **as_host(host, seats[0])
    )
    assert response.status_code == 200, response.text
    # The old host token is dead; Cleo's seat token (her rejoin link) is the host token now.
    close = {"newcomers": True, "spectators": False}
    assert (
        client.post(f"/api/tables/{code}/host/close", json=close, **as_host(host)).status_code
        == 403
    )
    client.cookies.clear()
    claimed = client.post(f"/api/tables/{code}/host/claim", params={"token": seats[2]})
    assert claimed.json() == {"host": True}
    assert client.cookies.get(f"mu_host_{code}") == seats[2]
    assert client.get(f"/api/tables/{code}").json()["host"] is True
    client.cookies.clear()
    assert client.post(f"/api/tables/{code}/host/claim", params={"token": seats[1]}).json() == {
        "host": False
    }
    assert (
        client.post(
            f"/api/tables/{code}/host/handover", json={"seat": 1}, **as_host(seats[2])
        ).status_code
        == 200
    )


def test_a_closed_table_refuses_newcomers_and_spectators(client: TestClient) -> None:
    body = client.post("/api/tables", json={"players": 3}).json()
    code, host = body["invite_code"], body["host_token"]
    client.cookies.clear()
    anna = join(client, code, "Anna", 0)
    client.cookies.clear()
    with client.websocket_connect(f"/ws/{code}") as spectator:
        view_at(spectator, 0)
        response = client.post(
            f"/api/tables/{code}/host/close",
            json={"newcomers": True, "spectators": True},
            **as_host(host),
        )
        assert response.status_code == 200
        client.post(f"/api/tables/{code}/host/spectators", **as_host(host))
        assert closed_with(spectator) == inbound.CLOSE_REMOVED
    refused = client.post(f"/api/tables/{code}/seats", json={"name": "Stranger"})
    assert refused.status_code == 403 and refused.json()["detail"]["code"] == "table_closed"
    with client.websocket_connect(f"/ws/{code}") as ws:
        assert receive_raw(ws)["code"] == inbound.CLOSE_TABLE_CLOSED
    with client.websocket_connect(f"/ws/{code}?token={anna}") as ws:  # a seated person gets in
        assert view_at(ws, 0)["view"]["closed_to_newcomers"] is True
    client.post(
        f"/api/tables/{code}/host/close",
        json={"newcomers": False, "spectators": False},
        **as_host(host),
    )
    assert client.post(f"/api/tables/{code}/seats", json={"name": "Friend"}).status_code == 201


def test_an_opened_seat_is_taken_by_a_newcomer(client: TestClient) -> None:
    code, host, seats = host_table(client)
    response = client.post(
        f"/api/tables/{code}/host/remove", json={"seat": 1, "to": "open"}, **as_host(host)
    )
    assert response.status_code == 200
    client.cookies.clear()
    taken = client.post(f"/api/tables/{code}/seats", json={"name": "Dora"})
    assert taken.status_code == 201, taken.text
    assert taken.json()["seat"] == 1
    # A whole hand plays on through the change.
    with client.websocket_connect(f"/ws/{code}?token={taken.json()['token']}") as ws:
        view = view_at(ws, 0)
        assert view["view"]["seats"][1]["name"] == "Dora"


def test_the_removed_person_learns_from_the_info_whether_the_invite_link_seats_them(
    client: TestClient,
) -> None:
    """Issue 38.6: the info says which seats a newcomer may take (``opened``, and
    ``closed_to_newcomers``), and drops the removed person's dead seat cookie."""
    body = client.post("/api/tables", json={"players": 3, "newcomers_take_bots": False}).json()
    code, host = body["invite_code"], body["host_token"]
    client.cookies.clear()
    seats = [join(client, code, name, seat) for seat, name in enumerate(("Anna", "Bert", "Cleo"))]
    client.cookies.clear()
    for seat, to in ((1, "bot"), (2, "open")):
        removed = client.post(
            f"/api/tables/{code}/host/remove", json={"seat": seat, "to": to}, **as_host(host)
        )
        assert removed.status_code == 200, removed.text
    info = client.get(f"/api/tables/{code}").json()
    assert [seat["opened"] for seat in info["seats"]] == [False, False, True]
    assert info["closed_to_newcomers"] is False
    # Bert's browser: its cookie holds no seat any more, and the info expires it.
    client.cookies.set(f"mu_seat_{code}", seats[1])
    answer = client.get(f"/api/tables/{code}")
    assert answer.json()["you"] is None
    assert f"mu_seat_{code}=" in answer.headers["set-cookie"]
    assert "Max-Age=0" in answer.headers["set-cookie"]
    # Anna's cookie still holds her seat: left alone.
    client.cookies.set(f"mu_seat_{code}", seats[0])
    answer = client.get(f"/api/tables/{code}")
    assert answer.json()["you"] == 0 and "set-cookie" not in answer.headers
    client.cookies.clear()
    client.post(
        f"/api/tables/{code}/host/close",
        json={"newcomers": True, "spectators": False},
        **as_host(host),
    )
    assert client.get(f"/api/tables/{code}").json()["closed_to_newcomers"] is True
