"""One headless Chromium per test process, launched at the first browser test.

Launching Chromium takes seconds; a context (a fresh profile: cookies, storage, viewport,
locale) takes milliseconds. So a worker launches the browser once, every test gets its own
contexts, and the browser fixture closes whatever contexts a test left open.

The browser is Debian's ``chromium-headless-shell``: the same Chromium build (Blink, V8, the
network stack) without the desktop browser around it, which is what Playwright itself runs for
headless tests: a whole hand for four through the UI needs about a fifth less CPU on it than on
the full ``/usr/bin/chromium``, and with reduced motion (``conftest.py``) the browser tier needs
about half the CPU it did (docs/client.md#tests). The full browser is launched too, only for a
test marked ``full_chromium``: the shell has no notification centre, so a service worker's
``showNotification`` shows nothing there.

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

HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell"
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


def shared(*, full: bool = False) -> Browser:
    """This process's headless shell (``full``: its full Chromium), launched on first use."""
    name, path = ("full", CHROMIUM) if full else ("shell", HEADLESS_SHELL)
    if name in _open:
        return _open[name]  # type: ignore[no-any-return]
    if not Path(path).exists():
        package = "chromium" if full else "chromium-headless-shell"
        unavailable(f"{path} is not installed (apt-get install -y {package})")
    if "playwright" not in _open:
        try:
            from playwright.sync_api import expect, sync_playwright
        except ImportError:
            unavailable("playwright is not installed")
        expect.set_options(timeout=EXPECT_TIMEOUT_MS)
        _open["playwright"] = sync_playwright().start()
    _open[name] = _open["playwright"].chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
    return _open[name]  # type: ignore[no-any-return]


def close() -> None:
    """Close the browsers and stop Playwright (and its event loop), if they are open."""
    for name in ("shell", "full"):
        browser = _open.pop(name, None)
        if browser is not None:
            browser.close()
    playwright = _open.pop("playwright", None)
    if playwright is not None:
        playwright.stop()
