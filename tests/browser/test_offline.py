"""Issue 38, point 7: a lost network is said at once, and the table is current soon after.

Two ways a phone loses its network: the browser knows (its ``offline`` event), or the line just
goes quiet with the socket still open (no event: a Wi-Fi without internet, a sleeping NAT). The
second is caught by the quicker heartbeat the page keeps while it is this seat's turn. Times are
taken in the page (``performance.now()``), from the loss to the notice and from the network's
return to the newest view on screen.

The table is played by a script (``scripted.py``); the page watches seat 1 as a second tab would,
so the script can move on while the page is cut off.
"""

from __future__ import annotations

import re
from typing import Literal

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from tests.browser.conftest import PHONE, Screenshots, Server
from tests.browser.scripted import ScriptedTable
from tests.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.service_worker]

SEAT = 1
LIMIT_MS = 5000  # the "within 5 s", both ways
# The page's own clock for the browser's network events.
CLOCK = """
window.__net = {};
addEventListener("offline", () => (window.__net.offlineAt = performance.now()));
addEventListener("online", () => (window.__net.onlineAt = performance.now()));
"""
BANNER_SHOWN = """() => {
  const banner = document.querySelector("[data-testid=reconnect-banner]");
  return Boolean(banner) && !banner.hidden && banner.offsetHeight > 0 && performance.now();
}"""
VERSION_SHOWN = "v => Number(document.body.dataset.version) >= v && performance.now()"


class Line:
    """The page's WebSocket passed through to the server, until the line goes quiet: the open
    socket then carries nothing either way, and new ones are refused, as on a dead network."""

    def __init__(self) -> None:
        self.quiet = False
        self.refused = 0

    def handle(self, ws: WebSocketRoute) -> None:
        if self.quiet:
            self.refused += 1
            ws.close(code=4000, reason="no network")
            return
        server = ws.connect_to_server()
        ws.on_message(lambda message: None if self.quiet else server.send(message))
        server.on_message(lambda message: None if self.quiet else ws.send(message))


def wait_refused(page: Page, line: Line, count: int) -> None:
    """Until the page has tried ``count`` sockets in vain. Playwright hands a socket to the route
    only while it is called, so each look asks the page something."""
    wait_until(lambda: page.evaluate("true") and line.refused >= count, 30, "no retries")


def now(page: Page) -> float:
    return float(page.evaluate("performance.now()"))


def at(page: Page, condition: str, arg: object = None) -> float:
    """The page's time at which ``condition`` first held (it returns that time)."""
    handle = page.wait_for_function(condition, arg=arg, timeout=3 * LIMIT_MS)
    return float(handle.json_value())


@pytest.mark.parametrize("loss", ["offline-event", "quiet-line"])
def test_7_a_lost_network_is_said_at_once(
    browser: Browser,
    server: Server,
    screenshots: Screenshots,
    loss: Literal["offline-event", "quiet-line"],
) -> None:
    with ScriptedTable(server, 3, hands=1) as table:
        context = browser.new_context(viewport=PHONE, locale="en-GB")
        context.add_init_script(CLOCK)
        page = context.new_page()
        line = Line()
        if loss == "quiet-line":
            page.route_web_socket(re.compile(r"/ws/"), line.handle)
        page.goto(table.rejoin_url(SEAT))
        table.play_until(lambda view: view["to_move"] == SEAT)
        at(page, VERSION_SHOWN, table.version)
        expect(page.locator("body.my-turn")).to_have_count(1)
        banner = page.get_by_test_id("reconnect-banner")
        expect(banner).to_be_hidden()

        # The network goes: the page says so within 5 s, in sight and to a screen reader.
        if loss == "offline-event":
            context.set_offline(True)
            lost = float(page.evaluate("window.__net.offlineAt"))
        else:
            lost = now(page)
            line.quiet = True
        shown = at(page, BANNER_SHOWN)
        assert shown - lost < LIMIT_MS, f"the notice came {shown - lost:.0f} ms after the loss"
        expect(banner).to_contain_text("Connection lost")
        expect(page.get_by_test_id("announcer")).to_contain_text("Connection lost")
        screenshots.take(page, f"offline-notice-{loss}-390x844.png")

        # Meanwhile the table goes on without the page (the script moves for seat 1 as another
        # tab of the same person would, then seat 2 moves).
        table.step()
        table.step()
        current = table.version

        # The network is back: the newest view is on screen within 5 s, the notice gone.
        if loss == "offline-event":
            context.set_offline(False)
            back = float(page.evaluate("window.__net.onlineAt"))
        else:
            # After the pauses between tries have grown to their longest (0.25, 0.5, 1, 2 s,
            # then 2.5 s, each ±50 %): the worst moment for a network to come back unannounced.
            wait_refused(page, line, 5)
            back = now(page)
            line.quiet = False
        current_at = at(page, VERSION_SHOWN, current)
        assert current_at - back < LIMIT_MS, f"current {current_at - back:.0f} ms after the return"
        expect(banner).to_be_hidden()
        expect(page.get_by_test_id("announcer")).to_contain_text("Connected again")
        context.close()
