"""One headless Chromium per test process, launched at the first browser test.

Launching Chromium takes seconds; a context (a fresh profile: cookies, storage, viewport,
locale) takes milliseconds. So a worker launches the browser once, every test gets its own
contexts, and the browser fixture closes whatever contexts a test left open.

Playwright's sync API keeps its event loop running on the main thread while it is open, and an
asyncio test could then not start its own: ``tests/conftest.py`` closes the browser before any
test that is not a browser test (the suite orders browser tests last, so that happens at most
once per worker in a whole run).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Assertions that mean "at once" name their own timeout; the others wait for the page, which
# takes longer than Playwright's default 5 s on a machine busy with two test workers.
EXPECT_TIMEOUT_MS = 15_000

_open: dict[str, Any] = {}


def unavailable(reason: str) -> None:
    """Skip (or, where CI requires the browser tests, fail) for lack of a browser."""
    if os.environ.get("MU_REQUIRE_BROWSER"):
        pytest.fail(f"browser tests required but {reason}")
    pytest.skip(reason)


def shared() -> Browser:
    """This process's Chromium, launched on first use."""
    if "browser" in _open:
        return _open["browser"]  # type: ignore[no-any-return]
    if not Path(CHROMIUM).exists():
        unavailable(f"{CHROMIUM} is not installed")
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        unavailable("playwright is not installed")
    expect.set_options(timeout=EXPECT_TIMEOUT_MS)
    playwright = sync_playwright().start()
    _open["playwright"] = playwright
    _open["browser"] = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    return _open["browser"]  # type: ignore[no-any-return]


def close() -> None:
    """Close the browser and stop Playwright (and its event loop), if they are open."""
    browser, playwright = _open.pop("browser", None), _open.pop("playwright", None)
    if browser is not None:
        browser.close()
    if playwright is not None:
        playwright.stop()
