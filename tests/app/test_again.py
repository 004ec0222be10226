"""Play again: the next game with the same players, seats and rules opens exactly once (two
players asking at the same moment, or two server processes), everyone at the table is told
where it is, each player gets their own new seat token (nobody else's), a player who declines
is replaced by a bot, and the kept seats are closed to newcomers."""

from __future__ import annotations

import asyncio
from contextlib import ExitStack
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import create_async_engine
from starlette.testclient import TestClient

from app.bots import again as again_case
from app.config import async_database_url
from app.tables import again
from app.tables.models import Table
from tests.app.helpers import create_table, next_of_type, play_until, seat_everyone, view_at


def _finished(client: TestClient, players: int = 3) -> tuple[str, list[str]]:
    code = create_table(client, players=players, hands=1)
    tokens = seat_everyone(client, code, players)
    with ExitStack() as stack:
        sockets = [
            stack.enter_context(client.websocket_connect(f"/ws/{code}?token={t}")) for t in tokens
        ]
        version = next_of_type(sockets[0], "view")["version"]
        views = [view_at(ws, version) for ws in sockets]
        views = play_until(sockets, views, hand_number=2)
        assert views[0]["view"]["game_over"]
    return code, tokens


def _again(client: TestClient, code: str, token: str | None, **body: Any) -> Any:
    params = {"token": token} if token else {}
    return client.post(f"/api/tables/{code}/again", json=body, params=params)


def test_everyone_comes_along_to_the_same_seats_with_new_tokens(client: TestClient) -> None:
    code, tokens = _finished(client)
    with client.websocket_connect(f"/ws/{code}") as watcher:
        next_of_type(watcher, "view")
        first = _again(client, code, tokens[1])
        assert first.status_code == 200, first.text
        nxt = first.json()["invite_code"]
        # Everyone at the old table hears where the next game is (no token in it).
        assert next_of_type(watcher, "next_table") == {"type": "next_table", "code": nxt}
    answers = [_again(client, code, token).json() for token in (tokens[0], tokens[2])]
    assert {answer["invite_code"] for answer in answers} == {nxt}
    seats = [first.json()["seat"]] + [answer["seat"] for answer in answers]
    assert seats == [1, 0, 2]
    new_tokens = [first.json()["token"]] + [answer["token"] for answer in answers]
    assert len(set(new_tokens) | set(tokens)) == 6  # fresh, and each seat its own
    info = client.get(f"/api/tables/{nxt}").json()
    assert [s["name"] for s in info["seats"]] == ["P0", "P1", "P2"]
    assert info["status"] == "playing" and info["options"]["hands"] == 1
    # The new token is the seat at the new table, and only there.
    with client.websocket_connect(f"/ws/{nxt}?token={new_tokens[0]}") as ws:
        assert next_of_type(ws, "view")["view"]["seat"] == 1
    # A page opened later at the old table still learns where the game went on.
    with client.websocket_connect(f"/ws/{code}") as late:
        assert next_of_type(late, "next_table")["code"] == nxt


def test_simultaneous_requests_open_one_next_game(client: TestClient) -> None:
    code, tokens = _finished(client)

    async def both() -> list[tuple[str, int, str | None]]:
        app = client.app
        calls = [
            again_case.play_again(
                hub=app.state.hub,  # type: ignore[attr-defined]
                runner=app.state.bots,  # type: ignore[attr-defined]
                invite_code=code,
                token=token,
                decline=False,
            )
            for token in tokens
        ]
        return await asyncio.gather(*calls)

    results = client.portal.call(both)  # type: ignore[union-attr]
    assert len({code for code, _seat, _token in results}) == 1
    assert sorted(seat for _code, seat, _token in results) == [0, 1, 2]
    assert _tables_after(client, code) == 1


def test_two_processes_racing_open_one_next_game(client: TestClient, database_url: str) -> None:
    """Two database engines (as two server processes would have) open the next game at once."""
    code, _tokens = _finished(client)

    async def race() -> list[tuple[str, bool]]:
        room = await client.app.state.hub.get_room(code)  # type: ignore[attr-defined]
        engines = [create_async_engine(async_database_url(database_url)) for _ in range(2)]
        try:
            return await asyncio.gather(
                *(again.open_next(db=engine, old=room.live) for engine in engines)
            )
        finally:
            for engine in engines:
                await engine.dispose()

    results = client.portal.call(race)  # type: ignore[union-attr]
    assert len({code for code, _opened in results}) == 1
    assert sorted(opened for _code, opened in results) == [False, True]
    assert _tables_after(client, code) == 1


def _tables_after(client: TestClient, code: str) -> int:
    async def count() -> int:
        engine = client.app.state.hub.store.db  # type: ignore[attr-defined]
        async with engine.connect() as conn:
            total = await conn.scalar(select(func.count()).select_from(Table))
            old = await conn.scalar(select(Table.id).where(Table.invite_code == code))
            newer = await conn.scalar(select(func.count()).select_from(Table).where(Table.id > old))
        assert total is not None
        return int(newer or 0)

    return int(client.portal.call(count))  # type: ignore[union-attr]


def test_a_player_who_declines_is_replaced_by_a_bot(client: TestClient) -> None:
    code, tokens = _finished(client)
    nxt = _again(client, code, tokens[0]).json()["invite_code"]
    declined = _again(client, code, tokens[2], decline=True)
    assert declined.status_code == 200 and declined.json()["token"] is None
    seats = client.get(f"/api/tables/{nxt}").json()["seats"]
    assert seats[2]["bot"] is True and seats[1]["name"] is None


def test_kept_seats_are_closed_to_newcomers_and_strangers_cannot_play_again(
    client: TestClient,
) -> None:
    code, tokens = _finished(client)
    nxt = _again(client, code, tokens[0]).json()["invite_code"]
    client.cookies.clear()
    taken = client.post(f"/api/tables/{nxt}/seats", json={"name": "Eve", "seat": 1})
    assert taken.status_code == 409 and taken.json()["detail"]["code"] == "seat_taken"
    full = client.post(f"/api/tables/{nxt}/seats", json={"name": "Eve"})
    assert full.status_code == 409 and full.json()["detail"]["code"] == "table_full"
    client.cookies.clear()
    assert _again(client, code, None).json()["detail"]["code"] == "not_seated"
    assert _again(client, code, "not-a-token").status_code == 403
    # Twice for the same seat: the second is refused (that seat is already taken).
    assert _again(client, code, tokens[0]).json()["detail"]["code"] == "seat_taken"


def test_play_again_only_once_the_game_is_over(client: TestClient) -> None:
    code = create_table(client, players=3, hands=1)
    tokens = seat_everyone(client, code)
    refused = _again(client, code, tokens[0])
    assert refused.status_code == 409 and refused.json()["detail"]["code"] == "not_over"


def test_the_host_may_keep_newcomers_out_of_bot_seats(client: TestClient) -> None:
    created = client.post("/api/tables", json={"players": 3, "newcomers_take_bots": False}).json()
    code = created["invite_code"]
    bearer = {"Authorization": f"Bearer {created['host_token']}"}
    for seat in (1, 2):
        assert client.post(
            f"/api/tables/{code}/bots", json={"seat": seat}, headers=bearer
        ).is_success
    client.cookies.clear()
    assert client.get(f"/api/tables/{code}").json()["options"]["newcomers_take_bots"] is False
    join = client.post(f"/api/tables/{code}/seats", json={"name": "Anna", "seat": 1})
    assert join.status_code == 409 and join.json()["detail"]["code"] == "seat_taken"
    assert client.post(f"/api/tables/{code}/seats", json={"name": "Anna", "seat": 0}).is_success
    client.cookies.clear()
    # The table is full of people and bots that stay: a newcomer can only watch.
    late = client.post(f"/api/tables/{code}/seats", json={"name": "Bert"})
    assert late.status_code == 409 and late.json()["detail"]["code"] == "table_full"
