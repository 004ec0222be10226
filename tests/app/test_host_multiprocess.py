"""The host's table across two server processes on one PostgreSQL database (issue 28).

A removal on one process closes the removed person's socket on the other; two hosts' actions
racing on two processes are applied once; a deletion closes the other process's sockets.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import psycopg
import pytest

from app.realtime import protocol
from tests.app import databases
from tests.app.processes import TIMEOUT, Seat, Server, post
from tests.app.test_multiprocess import close_all, log_of, pg_url, servers, settle, step

pytestmark = pytest.mark.processes  # starts server processes

__all__ = ["pg_url", "servers"]  # the fixtures, shared with test_multiprocess

postgres = pytest.mark.postgres


def hosted_table(bases: list[str], players: int = 3) -> tuple[str, str, list[str]]:
    """A full table opened on ``bases[0]``: (code, host token, seat tokens)."""
    created = post(bases[0], "/api/tables", {"players": players})
    code = created["invite_code"]
    tokens = [
        post(bases[seat % len(bases)], f"/api/tables/{code}/seats", {"name": f"P{seat}"})["token"]
        for seat in range(players)
    ]
    return code, created["host_token"], tokens


def host_post(base: str, code: str, path: str, host: str, body: Any = None) -> httpx.Response:
    return httpx.post(
        f"{base}/api/tables/{code}/host/{path}",
        json=body,
        headers={"Authorization": f"Bearer {host}"},
        timeout=TIMEOUT,
    )


def marks(pg_url: str, code: str) -> list[dict[str, Any]]:
    return [action for _seq, _seat, action in log_of(pg_url, code)[1] if action["type"] == "host"]


@postgres
async def test_a_removal_on_one_process_closes_the_socket_on_the_other(
    servers: list[Server], pg_url: str
) -> None:
    bases = [server.http for server in servers]
    code, host, tokens = await asyncio.to_thread(hosted_table, bases)
    # Seats 0 and 2 on process A, seat 1 (the one removed) and a spectator on process B.
    seats = [
        await Seat.connect(servers[index % 2].ws, code, token) for index, token in enumerate(tokens)
    ]
    watcher = await Seat.connect(servers[1].ws, code, None)
    await settle([*seats, watcher], 3)
    response = await asyncio.to_thread(host_post, bases[0], code, "remove", host, {"seat": 1})
    assert response.status_code == 200, response.text
    assert await seats[1].closed() == protocol.CLOSE_REMOVED
    seen = await watcher.at(4)
    assert seen["view"]["seats"][1]["bot"] is True
    assert seen["view"]["host_event"]["event"] == "remove"
    # The old token is dead on both processes.
    for server in servers:
        again = await Seat.connect(server.ws, code, tokens[1])
        assert await again.closed() == protocol.CLOSE_BAD_TOKEN
    # The hand plays on: the bot has the seat's cards (the runner moves for it).
    survivors = [seats[0], seats[2]]
    view = (await seats[0].at(4))["view"]
    if view["to_move"] != 1:
        await step([seats[0], seats[0], seats[2]], [watcher], 4)
    await watcher.at(5)
    await close_all([*survivors, watcher])


@postgres
async def test_two_hosts_racing_on_two_processes_apply_once(
    servers: list[Server], pg_url: str
) -> None:
    bases = [server.http for server in servers]
    code, host, _tokens = await asyncio.to_thread(hosted_table, bases)

    async def remove(base: str) -> httpx.Response:
        return await asyncio.to_thread(host_post, base, code, "remove", host, {"seat": 1})

    answers = await asyncio.gather(remove(bases[0]), remove(bases[1]))
    statuses = sorted(answer.status_code for answer in answers)
    assert statuses == [200, 409], [answer.text for answer in answers]
    refused = next(answer for answer in answers if answer.status_code == 409)
    assert refused.json()["detail"]["code"] in ("seat_is_bot", "stale_version")
    assert [mark["event"] for mark in marks(pg_url, code)] == ["remove"]

    # A handover racing a close with the old host token: never both on the old token's word
    # unless the close came first.
    async def hand_over() -> httpx.Response:
        return await asyncio.to_thread(host_post, bases[0], code, "handover", host, {"seat": 2})

    async def close() -> httpx.Response:
        body = {"newcomers": True, "spectators": False}
        return await asyncio.to_thread(host_post, bases[1], code, "close", host, body)

    handed, closed = await asyncio.gather(hand_over(), close())
    assert handed.status_code == 200
    events = [mark["event"] for mark in marks(pg_url, code)]
    if closed.status_code == 200:
        assert events[1:] == ["close", "handover"]
    else:
        assert closed.status_code == 403 and events[1:] == ["handover"]


@postgres
async def test_a_deletion_closes_the_other_process_s_sockets(
    servers: list[Server], pg_url: str
) -> None:
    bases = [server.http for server in servers]
    code, host, tokens = await asyncio.to_thread(hosted_table, bases)
    on_b = await Seat.connect(servers[1].ws, code, tokens[1])
    await on_b.at(3)
    then = datetime.now(UTC) - timedelta(days=2)
    with psycopg.connect(databases._admin_conninfo(pg_url)) as conn:
        conn.execute("UPDATE tables SET created_at = %s WHERE invite_code = %s", (then, code))
        conn.execute(
            "UPDATE actions SET created_at = %s FROM tables t"
            " WHERE actions.table_id = t.id AND t.invite_code = %s",
            (then, code),
        )
    response = await asyncio.to_thread(host_post, bases[0], code, "delete", host, {"confirm": True})
    assert response.status_code == 204, response.text
    assert await on_b.closed() == protocol.CLOSE_TABLE_DELETED
    for base in bases:
        gone = await asyncio.to_thread(httpx.get, f"{base}/api/tables/{code}", timeout=TIMEOUT)
        assert gone.status_code == 410
