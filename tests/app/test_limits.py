"""The server's limits: frame size, message budget, header timeout, request rates, spectators.

Each limit is a setting (docs/operations.md, "Limits"); the tests set small values where the
defaults would take long to reach, and check what a client sees when it hits one.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
from collections.abc import AsyncIterator
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from app.config import Settings
from app.http import ratelimits
from tests.app.conftest import AppFactory
from tests.app.helpers import create_table, join, next_of_type, receive, receive_raw
from tests.app.processes import run_command


@pytest.mark.processes
def test_frames_beyond_the_limit_close_before_they_are_buffered(tmp_path: Path) -> None:
    """Issue 14, defect 4: uvicorn read frames up to 16 MiB (its default) although messages
    are limited to 4,096 bytes. A message just over the protocol limit still gets its typed
    ``too_large``; a frame over ``WS_MAX_FRAME_BYTES`` closes the socket with 1009."""
    with run_command(tmp_path) as server:
        code = httpx.post(f"{server.base}/api/tables", json={"players": 3}).json()["invite_code"]
        with connect(f"{server.ws}/ws/{code}", max_size=None) as ws:
            assert json.loads(ws.recv(timeout=5))["type"] == "view"
            ws.send(json.dumps({"type": "ping", "padding": "x" * 5000}))
            assert json.loads(ws.recv(timeout=5))["code"] == "too_large"
            ws.send("[" + " " * 1_000_000 + "]")
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_flooding_is_answered_rate_limited_then_closed(make_app: AppFactory) -> None:
    """Issue 14, defect 4: a socket had no message budget. Past the burst every message is
    answered ``rate_limited`` and ignored; after ``WS_ABUSE_LIMIT`` of them the socket is
    closed with 4429. (The refill rate is set so low that none happens during the test.)"""
    app = make_app(ws_messages_per_second=0.0001, ws_message_burst=4, ws_abuse_limit=3)
    with TestClient(app) as client:
        code = create_table(client)
        with client.websocket_connect(f"/ws/{code}") as ws:
            next_of_type(ws, "view")
            for _ in range(4):
                ws.send_json({"type": "ping"})
                assert receive(ws) == {"type": "pong"}
            for _ in range(2):
                ws.send_json({"type": "ping"})
                refused = receive(ws)
                assert refused["type"] == "error" and refused["code"] == "rate_limited"
            ws.send_json({"type": "ping"})
            closed = receive_raw(ws)
    assert closed["type"] == "websocket.close" and closed["code"] == 4429


@pytest.mark.parametrize("sent", [b"", b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: 1"])
@pytest.mark.processes
def test_a_request_head_must_arrive_in_time(tmp_path: Path, sent: bytes) -> None:
    """Issue 14, defect 5: a connection that sent nothing, or half a request head, stayed open
    for ever (slowloris). With ``HTTP_HEAD_TIMEOUT=1`` the server closes it; the socket's own
    timeout here is only the test's safety net."""
    with run_command(tmp_path, HTTP_HEAD_TIMEOUT="1") as server:
        with socket.create_connection(("127.0.0.1", server.port), timeout=15) as sock:
            sock.sendall(sent)
            assert sock.recv(1024) == b""  # closed by the server, no answer
        # A complete request is unaffected, on a connection kept alive across requests.
        with httpx.Client(base_url=server.base) as http:
            assert http.get("/healthz").status_code == 200
            assert http.get("/healthz").status_code == 200


@pytest.mark.processes
def test_an_endless_request_head_is_cut_off(tmp_path: Path) -> None:
    """Issue 14, defect 5: headers that never end are cut off at ``HTTP_HEAD_MAX_BYTES``."""
    with run_command(tmp_path, HTTP_HEAD_MAX_BYTES="8192") as server:
        with socket.create_connection(("127.0.0.1", server.port), timeout=15) as sock:
            try:
                sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
                for _ in range(100):
                    sock.sendall(b"X-Filler: " + b"y" * 1000 + b"\r\n")
                answer = sock.recv(1024)
            except (ConnectionResetError, BrokenPipeError):
                answer = b""  # closed by the server while we were still sending
            assert answer == b""


def test_table_creation_and_joins_are_rate_limited_per_address(make_app: AppFactory) -> None:
    """Issue 14, defect 7: one client opened ~20,000 tables a minute. Past
    ``CREATE_TABLE_RATE`` / ``JOIN_RATE`` an address is answered 429 with ``Retry-After``, and
    nothing is created."""
    app = make_app(create_table_rate="3/minute", join_rate="2/minute")
    with TestClient(app) as client:
        codes = [create_table(client) for _ in range(3)]
        refused = client.post("/api/tables", json={"players": 3})
        assert refused.status_code == 429
        assert refused.json()["detail"]["code"] == "rate_limited"
        assert 0 < int(refused.headers["retry-after"]) <= 60
        for name in ["Anna", "Bert"]:
            assert client.post(f"/api/tables/{codes[0]}/seats", json={"name": name}).is_success
        before = client.get(f"/api/tables/{codes[1]}").json()
        refused = client.post(f"/api/tables/{codes[1]}/seats", json={"name": "Cleo"})
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) > 0
        assert client.get(f"/api/tables/{codes[1]}").json() == before
        assert client.get(f"/api/tables/{codes[2]}").status_code == 200  # reading is free


def test_spectators_per_table_are_capped(make_app: AppFactory) -> None:
    """Issue 14, defect 7: a table took unlimited spectator sockets (500 of them slowed a
    seated player's actions from 3 to 96 ms). Past ``SPECTATORS_PER_TABLE`` a spectator is
    closed with 4503 (the client says why, in German or English); players still get in."""
    app = make_app(spectators_per_table=2)
    with TestClient(app) as client, ExitStack() as stack:
        code = create_table(client)
        token = join(client, code, "Anna")
        client.cookies.clear()
        for _ in range(2):
            watcher = stack.enter_context(client.websocket_connect(f"/ws/{code}"))
            assert next_of_type(watcher, "view")["view"]["seat"] is None
        with client.websocket_connect(f"/ws/{code}") as one_too_many:
            closed = receive_raw(one_too_many)
        assert closed["type"] == "websocket.close" and closed["code"] == 4503
        with client.websocket_connect(f"/ws/{code}?token={token}") as player:
            assert next_of_type(player, "view")["view"]["seat"] == 0


async def test_request_bodies_have_a_ceiling(api: httpx.AsyncClient) -> None:
    """A body over ``HTTP_BODY_MAX_BYTES`` (declared, or streamed without a length) is a
    413 ``too_large`` before anything reads it whole; small bodies are unaffected."""
    padded = b'{"players": 3, "padding": "' + b"x" * 70_000 + b'"}'
    headers = {"content-type": "application/json"}
    declared = await api.post("/api/tables", content=padded, headers=headers)
    assert declared.status_code == 413 and declared.json()["detail"]["code"] == "too_large"

    async def chunks() -> AsyncIterator[bytes]:
        for start in range(0, len(padded), 8192):
            yield padded[start : start + 8192]

    streamed = await api.post("/api/tables", content=chunks(), headers=headers)
    assert streamed.status_code == 413 and streamed.json()["detail"]["code"] == "too_large"
    assert (await api.post("/api/tables", json={"players": 3})).status_code == 201


REDIS_URL = "redis://127.0.0.1:6379/0"


@pytest.fixture
async def redis_prefix() -> AsyncIterator[str]:
    """A fresh key prefix on the local Redis, its keys removed afterwards. Skipped when no
    Redis answers there, unless ``MU_REQUIRE_REDIS`` is set (then that is a failure)."""
    redis_asyncio = pytest.importorskip("redis.asyncio")
    client = redis_asyncio.Redis.from_url(REDIS_URL)
    try:
        await client.ping()
    except (OSError, redis_asyncio.RedisError) as error:
        await client.aclose()
        if os.environ.get("MU_REQUIRE_REDIS"):
            pytest.fail(f"MU_REQUIRE_REDIS is set but Redis at {REDIS_URL} is unreachable: {error}")
        pytest.skip(f"no Redis at {REDIS_URL}")
    prefix = f"mu-test-{secrets.token_hex(8)}"
    try:
        yield prefix
    finally:
        keys = [key async for key in client.scan_iter(match=f"{prefix}*")]
        if keys:
            await client.delete(*keys)
        await client.aclose()


async def test_processes_sharing_redis_share_the_rates(redis_prefix: str) -> None:
    """Issue 25.4: with counters in each process's memory, N processes allowed N times the
    rate. Two ``RequestRates`` (as two processes build them) on one Redis storage together
    allow the configured rate once; another address is counted apart."""
    processes = [
        ratelimits.RequestRates(
            enabled=True,
            create_table="3/minute",
            join="60/minute",
            storage_uri=REDIS_URL,
            key_prefix=redis_prefix,
        )
        for _ in range(2)
    ]
    try:
        allowed = 0
        for attempt in range(6):
            try:
                await processes[attempt % 2].hit("create_table", "203.0.113.7")
                allowed += 1
            except ratelimits.TooManyRequests as refused:
                assert 0 < refused.retry_after <= 60
        assert allowed == 3
        await processes[1].hit("create_table", "203.0.113.8")  # another address: its own count
    finally:
        for rates in processes:
            await rates.close()


def test_the_rate_storage_setting_takes_memory_or_redis() -> None:
    assert Settings(rate_limit_storage="redis://redis:6379/0").rate_limit_storage
    with pytest.raises(ValueError):
        Settings(rate_limit_storage="mongodb://x")
