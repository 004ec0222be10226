"""Fixtures for the end-to-end tests: the real server in a subprocess and Debian's Chromium.

Without Chromium (or Playwright) the browser tests skip, unless ``MU_REQUIRE_BROWSER`` is set:
then they fail, so CI can never pass on a silently skipped browser suite.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO / "artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}
NARROW = {"width": 360, "height": 740}
STARTUP_S = 60
EXPECT_TIMEOUT_MS = 15_000


def _unavailable(reason: str) -> None:
    if os.environ.get("MU_REQUIRE_BROWSER"):
        pytest.fail(f"browser tests required but {reason}")
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """``python -m app`` (migrations, then uvicorn) on a free port and a fresh SQLite file."""

    def __init__(self, database: Path) -> None:
        self.port = _free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        # One address opens every table of the suite: more than a person would in a minute.
        self.env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "RATE_LIMITS": "false"}
        # Hand reviews cost seconds of CPU per hand: only the review tests' server runs them.
        self.env.setdefault("REVIEW_WORKERS", "0")
        self.env.pop("BASE_URL", None)  # invite links must point at this server
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "app", "--host", "127.0.0.1", "--port", str(self.port)],
            cwd=REPO,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        # ~2 s on an idle machine; a CI machine busy with two test workers' browsers is slower.
        deadline = time.monotonic() + STARTUP_S
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.base_url + "/", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not start within {STARTUP_S} s")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None

    def api(self, method: str, path: str, **kwargs: object) -> httpx.Response:
        return httpx.request(method, self.base_url + path, timeout=5, **kwargs)  # type: ignore[arg-type]

    def new_table(self, players: int, **options: object) -> str:
        response = self.api("POST", "/api/tables", json={"players": players, **options})
        response.raise_for_status()
        return str(response.json()["invite_code"])


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("browser-db") / "mu.db")
    running.start()
    yield running
    running.stop()


# Per module, not per session: Playwright's sync API keeps an event loop running while it is
# open, and asyncio tests collected after the browser tests could not start their own.
@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        _unavailable(f"{CHROMIUM} is not installed")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed")
    from playwright.sync_api import expect

    # Assertions that mean "at once" name their own timeout; the others only wait for the page,
    # which takes longer than Playwright's default 5 s on a CI machine busy with two workers.
    expect.set_options(timeout=EXPECT_TIMEOUT_MS)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
