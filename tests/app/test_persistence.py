"""The action log is the game: restart survival, replay identity, and one writer per table."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from fastapi import FastAPI
from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine
from starlette.testclient import TestClient, WebSocketTestSession

import engine
from app.config import async_database_url
from app.lobby import schemas, service
from app.main import release
from app.room import changes
from app.tables.models import Action, Hand, Table
from tests.app.helpers import (
    act_as_seated,
    connect_all,
    create_table,
    join,
    next_of_type,
    play_until,
    receive,
    receive_raw,
    seat_everyone,
    step,
    view_at,
)

# A distinctive deal seed: it must never appear in anything sent to a client.
SEED = 7_364_958_233_118_431


def fixed_seed() -> int:
    return SEED


@contextmanager
def seated(
    client: TestClient, code: str, tokens: list[str]
) -> Iterator[tuple[list[WebSocketTestSession], list[dict[str, Any]]]]:
    with ExitStack() as stack:
        yield connect_all(stack, client, code, tokens)


def without_presence(view: dict[str, Any]) -> dict[str, Any]:
    return {
        **view,
        "seats": [{**seat, "connected": None, "takeover_at": None} for seat in view["seats"]],
    }


def play_steps(
    sockets: list[WebSocketTestSession], views: list[dict[str, Any]], count: int
) -> list[dict[str, Any]]:
    for _ in range(count):
        views = step(sockets, views)
    return views


def test_restart_resumes_the_table_exactly(make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app(seeds=fixed_seed)) as first:
        code = create_table(first, players=3)
        tokens = seat_everyone(first, code)
        with seated(first, code, tokens) as (sockets, views):
            before = play_steps(sockets, views, 7)  # into trump choice or play
    with TestClient(make_app(seeds=fixed_seed)) as second:  # a new process on the same DB
        with seated(second, code, tokens) as (sockets, views):
            assert [without_presence(m["view"]) for m in views] == [
                without_presence(m["view"]) for m in before
            ]
            resumed = play_until(sockets, views, hand_number=2)
    with TestClient(make_app(seeds=fixed_seed)) as reference:  # same deal, never interrupted
        ref_code = create_table(reference, players=3)
        ref_tokens = seat_everyone(reference, ref_code)
        with seated(reference, ref_code, ref_tokens) as (sockets, views):
            straight = play_until(sockets, views, hand_number=2)
    assert [without_presence(m["view"]) for m in resumed] == [
        without_presence(m["view"]) for m in straight
    ]


def test_the_seed_is_never_sent(make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app(seeds=fixed_seed)) as client:
        code = create_table(client, players=3, hands=1)
        tokens = seat_everyone(client, code)
        with seated(client, code, tokens) as (sockets, views):
            views = play_until(sockets, views, hand_number=2)
            texts = [str(m) for m in views]
        texts += [client.get(f"/api/tables/{code}{path}").text for path in ("", "/scoresheet")]
    assert all(str(SEED) not in text for text in texts)


def test_game_over_after_the_last_hand(client: TestClient) -> None:
    code = create_table(client, players=3, hands=1)
    tokens = seat_everyone(client, code)
    with seated(client, code, tokens) as (sockets, views):
        views = play_until(sockets, views, hand_number=2)
        view = views[0]["view"]
        assert view["game_over"] is True and view["status"] == "over"
        assert view["hand_number"] == 1 and view["phase"] == "over"
        assert view["winners"] and view["last_result"] == view["result"]
        sockets[0].send_json(
            {"type": "action", "version": views[0]["version"], "action": {"type": "pass"}}
        )
        assert next_of_type(sockets[0], "error")["code"] == "hand_over"
    sheet = client.get(f"/api/tables/{code}/scoresheet").json()
    assert sheet["over"] is True and sheet["winners"] == view["winners"]


def read_log(database_url: str, code: str) -> tuple[Any, list[Any], list[Any]]:
    """The table's row, its action rows and its hand rows, straight from the database."""

    async def read() -> tuple[Any, list[Any], list[Any]]:
        engine = create_async_engine(async_database_url(database_url))
        try:
            async with engine.connect() as conn:
                table = (await conn.execute(select(Table).where(Table.invite_code == code))).one()
                actions = await conn.execute(
                    select(Action.seq, Action.action)
                    .where(Action.table_id == table.id)
                    .order_by(Action.seq)
                )
                hands = await conn.execute(
                    select(Hand.number, Hand.dealer)
                    .where(Hand.table_id == table.id)
                    .order_by(Hand.number)
                )
                return table, list(actions.all()), list(hands.all())
        finally:
            await engine.dispose()

    return asyncio.run(read())


def test_log_is_append_only_and_complete(client: TestClient, database_url: str) -> None:
    code = create_table(client, players=3)
    tokens = seat_everyone(client, code)
    with seated(client, code, tokens) as (sockets, views):
        views = play_until(sockets, views, hand_number=2)
    version = views[0]["version"]
    table, actions, hands = read_log(database_url, code)
    seqs = [seq for seq, _action in actions]
    assert seqs == list(range(1, len(seqs) + 1))
    assert table.version == version == 3 + len(seqs)  # three joins, then one per action
    assert [tuple(row) for row in hands] == [(1, 0), (2, 1)]  # the next hand is dealt at once


def test_the_log_keeps_only_what_the_rules_read(
    make_app: Callable[..., FastAPI], database_url: str
) -> None:
    with TestClient(make_app()) as client:
        code = create_table(client, players=3)
        tokens = seat_everyone(client, code)
        with seated(client, code, tokens) as (sockets, views):
            version, mover = views[0]["version"], views[0]["view"]["to_move"]
            # NaN and 1e999 (inf), which PostgreSQL's jsonb would refuse, do not even parse.
            for number in ["NaN", "1e999"]:
                sockets[mover].send_text(
                    f'{{"type":"action","version":{version},'
                    f'"action":{{"type":"pass","note":{number}}}}}'
                )
                assert next_of_type(sockets[mover], "error")["code"] == "bad_json"
            sockets[mover].send_text(
                f'{{"type":"action","version":{version},'
                '"action":{"type":"pass","note":"hi","big":1e300,"seat":99}}'
            )
            accepted = view_at(sockets[0], version + 1)
    _table, actions, _hands = read_log(database_url, code)
    assert [tuple(row) for row in actions] == [(1, {"type": "pass"})]
    # A restarted server replays the cleaned log to exactly the state the players saw.
    with (
        TestClient(make_app()) as restarted,
        restarted.websocket_connect(f"/ws/{code}?token={tokens[0]}") as ws,
    ):
        replayed = receive(ws)
    assert replayed["version"] == accepted["version"]
    assert without_presence(replayed["view"]) == without_presence(accepted["view"])


def test_two_processes_never_both_write(make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app()) as one, TestClient(make_app()) as two:
        code = create_table(one, players=3)
        tokens = seat_everyone(one, code)
        with (
            seated(one, code, tokens) as (sockets_one, views_one),
            seated(two, code, tokens) as (sockets_two, views_two),
        ):
            assert [without_presence(m["view"]) for m in views_one] == [
                without_presence(m["view"]) for m in views_two
            ]
            stale_version = views_two[0]["version"]
            mover = views_one[0]["view"]["to_move"]
            step(sockets_one, views_one)  # process one accepts an action
            # Process two may not have heard of it (on PostgreSQL it may have, through
            # NOTIFY): either way its attempt with the same version is refused.
            action = {"type": "pass"}
            sockets_two[mover].send_json(
                {"type": "action", "version": stale_version, "action": action}
            )
            assert next_of_type(sockets_two[mover], "error")["code"] == "stale_version"
            # ...and it reloaded the table, so its seats now see the accepted action (read on
            # another seat's socket: the mover's may have shown it before the error).
            other = sockets_two[(mover + 1) % 3]
            assert view_at(other, stale_version + 1)["version"] == stale_version + 1


def test_bot_seats_are_marked_in_views_and_survive_a_restart(
    make_app: Callable[..., FastAPI],
) -> None:
    with TestClient(make_app()) as first:
        code = create_table(first, players=3)
        token = seat_everyone(first, code, players=2)[0]

        async def seat_bot() -> None:
            room = await first.app.state.hub.room(code)  # type: ignore[attr-defined]
            await changes.join(room, name="Robo", wanted=None, bot_level="easy")

        first.portal.call(seat_bot)  # type: ignore[union-attr]
    with TestClient(make_app()) as second:
        with second.websocket_connect(f"/ws/{code}?token={token}") as ws:
            seats = next_of_type(ws, "view")["view"]["seats"]
        # Asked while the app runs (a client used after its shutdown would open database
        # connections on a loop of its own that nobody closes).
        listed = second.get(f"/api/tables/{code}").json()["seats"]
    assert seats[2] == {
        "name": "Robo",
        "bot": True,
        "bot_level": "easy",
        "connected": False,
        "bot_playing": False,
        "takeover_at": None,
    }
    assert [seat["bot"] for seat in listed] == [
        False,
        False,
        True,
    ]


async def test_concurrent_actions_apply_once(make_app: Callable[..., FastAPI]) -> None:
    app = make_app()
    try:
        hub = app.state.hub
        request = schemas.TableCreate(players=3)
        live = await service.create_table(
            session_factory=app.state.session_factory, hub=hub, request=request
        )
        room = await hub.room(live.invite_code)
        for index in range(3):
            await changes.join(room, name=f"P{index}", wanted=None)
        seat, version = room.live.hand.to_move, room.live.version
        tries = [act_as_seated(room, seat, version, engine.Pass()) for _ in range(5)]
        results = await asyncio.gather(*tries)
        assert results.count(None) == 1
        assert {result.code for result in results if result is not None} == {"stale_version"}
        assert room.live.version == version + 1 and room.live.seq == 1
    finally:
        await release(app)


def test_a_seat_taken_through_another_process_is_recognised(
    make_app: Callable[..., FastAPI],
) -> None:
    with TestClient(make_app()) as one, TestClient(make_app()) as two:
        code = create_table(one, players=3)
        assert two.get(f"/api/tables/{code}").json()["you"] is None  # two caches the table
        token = join(one, code, "Anna")
        one.cookies.clear()
        assert two.get(f"/api/tables/{code}", params={"token": token}).json()["you"] == 0
        with two.websocket_connect(f"/ws/{code}?token={token}") as ws:
            view = next_of_type(ws, "view")["view"]
        assert view["seat"] == 0 and view["seats"][0]["name"] == "Anna"
        with two.websocket_connect(f"/ws/{code}?token=forged") as ws:
            assert receive_raw(ws)["code"] == 1008
