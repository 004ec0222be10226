"""Real server processes for the multi-process, crash and fuzz tests, and a WebSocket seat.

``python -m tests.app.processes --port P`` serves the app the way ``python -m app`` does
(uvicorn, graceful shutdown), except that every hand is dealt from ``MU_TEST_SEED``: two
processes then deal the same cards whichever of them deals, so a run can be compared with a
single-process one. The seed source exists only here, in the tests, never in the app.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from app.__main__ import GRACEFUL_SECONDS
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
SEED_ENV = "MU_TEST_SEED"
SEED = 4_242_424_242
TIMEOUT = 10.0
STARTUP_S = 90


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Running:
    """What :func:`run_command` started: its address, and afterwards everything it printed."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.ws = f"ws://127.0.0.1:{port}"
        self.output = ""


@contextmanager
def run_command(folder: Path, *, cwd: Path = ROOT, **env: str) -> Iterator[Running]:
    """``python -m app`` (the real entry point) on a fresh SQLite file in ``folder``, with
    ``env`` added to the environment, in ``cwd`` (the checkout), until the block ends."""
    port = free_port()
    environment = {**os.environ, "DATABASE_URL": f"sqlite:///{folder / 'fresh.db'}", **env}
    command = [sys.executable, "-m", "app", "--host", "127.0.0.1", "--port", str(port)]
    server = subprocess.Popen(
        command, cwd=cwd, env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    running = Running(port)

    def answers() -> bool:
        assert server.poll() is None, server.stdout.read() if server.stdout else ""
        try:
            httpx.get(f"{running.base}/healthz", timeout=1)
        except httpx.TransportError:
            return False
        return True

    try:
        # A loaded machine takes long to import the app.
        wait_until(answers, STARTUP_S, "the server did not start")
        yield running
    finally:
        server.terminate()
        running.output = server.communicate(timeout=20)[0].decode()


class Server:
    """One ``uvicorn`` process on ``database_url``; ``start`` waits for ``/healthz`` = 200."""

    def __init__(
        self, database_url: str, *, multi_process: bool = True, env: dict[str, str] | None = None
    ) -> None:
        self.database_url = database_url
        self.multi_process = multi_process
        self.env = env or {}
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] = tempfile.TemporaryFile()

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "MULTI_PROCESS": "1" if self.multi_process else "0",
            "RESYNC_SECONDS": "1",
            SEED_ENV: str(SEED),
            "RATE_LIMITS": "false",  # every table and seat of a test comes from one address
            **self.env,
        }
        command = [sys.executable, "-m", "tests.app.processes", "--port", str(self.port)]
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=self._log, stderr=subprocess.STDOUT
        )
        process = self.process

        def healthy() -> bool:
            if process.poll() is not None:
                raise RuntimeError(f"server exited {process.returncode}:\n{self.output()}")
            with contextlib.suppress(httpx.HTTPError):
                return httpx.get(f"{self.http}/healthz", timeout=1).status_code == 200
            return False

        try:  # a loaded machine takes long to import the app
            wait_until(healthy, STARTUP_S, "server did not come up")
        except AssertionError as failed:
            raise RuntimeError(f"{failed}:\n{self.output()}") from None

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs at all."""
        assert self.process is not None
        self.process.kill()
        self.process.wait(timeout=10)

    def terminate(self) -> int:
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        # The server drains for up to GRACEFUL_SECONDS, then exits: a loaded machine (a busy
        # core, coverage on) has been seen to need more than 10 s beyond that to finish.
        return self.process.wait(timeout=GRACEFUL_SECONDS + 50)

    def output(self) -> str:
        self._log.seek(0)
        return self._log.read().decode(errors="replace")

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self._log.close()


@contextmanager
def running(
    database_url: str, count: int = 2, env: dict[str, str] | None = None
) -> Iterator[list[Server]]:
    """``count`` server processes on one database, started side by side; killed after."""
    group = [Server(database_url, env=env) for _ in range(count)]
    try:
        with ThreadPoolExecutor(count) as pool:
            list(pool.map(Server.start, group))
        yield group
    finally:
        for server in group:
            server.close()


@contextlib.asynccontextmanager
async def started(
    database_url: str, count: int = 2, env: dict[str, str] | None = None
) -> AsyncIterator[list[Server]]:
    """:func:`running` for an async fixture (the processes start on a thread)."""
    pair = running(database_url, count, env)
    group = await asyncio.to_thread(pair.__enter__)
    try:
        yield group
    finally:
        pair.__exit__(None, None, None)


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = httpx.post(f"{base}{path}", json=body, timeout=TIMEOUT)
    assert response.status_code == 201, response.text
    result: dict[str, Any] = response.json()
    return result


def open_table(bases: list[str], players: int, **options: Any) -> tuple[str, list[str]]:
    """Create a table on ``bases[0]``; seat ``i`` joins through ``bases[i % len(bases)]``."""
    code = post(bases[0], "/api/tables", {"players": players, **options})["invite_code"]
    tokens = [
        post(bases[seat % len(bases)], f"/api/tables/{code}/seats", {"name": f"P{seat}"})["token"]
        for seat in range(players)
    ]
    return code, tokens


class Seat:
    """A WebSocket client: keeps the newest view and every other message in order."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.view: dict[str, Any] | None = None  # the newest "view" message
        self.views: list[dict[str, Any]] = []
        self.others: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.raw: list[str] = []
        self.close_code: int | None = None
        self._changed = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def connect(cls, ws_base: str, code: str, token: str | None) -> Seat:
        query = f"?token={token}" if token else ""
        ws = await connect(f"{ws_base}/ws/{code}{query}", max_size=2**22)
        return cls(ws)

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                text = raw if isinstance(raw, str) else raw.decode()
                self.raw.append(text)
                message = json.loads(text)
                if message["type"] == "view":
                    self.view = message
                    self.views.append(message)
                else:
                    self.others.put_nowait(message)
                self._changed.set()
        except ConnectionClosed:
            pass
        finally:
            self.close_code = self.ws.close_code
            self._changed.set()

    @property
    def version(self) -> int:
        return -1 if self.view is None else int(self.view["version"])

    async def at(self, version: int, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The newest view once it is at ``version`` or later."""
        return await self.until(lambda message: message["version"] >= version, timeout)

    async def until(
        self, test: Callable[[dict[str, Any]], bool], timeout: float = TIMEOUT
    ) -> dict[str, Any]:
        """The newest view once ``test`` holds for it."""
        async with asyncio.timeout(timeout):
            while self.view is None or not test(self.view):
                if self._reader.done():
                    raise ConnectionError(f"socket closed ({self.close_code})")
                self._changed.clear()
                await self._changed.wait()
        return self.view

    async def closed(self, timeout: float = TIMEOUT) -> int | None:
        async with asyncio.timeout(timeout):
            await self._reader
        return self.close_code

    async def reply(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next message that is not a view (an error, a pong)."""
        async with asyncio.timeout(timeout):
            return await self.others.get()

    async def send(self, message: dict[str, Any] | str | bytes) -> None:
        await self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    async def close(self) -> None:
        await self.ws.close()
        with contextlib.suppress(asyncio.CancelledError, ConnectionClosed):
            await self._reader


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    from app import logging as log
    from app.__main__ import serve
    from app.config import Settings
    from app.main import create_app

    seed = int(os.environ[SEED_ENV])
    log.configure()
    settings = Settings()
    serve(
        create_app(settings, seeds=lambda: seed),
        host="127.0.0.1",
        port=args.port,
        settings=settings,
    )


if __name__ == "__main__":
    main()
