"""Beginner hints: a table option, a typed WebSocket message for the seat to move, stored
and marked on the score sheets."""

from __future__ import annotations

from contextlib import ExitStack

from starlette.testclient import TestClient

import engine
from tests.app.helpers import connect_all, create_table, next_of_type, seat_everyone, step


def test_hints_are_off_unless_chosen(client: TestClient) -> None:
    code = create_table(client, players=3)
    assert client.get(f"/api/tables/{code}").json()["options"]["hints"] is False
    tokens = seat_everyone(client, code)
    with ExitStack() as stack:
        sockets, views = connect_all(stack, client, code, tokens)
        mover = views[0]["view"]["to_move"]
        sockets[mover].send_json({"type": "hint", "version": views[0]["version"]})
        assert next_of_type(sockets[mover], "error")["code"] == "hints_off"


def test_a_hint_on_your_turn_is_stored_and_marked_on_the_sheets(client: TestClient) -> None:
    code = create_table(client, players=3, hands=1, hints=True)
    assert client.get(f"/api/tables/{code}").json()["options"]["hints"] is True
    tokens = seat_everyone(client, code)
    with ExitStack() as stack:
        sockets, views = connect_all(stack, client, code, tokens)
        version = views[0]["version"]
        mover = views[0]["view"]["to_move"]
        other = (mover + 1) % 3
        # Not your turn, an old version, a malformed message: typed refusals.
        sockets[other].send_json({"type": "hint", "version": version})
        assert next_of_type(sockets[other], "error")["code"] == "not_your_turn"
        sockets[mover].send_json({"type": "hint", "version": version - 1})
        assert next_of_type(sockets[mover], "error")["code"] == "stale_version"
        sockets[mover].send_json({"type": "hint", "version": "x"})
        assert next_of_type(sockets[mover], "error")["code"] == "bad_message"
        with client.websocket_connect(f"/ws/{code}") as spectator:
            spectator.send_json({"type": "hint", "version": version})
            assert next_of_type(spectator, "error")["code"] == "spectator"

        for _ in range(2):  # asked twice for the same move: one hint on the sheet
            sockets[mover].send_json({"type": "hint", "version": version})
            hint = next_of_type(sockets[mover], "hint")
            assert hint["version"] == version
        action = engine.action_from_json(hint["action"])  # a valid action...
        assert hint["runner_up"] is None or hint["value"] >= hint["runner_up"]["value"]
        sockets[mover].send_json({"type": "action", "version": version, "action": hint["action"]})
        views = [next_of_type(ws, "view") for ws in sockets]  # ...that the table accepts
        assert views[0]["version"] == version + 1 and views[0]["view"]["to_move"] != mover
        assert engine.to_json(action) == hint["action"]
        while not views[0]["view"]["game_over"]:
            views = step(sockets, views)

    sheet = client.get(f"/api/tables/{code}/scoresheet").json()
    assert sheet["hints"] == [[mover]]
    page = client.get(f"/t/{code}/sheet").text
    assert page.count('class="mark m-hint"') == 2  # the mark, and its legend
    assert f'data-testid="hint-1-{mover}"' in page
