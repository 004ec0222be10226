"""``python -m app`` migrates a brand-new database, then serves the app."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_run_command_migrates_then_serves(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'fresh.db'}"}
    command = [sys.executable, "-m", "app", "--host", "127.0.0.1", "--port", str(port)]
    server = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            assert server.poll() is None, server.stdout.read() if server.stdout else ""
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        assert health.json() == {"status": "ok"}
        created = httpx.post(f"http://127.0.0.1:{port}/api/tables", json={"players": 4})
        assert created.status_code == 201
    finally:
        server.terminate()
        output = server.communicate(timeout=10)[0].decode()
    assert "Running upgrade" in output  # the schema was made by Alembic at start
