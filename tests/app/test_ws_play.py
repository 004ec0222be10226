"""A table played over WebSockets: seats, spectators, redaction, presence."""

from __future__ import annotations

import json
from contextlib import ExitStack
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from tests.app.helpers import (
    connect_all,
    create_table,
    join,
    next_of_type,
    play_until,
    receive,
    seat_everyone,
    step,
    view_at,
)


def hand_ids(view: dict[str, Any]) -> set[int]:
    return {card["id"] for card in view["hand"]}


def test_waiting_table_shows_no_hand_and_starts_when_full(client: TestClient) -> None:
    code = create_table(client, players=3)
    first = join(client, code, "Anna")
    with client.websocket_connect(f"/ws/{code}?token={first}") as ws:
        view = next_of_type(ws, "view")
        assert view["view"]["status"] == "waiting"
        assert view["view"]["phase"] == "waiting"
        assert view["view"]["hand"] == [] and view["view"]["prompt"] is None
        assert view["view"]["seats"][0] == {
            "name": "Anna",
            "bot": False,
            "bot_level": None,
            "connected": True,
            "bot_playing": False,
            "takeover_at": None,
        }
        join(client, code, "Bert")
        join(client, code, "Cleo")
        started = view_at(ws, view["version"] + 2)["view"]
    assert started["status"] == "playing" and started["hand_number"] == 1
    assert len(started["hand"]) > 0
    assert [seat["name"] for seat in started["seats"]] == ["Anna", "Bert", "Cleo"]


def test_full_hand_played_by_all_seats(client: TestClient) -> None:
    code = create_table(client, players=3)
    tokens = seat_everyone(client, code)
    with ExitStack() as stack:
        sockets, views = connect_all(stack, client, code, tokens)
        assert views[0]["view"]["last_result"] is None
        views = play_until(sockets, views, hand_number=2)
    view = views[0]["view"]
    assert view["hand_number"] == 2 and view["status"] == "playing"
    assert view["last_result"] is not None
    assert view["last_result"]["kind"] == "played", view["last_result"]
    assert view["totals"] == view["last_result"]["total"]
    sheet = client.get(f"/api/tables/{code}/scoresheet").json()
    assert len(sheet["rows"]) == 1 and sheet["totals"] == view["totals"]


@pytest.mark.parametrize("players", [3, 4])
def test_the_server_plays_any_variant_the_engine_knows(client: TestClient, players: int) -> None:
    code = create_table(client, players=players, variant="revised")
    tokens = seat_everyone(client, code, players)
    with ExitStack() as stack:
        sockets, views = connect_all(stack, client, code, tokens)
        assert views[0]["view"]["variant"] == "revised"
        views = play_until(sockets, views, hand_number=2)
    assert views[0]["view"]["last_result"]["variant"] == "revised"
    assert len(client.get(f"/api/tables/{code}/scoresheet").json()["rows"]) == 1


def card_ids(value: Any) -> set[int]:
    """Every card object (``{"id", "color", ...}``) anywhere in a view."""
    if isinstance(value, dict):
        found = {value["id"]} if "id" in value and "color" in value else set()
        return found.union(*(card_ids(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(card_ids(item) for item in value))
    return set()


def test_seats_see_their_own_hand_and_nothing_else_hidden(client: TestClient) -> None:
    code = create_table(client, players=3)
    tokens = seat_everyone(client, code)
    with ExitStack() as stack:
        sockets, views = connect_all(stack, client, code, tokens)
        spectator = stack.enter_context(client.websocket_connect(f"/ws/{code}"))
        while views[0]["view"]["hand_number"] == 1:  # the whole first hand, step by step
            public = card_ids(view_at(spectator, views[0]["version"])["view"])
            hands = [hand_ids(message["view"]) for message in views]
            for seat, message in enumerate(views):
                view = message["view"]
                assert view["seat"] == seat
                assert (view["prompt"] is not None) == (seat == view["to_move"])
                assert card_ids(view) <= hands[seat] | public
                others = set().union(*(hands[i] for i in range(3) if i != seat)) - public
                text = json.dumps(view)
                assert not any(f'"id": {card},' in text for card in others)
            assert views[0]["view"] != views[1]["view"] != views[2]["view"]
            views = step(sockets, views)


def test_spectator_sees_no_hand_and_cannot_act(client: TestClient) -> None:
    code = create_table(client, players=3)
    tokens = seat_everyone(client, code)
    with ExitStack() as stack:
        sockets, views = connect_all(stack, client, code, tokens)
        spectator = stack.enter_context(client.websocket_connect(f"/ws/{code}"))
        watched = view_at(spectator, views[0]["version"])["view"]
        assert watched["seat"] is None and watched["hand"] == [] and watched["prompt"] is None
        assert watched["hand_counts"] == views[0]["view"]["hand_counts"]
        spectator.send_json(
            {"type": "action", "version": views[0]["version"], "action": {"type": "pass"}}
        )
        assert next_of_type(spectator, "error")["code"] == "spectator"
        views = step(sockets, views)
        after = view_at(spectator, views[0]["version"])["view"]
        assert after["hand"] == [] and after["version"] == views[0]["version"]


def test_presence_is_broadcast(client: TestClient) -> None:
    code = create_table(client, players=3)
    tokens = seat_everyone(client, code)

    def presence(ws: WebSocketTestSession, expected: list[bool]) -> None:
        # Other views may come between (the away seats' takeover countdowns).
        for _ in range(10):
            seats = next_of_type(ws, "view")["view"]["seats"]
            if [s["connected"] for s in seats] == expected:
                return
        raise AssertionError(f"presence never became {expected}")

    with client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as first:
        presence(first, [True, False, False])
        with client.websocket_connect(f"/ws/{code}?token={tokens[2]}"):
            presence(first, [True, False, True])
            info = client.get(f"/api/tables/{code}").json()
            assert [s["connected"] for s in info["seats"]] == [True, False, True]
        presence(first, [True, False, False])


def test_seat_cookie_authenticates_the_socket(client: TestClient) -> None:
    code = create_table(client, players=3)
    join(client, code, "Anna")  # the response sets this client's seat cookie
    with client.websocket_connect(f"/ws/{code}") as ws:
        assert next_of_type(ws, "view")["view"]["seat"] == 0


def test_ping_pong(client: TestClient) -> None:
    code = create_table(client, players=3)
    with client.websocket_connect(f"/ws/{code}") as ws:
        next_of_type(ws, "view")
        ws.send_json({"type": "ping"})
        assert receive(ws) == {"type": "pong"}


def test_three_players_play_without_the_colours_the_creator_left_out(client: TestClient) -> None:
    code = create_table(client, players=3, removed_colours=["red", "blue"])
    info = client.get(f"/api/tables/{code}").json()
    assert info["options"]["removed_colours"] == ["red", "blue"]
    tokens = seat_everyone(client, code)
    with client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as ws:
        view = next_of_type(ws, "view")["view"]
    assert view["colours"] == ["yellow", "green", "purple"]
    assert {card["color"] for card in view["hand"]} <= {"yellow", "green", "purple"}
