"""Practice tables (issue 39, points 1, 2 and 4): play on from any moment of a finished hand,
or play its deal again. The new table deals the same cards by the same dealer with the moves
before the moment made, its seats see what any table's seats see, it plays one hand and no
game counts it; the original table is only read. A hand still being played is refused."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from tests.app.helpers import choose, next_of_type, seat_everyone, view_at

PLAYERS = 3
# What a seat sees of the hand that the moment fixes (not the table's name, version or clock).
SAME = (
    *("hand", "to_move", "phase", "prompt", "trick", "trick_number", "bids", "displays"),
    *("dealer", "chief", "partner", "trumps", "tricks_won", "colours", "kitty", "discards"),
)


def _play(
    sockets: list[WebSocketTestSession], views: list[dict[str, Any]], until_hand: int
) -> list[list[dict[str, Any]]]:
    """Play until hand ``until_hand`` is dealt (or the game is over); every seat's view after
    every step, the first being the views given."""
    seen = [views]
    while views[0]["view"]["hand_number"] < until_hand and not views[0]["view"]["game_over"]:
        mover, version = views[0]["view"]["to_move"], views[0]["version"]
        action = choose(views[mover]["view"])
        sockets[mover].send_json({"type": "action", "version": version, "action": action})
        views = [view_at(ws, version + 1) for ws in sockets]
        seen.append(views)
    return seen


def _moment(view: dict[str, Any]) -> dict[str, Any]:
    return {key: view.get(key) for key in SAME}


def _practice(client: TestClient, code: str, hand: int, step: int) -> Any:
    return client.post(f"/api/tables/{code}/hands/{hand}/practice", json={"step": step})


@pytest.fixture
def played(client: TestClient) -> tuple[str, list[list[dict[str, Any]]]]:
    """A two-hand table whose first hand is over and whose second is being played; every
    seat's views through the first hand (step by step, from its deal)."""
    response = client.post("/api/tables", json={"players": PLAYERS, "hands": 2})
    code = response.json()["invite_code"]
    tokens = seat_everyone(client, code, PLAYERS)
    with ExitStack() as stack:
        sockets = [
            stack.enter_context(client.websocket_connect(f"/ws/{code}?token={t}")) for t in tokens
        ]
        version = next_of_type(sockets[0], "view")["version"]
        seen = _play(sockets, [view_at(ws, version) for ws in sockets], until_hand=2)
    assert seen[-1][0]["view"]["hand_number"] == 2 and not seen[-1][0]["view"]["game_over"]
    return code, seen[:-1]  # the last views are of hand 2's deal


def test_play_on_from_a_moment_deals_the_same_cards_with_the_moves_made(
    client: TestClient, played: tuple[str, list[list[dict[str, Any]]]]
) -> None:
    code, seen = played
    before = client.get(f"/api/tables/{code}").json()
    sheet = client.get(f"/t/{code}/game.txt").text
    step = len(seen) // 2  # a moment in the middle of the hand
    response = _practice(client, code, 1, step)
    assert response.status_code == 201, response.text
    created = response.json()
    practice = created["invite_code"]
    assert practice != code and "seed" not in response.text and "branch" not in response.text
    info = client.get(f"/api/tables/{practice}").json()
    assert info["options"]["practice"] == {"code": code, "hand": 1, "step": step}
    assert info["options"]["hands"] == 1 and info["status"] == "waiting" and info["host"]
    assert "branch" not in str(info) and "seed" not in str(info)
    tokens = seat_everyone(client, practice, PLAYERS)
    with ExitStack() as stack:
        sockets = [
            stack.enter_context(client.websocket_connect(f"/ws/{practice}?token={t}"))
            for t in tokens
        ]
        first = [next_of_type(ws, "view") for ws in sockets]
        # Each seat holds what it held then, sees what it saw then, and the same seat moves.
        for seat in range(PLAYERS):
            assert first[seat]["view"]["hand_number"] == 1
            assert _moment(first[seat]["view"]) == _moment(seen[step][seat]["view"])
        # The hand plays on to its end, and the practice table's one hand ends its game.
        views = _play(sockets, first, until_hand=2)[-1]
        assert views[0]["view"]["game_over"]
    # The original table is only read: the same version, seats and history.
    assert client.get(f"/api/tables/{code}").json() == before
    assert client.get(f"/t/{code}/game.txt").text == sheet


def test_play_this_deal_again_is_the_moment_before_the_first_move(
    client: TestClient, played: tuple[str, list[list[dict[str, Any]]]]
) -> None:
    code, seen = played
    response = _practice(client, code, 1, 0)
    assert response.status_code == 201, response.text
    practice = response.json()["invite_code"]
    tokens = seat_everyone(client, practice, PLAYERS)
    for seat, token in enumerate(tokens):
        with client.websocket_connect(f"/ws/{practice}?token={token}") as ws:
            view = next_of_type(ws, "view")["view"]
            assert _moment(view) == _moment(seen[0][seat]["view"])


@pytest.mark.parametrize(
    ("hand", "step", "status", "code"),
    [
        (2, 0, 409, "hand_not_finished"),  # the hand in progress: never branched
        (3, 0, 404, "unknown_hand"),
        (1, 10_000, 422, "no_such_step"),
        (1, -1, 422, "invalid_request"),
    ],
)
def test_a_running_hand_or_a_moment_that_is_not_there_is_refused(
    client: TestClient,
    played: tuple[str, list[list[dict[str, Any]]]],
    hand: int,
    step: int,
    status: int,
    code: str,
) -> None:
    table, seen = played
    before = client.get(f"/api/tables/{table}").json()
    response = _practice(client, table, hand, step)
    assert response.status_code == status, response.text
    assert response.json()["detail"]["code"] == code
    assert client.get(f"/api/tables/{table}").json() == before


def test_the_end_of_a_hand_and_an_unknown_table_are_refused(
    client: TestClient, played: tuple[str, list[list[dict[str, Any]]]]
) -> None:
    code, seen = played
    end = _practice(client, code, 1, len(seen))  # after the hand's last move: nobody to move
    assert end.status_code == 422 and end.json()["detail"]["code"] == "no_such_step"
    unknown = _practice(client, "no-such-table", 1, 0)
    assert unknown.status_code == 404 and unknown.json()["detail"]["code"] == "unknown_table"


def test_a_practice_table_is_never_one_of_my_tables(
    client: TestClient, played: tuple[str, list[list[dict[str, Any]]]]
) -> None:
    code, _seen = played
    practice = _practice(client, code, 1, 3).json()["invite_code"]
    response = client.post(f"/api/tables/{practice}/seats", json={"name": "Practising Anna"})
    assert response.status_code == 201  # the browser now holds a seat cookie there
    page = client.get("/me/tables")
    assert page.status_code == 200
    assert practice not in page.text and "Practising Anna" not in page.text


def test_the_deal_played_again_is_shown_beside_the_original(
    client: TestClient, played: tuple[str, list[list[dict[str, Any]]]]
) -> None:
    code, _seen = played
    # Before anyone plays it again, the hand page shows no comparison.
    assert 'data-testid="same-deal"' not in client.get(f"/t/{code}/hands/1").text
    practice = _practice(client, code, 1, 0).json()["invite_code"]
    moment = _practice(client, code, 1, 2).json()["invite_code"]  # from a moment: not shown
    for table in (practice, moment):
        tokens = seat_everyone(client, table, PLAYERS)
        with ExitStack() as stack:
            sockets = [
                stack.enter_context(client.websocket_connect(f"/ws/{table}?token={t}"))
                for t in tokens
            ]
            views = [next_of_type(ws, "view") for ws in sockets]
            assert _play(sockets, views, until_hand=2)[-1][0]["view"]["game_over"]
    original = client.get(f"/t/{code}/hands/1").text
    again = client.get(f"/t/{practice}/hands/1").text
    for page in (original, again):
        assert 'data-testid="same-deal"' in page
        assert 'data-testid="same-deal-1"' in page and 'data-testid="same-deal-2"' not in page
        assert moment not in page  # played on from a moment, not from the deal
    assert f'href="/t/{practice}/hands/1"' in original and f'href="/t/{code}/hands/1"' in again
    sheet = client.get(f"/api/tables/{practice}/scoresheet").json()
    for seat in range(PLAYERS):  # every seat's score of the replay, on the same cards
        cell = f'data-testid="same-deal-score-1-{seat}"'
        assert cell in original
        score = sheet["rows"][0]["score"][seat]
        row = original.split(cell, 1)[1].split("</td>", 1)[0]
        assert str(abs(score)) in row


def test_a_revised_hand_is_branched_with_its_hidden_discards_kept_hidden(
    client: TestClient,
) -> None:
    players = 3  # the revised edition's kitty and the Crown's discards
    response = client.post(
        "/api/tables", json={"players": players, "hands": 1, "variant": "revised"}
    )
    code = response.json()["invite_code"]
    tokens = seat_everyone(client, code, players)
    with ExitStack() as stack:
        sockets = [
            stack.enter_context(client.websocket_connect(f"/ws/{code}?token={t}")) for t in tokens
        ]
        version = next_of_type(sockets[0], "view")["version"]
        seen = _play(sockets, [view_at(ws, version) for ws in sockets], until_hand=2)[:-1]
    for step in (len(seen) // 2, len(seen) - 1):
        made = _practice(client, code, 1, step)
        assert made.status_code == 201, made.text
        practice = made.json()["invite_code"]
        tokens = seat_everyone(client, practice, players)
        with client.websocket_connect(f"/ws/{practice}") as spectator:
            # A spectator of the practice table sees no hand, as at any table.
            watched = next_of_type(spectator, "view")["view"]
            assert not watched.get("hand")
        for seat, token in enumerate(tokens):
            with client.websocket_connect(f"/ws/{practice}?token={token}") as ws:
                view = next_of_type(ws, "view")["view"]
                assert _moment(view) == _moment(seen[step][seat]["view"])
