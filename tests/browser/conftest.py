"""Fixtures for the end-to-end tests: the real server in a subprocess and Debian's Chromium.

Shared where sharing is safe: one Chromium per test process (``chromium.py``) with fresh
contexts per test, and one server per process for every test that does not need settings of
its own. Without Chromium (or Playwright) the browser tests skip, unless ``MU_REQUIRE_BROWSER``
is set: then they fail, so CI can never pass on a silently skipped browser suite.

Screenshots are written only on request (``make screenshots``, or ``pytest --screenshots``):
the ``screenshots`` fixture's ``take`` does nothing otherwise.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.browser import chromium
from tests.waiting import wait_until

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

REPO = Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO / "artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}
NARROW = {"width": 360, "height": 740}
STARTUP_S = 60
STOP_S = 30
# The shared server's bots wait this long before they move: a hand against bots takes seconds,
# and every state still reaches the pages (they follow the versions, not the clock).
QUICK_BOTS_MS = "30"
# A completed trick stays on the felt this long (TRICK_PAUSE_MS, 1200 by default): short for
# every server here but the one of the tests about that pause (test_trick_and_hand_end.py).
QUICK_PAUSE_MS = "60"


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
        # A scripted seat (scripted.py) moves as fast as the server answers, a hundred moves in
        # a few seconds: over a socket's budget (10 a second, 30 at once), which answered the
        # script's move "rate_limited" and the script then waited for a view that never came.
        # The budget itself is tested in-process (tests/app/test_limits.py).
        self.env["WS_MESSAGES_PER_SECOND"] = "1000"
        # Hand reviews cost seconds of CPU per hand: only the review tests' server runs them.
        self.env.setdefault("REVIEW_WORKERS", "0")
        self.env.setdefault("TRICK_PAUSE_MS", QUICK_PAUSE_MS)
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
        # ~1 s on an idle machine; a CI machine busy with two test workers' browsers is slower.
        try:
            wait_until(self._answers, STARTUP_S, "the server did not start")
        except AssertionError:
            self.stop()
            raise

    def _answers(self) -> bool:
        try:
            return httpx.get(self.base_url + "/", timeout=1).status_code == 200
        except httpx.TransportError:
            return False

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            # The server drains first (GRACEFUL_SECONDS, 10 s, in app/__main__.py) and the review
            # server lets a review in progress end: on a loaded machine that took over 10 s.
            # The tests that need a clean shutdown check it themselves; here it only must end.
            try:
                self.process.wait(timeout=STOP_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None

    def api(self, method: str, path: str, **kwargs: object) -> httpx.Response:
        return httpx.request(method, self.base_url + path, timeout=5, **kwargs)  # type: ignore[arg-type]

    def new_table(self, players: int, **options: object) -> str:
        response = self.api("POST", "/api/tables", json={"players": players, **options})
        response.raise_for_status()
        return str(response.json()["invite_code"])


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """This process's server for every browser test that needs no settings of its own."""
    running = Server(tmp_path_factory.mktemp("browser-db") / "mu.db")
    running.env["BOT_DELAY_MS"] = QUICK_BOTS_MS
    running.start()
    yield running
    running.stop()


class Defaults:
    """The shared browser, whose new contexts ask for reduced motion and go without the service
    worker unless a test keeps them.

    Most tests look at what a page says and does, not at how it moves; pages whose cards and
    tricks do not slide draw far fewer frames: a whole hand for four through the UI needs about
    a sixth less CPU (docs/client.md#tests). The tests about motion (marked ``motion``: the
    trick that slides to its winner, the hand's celebration) get the pages a person sees by
    default.

    Every fresh context that opens a page would install the service worker, which fetches and
    stores every static file the pages use (about 25) and then answers each of the page's
    requests for them: about 0.3 CPU-seconds of the browser and the server per context, which
    is a third of what opening the home page costs (docs/client.md#tests). Only the tests about
    the worker and what it does (marked ``service_worker``: the installable app, its offline
    page and push, and a network lost under a page) keep it. A test may still ask for either
    in its own ``new_context(reduced_motion=..., service_workers=...)``.
    """

    def __init__(self, browser: Browser, *, motion: bool, service_worker: bool) -> None:
        self._browser = browser
        self._reduced_motion = "no-preference" if motion else "reduce"
        self._service_workers = "allow" if service_worker else "block"

    def new_context(self, **options: Any) -> BrowserContext:
        options.setdefault("reduced_motion", self._reduced_motion)
        options.setdefault("service_workers", self._service_workers)
        return self._browser.new_context(**options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@pytest.fixture
def browser(request: pytest.FixtureRequest) -> Iterator[Defaults]:
    """The process's Chromium (the headless shell; the full browser for a test marked
    ``full_chromium``); whatever contexts the test opened are closed after it."""
    shared = chromium.shared(full=request.node.get_closest_marker("full_chromium") is not None)
    marked = request.node.get_closest_marker
    yield Defaults(
        shared,
        motion=marked("motion") is not None,
        service_worker=marked("service_worker") is not None,
    )
    for context in shared.contexts:
        context.close()


class Screenshots:
    """Pictures to look at, under artifacts/screenshots/, when asked for (``--screenshots``)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder

    def take(self, page: Page, name: str, *, full_page: bool = False) -> None:
        if self.folder is not None:
            page.screenshot(path=self.folder / name, full_page=full_page)


@pytest.fixture(scope="session")
def screenshots(request: pytest.FixtureRequest) -> Screenshots:
    if not request.config.getoption("screenshots"):
        return Screenshots(None)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return Screenshots(SCREENSHOTS)
