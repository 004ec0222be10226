"""``python -m app`` migrates a brand-new database, then serves the app; its log keeps secrets."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from tests.app.processes import run_command

pytestmark = pytest.mark.processes  # starts server processes


def test_run_command_migrates_then_serves(tmp_path: Path) -> None:
    with run_command(tmp_path) as server:
        health = httpx.get(f"{server.base}/healthz")
        assert health.json() == {"status": "ok"}
        created = httpx.post(f"{server.base}/api/tables", json={"players": 4})
        assert created.status_code == 201
    assert "Running upgrade" in server.output  # the schema was made by Alembic at start


def test_no_token_reaches_the_log(tmp_path: Path) -> None:
    """Issue 14, defect 3: uvicorn's access log printed ``/t/CODE/rejoin/<TOKEN>`` and
    ``WebSocket /ws/CODE?token=<TOKEN>``. Every way a token can travel is used here; the log
    shows the requests, never a seat or host token."""
    with run_command(tmp_path) as server:
        created = httpx.post(f"{server.base}/api/tables", json={"players": 3}).json()
        code, host_token = created["invite_code"], created["host_token"]
        table = f"{server.base}/api/tables/{code}"
        joined = httpx.post(f"{table}/seats", json={"name": "Anna"}).json()
        token = joined["token"]
        assert joined["rejoin_url"].endswith(f"/t/{code}#rejoin={token}")  # not in the path
        assert httpx.get(table, params={"token": token}).json()["you"] == 0
        old_link = httpx.get(f"{server.base}/t/{code}/rejoin/{token}")
        assert old_link.status_code == 303
        assert old_link.headers["location"] == f"/t/{code}#rejoin={token}"
        assert httpx.post(f"{table}/rejoin", json={"token": token}).json() == {"seat": 0}
        bearer = httpx.get(table, headers={"Authorization": f"Bearer {host_token}"})
        assert bearer.json()["host"] is True
        with connect(f"{server.ws}/ws/{code}?token={token}") as ws:
            assert '"type":"view"' in str(ws.recv(timeout=5))
    assert f"/ws/{code}?token=[redacted]" in server.output  # the lines are there ...
    assert f"/t/{code}/rejoin/[redacted]" in server.output
    assert token not in server.output and host_token not in server.output  # ... the secrets not


def test_logs_are_json_lines_with_request_and_table_ids(tmp_path: Path) -> None:
    """Every line ``python -m app`` writes is one JSON object with a timestamp, level, logger
    and event; a request's lines carry its ``request_id`` (as sent back in X-Request-ID), a
    change its table."""
    with run_command(tmp_path) as server:
        created = httpx.post(f"{server.base}/api/tables", json={"players": 3})
        table = created.json()["table_id"]
        request_id = created.headers["x-request-id"]
        sent = httpx.get(f"{server.base}/healthz", headers={"X-Request-ID": "probe-1"})
        assert sent.headers["x-request-id"] == "probe-1"
        code = created.json()["invite_code"]
        httpx.post(f"{server.base}/api/tables/{code}/seats", json={"name": "Anna"})
    lines = [json.loads(line) for line in server.output.splitlines() if line.strip()]
    assert all({"timestamp", "level", "logger", "event"} <= line.keys() for line in lines)
    access = [line for line in lines if line["logger"] == "uvicorn.access"]
    assert any(
        line["request_id"] == request_id and "/api/tables" in line["event"] for line in access
    )
    assert any(line["request_id"] == "probe-1" for line in access)
    commits = [line for line in lines if line["event"] == "commit"]
    assert commits and commits[0]["table"] == table and "request_id" in commits[0]
