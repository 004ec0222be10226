"""Every refusal on the socket: its own error code, nothing changes, the socket stays open."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import psycopg
import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from tests.app.helpers import (
    choose,
    create_table,
    join,
    next_of_type,
    nothing_pending,
    receive,
    receive_raw,
    seat_everyone,
    step,
    view_at,
)


def everyone_connected(ws: WebSocketTestSession) -> dict[str, Any]:
    while True:
        message = next_of_type(ws, "view")
        if all(seat["connected"] for seat in message["view"]["seats"]):
            return message


class Table:
    """Three connected seats at a freshly dealt table."""

    def __init__(self, client: TestClient, stack: ExitStack) -> None:
        self.client = client
        self.code = create_table(client, players=3)
        self.tokens = seat_everyone(client, self.code)
        self.sockets = [
            stack.enter_context(client.websocket_connect(f"/ws/{self.code}?token={token}"))
            for token in self.tokens
        ]
        # Wait out the presence updates, so that tests see nothing but their own replies.
        self.views = [everyone_connected(ws) for ws in self.sockets]

    @property
    def version(self) -> int:
        return int(self.views[0]["version"])

    @property
    def mover(self) -> int:
        return int(self.views[0]["view"]["to_move"])

    def idle_seat(self) -> int:
        return (self.mover + 1) % 3

    def refused(self, seat: int, payload: Any, *, raw: str | bytes | None = None) -> str:
        """Send, expect exactly one error, and check that no seat saw a change."""
        ws = self.sockets[seat]
        if raw is None:
            ws.send_json(payload)
        elif isinstance(raw, bytes):
            ws.send_bytes(raw)
        else:
            ws.send_text(raw)
        error = receive(ws)
        assert error["type"] == "error" and error["message"], error
        assert all(nothing_pending(other, 0.05) for other in self.sockets)
        ws.send_json({"type": "ping"})  # still open and answering
        assert receive(ws) == {"type": "pong"}
        return str(error["code"])

    def action(self, action: dict[str, Any], version: int | None = None) -> dict[str, Any]:
        return {
            "type": "action",
            "version": self.version if version is None else version,
            "action": action,
        }


@pytest.fixture
def table(client: TestClient) -> Iterator[Table]:
    with ExitStack() as stack:
        yield Table(client, stack)


def test_bad_json(table: Table) -> None:
    assert table.refused(0, None, raw="{not json") == "bad_json"
    assert table.refused(0, None, raw=b"\xff\xfe") == "bad_json"


@pytest.mark.parametrize("raw", ["[" * 1500, "[" * 1500 + "]" * 1500, '{"a":' * 800])
def test_deep_nesting_is_bad_json(table: Table, raw: str) -> None:
    """Issue 14, defect 1: a deeply nested frame (under the size limit) killed the socket
    with a RecursionError; now it is an ordinary ``bad_json`` and the socket stays open."""
    assert len(raw.encode()) <= 4096
    assert table.refused(0, None, raw=raw) == "bad_json"


@pytest.mark.parametrize(
    "payload",
    [
        [],
        "action",
        {"type": "dance"},
        {"version": 1, "action": {"type": "pass"}},
        {"type": "action", "action": {"type": "pass"}},
        {"type": "action", "version": "1", "action": {"type": "pass"}},
        {"type": "action", "version": 1, "action": ["pass"]},
    ],
)
def test_bad_message(table: Table, payload: Any) -> None:
    assert table.refused(0, payload) == "bad_message"


def test_too_large(table: Table) -> None:
    padded = table.action({"type": "pass", "padding": "x" * 5000})
    assert table.refused(table.mover, padded) == "too_large"


def test_stale_version(table: Table) -> None:
    move = choose(table.views[table.mover]["view"])
    code = table.refused(table.mover, table.action(move, version=table.version - 1))
    assert code == "stale_version"
    assert table.refused(table.mover, table.action(move, version=table.version + 5)) == code


def test_not_your_turn(table: Table) -> None:
    assert table.refused(table.idle_seat(), table.action({"type": "pass"})) == "not_your_turn"


def test_wrong_phase(table: Table) -> None:
    card = table.views[table.mover]["view"]["hand"][0]["id"]
    assert table.refused(table.mover, table.action({"type": "play", "card": card})) == "wrong_phase"


def test_engine_rejects_malformed_action(table: Table) -> None:
    assert table.refused(table.mover, table.action({"type": "dance"})) == "bad_action"


def test_illegal_bid(table: Table) -> None:
    hand = [card["id"] for card in table.views[table.mover]["view"]["hand"]]
    too_many = table.action({"type": "bid", "cards": hand[:3]})
    assert table.refused(table.mover, too_many) == "too_many_cards"
    other = table.views[table.idle_seat()]["view"]["hand"][0]["id"]
    not_mine = table.action({"type": "bid", "cards": [other]})
    assert table.refused(table.mover, not_mine) == "card_not_yours"


def test_duplicate_send_applies_once(table: Table) -> None:
    mover, version = table.mover, table.version
    message = table.action(choose(table.views[mover]["view"]))
    table.sockets[mover].send_json(message)
    table.sockets[mover].send_json(message)
    assert view_at(table.sockets[mover], version + 1)["version"] == version + 1
    error = next_of_type(table.sockets[mover], "error")
    assert error["code"] == "stale_version"
    info = table.client.get(f"/api/tables/{table.code}").json()
    assert info["version"] == version + 1


def test_refusals_change_nothing_then_play_goes_on(table: Table) -> None:
    before = table.client.get(f"/api/tables/{table.code}").json()
    table.refused(table.idle_seat(), table.action({"type": "pass"}))
    assert table.client.get(f"/api/tables/{table.code}").json() == before
    table.views = step(table.sockets, table.views)
    assert table.version == before["version"] + 1


def test_an_unreachable_database_is_a_retryable_error(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    writer = table.client.app.state.writer  # type: ignore[attr-defined]
    commit = writer.commit

    async def unreachable(**_change: Any) -> int:
        monkeypatch.setattr(writer, "commit", commit)  # the database is back for the retry
        raise psycopg.OperationalError("connection refused")

    monkeypatch.setattr(writer, "commit", unreachable)
    before = table.client.get(f"/api/tables/{table.code}").json()
    message = table.action(choose(table.views[table.mover]["view"]))
    assert table.refused(table.mover, message) == "unavailable"
    assert table.client.get(f"/api/tables/{table.code}").json() == before
    table.sockets[table.mover].send_json(message)  # the same message again
    assert view_at(table.sockets[0], table.version + 1)["version"] == before["version"] + 1


def test_bad_token_closes_with_policy_violation(client: TestClient) -> None:
    code = create_table(client, players=3)
    with client.websocket_connect(f"/ws/{code}?token=not-a-seat") as ws:
        closed = receive_raw(ws)
    assert closed["type"] == "websocket.close" and closed["code"] == 1008


def test_token_of_another_table_is_refused(client: TestClient) -> None:
    code = create_table(client, players=3)
    other = create_table(client, players=3)
    token = join(client, other, "Anna")
    client.cookies.clear()
    with client.websocket_connect(f"/ws/{code}?token={token}") as ws:
        assert receive_raw(ws)["code"] == 1008


def test_bad_cookie_closes_too(client: TestClient) -> None:
    code = create_table(client, players=3)
    client.cookies.set(f"mu_seat_{code}", "forged")
    with client.websocket_connect(f"/ws/{code}") as ws:
        assert receive_raw(ws)["code"] == 1008


def test_unknown_table_closes(client: TestClient) -> None:
    with client.websocket_connect("/ws/no-such-table") as ws:
        closed = receive_raw(ws)
    assert closed["type"] == "websocket.close" and closed["code"] == 4404


def test_action_before_the_game_starts(client: TestClient) -> None:
    code = create_table(client, players=3)
    token = join(client, code, "Anna")
    with client.websocket_connect(f"/ws/{code}?token={token}") as ws:
        version = next_of_type(ws, "view")["version"]
        ws.send_json({"type": "action", "version": version, "action": {"type": "pass"}})
        assert next_of_type(ws, "error")["code"] == "not_started"


def test_cross_site_origin_is_refused(client: TestClient) -> None:
    code = create_table(client, players=3)
    join(client, code, "Anna")  # the seat cookie a foreign page would try to ride on
    evil = {"origin": "https://evil.example"}
    with client.websocket_connect(f"/ws/{code}", headers=evil) as ws:
        assert receive_raw(ws)["code"] == 1008
    with client.websocket_connect(f"/ws/{code}", headers={"origin": "http://testserver"}) as ws:
        assert next_of_type(ws, "view")["view"]["seat"] == 0
