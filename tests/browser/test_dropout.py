"""Drop-outs in the browser: when a player's connection is lost everyone sees them away with a
countdown to the takeover, then a bot plays for them (marked); opening the table again (or
"I'm back" after a lost connection) gives them their seat back."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from tests.browser.conftest import PHONE, Screenshots, Server
from tests.browser.driver import join

pytestmark = pytest.mark.browser
LAPTOP = {"width": 1280, "height": 800}
TAKEOVER_S = 3


def two_humans_and_a_bot(
    browser: Browser, server: Server, viewport: dict[str, int]
) -> tuple[str, Page, Page]:
    created = server.api(
        "POST", "/api/tables", json={"players": 3, "hands": 1, "takeover_seconds": TAKEOVER_S}
    ).json()
    code = created["invite_code"]
    bearer = {"Authorization": f"Bearer {created['host_token']}"}
    server.api(
        "POST", f"/api/tables/{code}/bots", json={"seat": 2}, headers=bearer
    ).raise_for_status()
    pages = []
    for seat, name in enumerate(("Anna", "Ben")):
        page = browser.new_context(viewport=viewport, locale="en-GB").new_page()
        join(page, server.base_url, code, name, seat)
        pages.append(page)
    for page in pages:
        expect(page.get_by_test_id("board")).to_be_visible()
    return code, pages[0], pages[1]


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_away_countdown_takeover_and_reclaim(
    browser: Browser, server: Server, screenshots: Screenshots, viewport: dict[str, int]
) -> None:
    code, anna, ben = two_humans_and_a_bot(browser, server, viewport)
    context = ben.context
    ben.close()
    away = anna.get_by_test_id("away-1")
    expect(away).to_have_text(re.compile(r"away · bot in [1-3] s"))
    screenshots.take(anna, f"dropout-countdown-{viewport['width']}.png")
    expect(anna.get_by_test_id("bot-playing-1")).to_be_visible(timeout=TAKEOVER_S * 1000 + 3000)
    expect(away).to_have_count(0)
    screenshots.take(anna, f"dropout-bot-{viewport['width']}.png")
    # Ben opens the table again: his seat is his at once, the bot stops. (His socket goes
    # through a route the test can cut, as a lost network would.)
    ben = context.new_page()
    line = Line()
    ben.route_web_socket(re.compile(r"/ws/"), line.handle)
    ben.goto(f"{server.base_url}/t/{code}")
    expect(ben.get_by_test_id("board")).to_be_visible()
    expect(anna.get_by_test_id("bot-playing-1")).to_have_count(0)
    expect(anna.get_by_test_id("seat-1").locator(".presence")).to_have_attribute(
        "aria-label", "connected"
    )

    # His connection drops: his page says so and offers "I'm back", which reconnects at once
    # (rather than after the growing pause between tries).
    line.cut()
    banner = ben.get_by_test_id("reconnect-banner")
    expect(banner).to_be_visible(timeout=5000)
    expect(anna.get_by_test_id("away-1")).to_be_visible()
    screenshots.take(ben, f"dropout-banner-{viewport['width']}.png")
    # The page tries again after 0.25, 0.5, 1, 2 s, then every 2.5 s (each ±50 %): just after
    # its fifth refused try the next one is 1.25 s away or more, so the reconnection below is
    # the button's (the count of sockets opened says so).
    for _ in range(1500):  # 30 s at most
        if line.refused >= 5:
            break
        ben.wait_for_timeout(20)  # Playwright routes the socket only while it runs
    assert line.refused >= 5
    line.down = False
    tries = line.opened
    ben.get_by_test_id("im-back").click()
    expect(banner).to_be_hidden(timeout=2500)
    assert line.opened == tries + 1
    expect(anna.get_by_test_id("away-1")).to_have_count(0)


class Line:
    """The page's WebSocket, passed through to the server until cut."""

    def __init__(self) -> None:
        self.down = False
        self.opened = 0
        self.refused = 0
        self.current: WebSocketRoute | None = None

    def handle(self, ws: WebSocketRoute) -> None:
        if self.down:
            self.refused += 1
            ws.close(code=4000, reason="network down")
            return
        self.opened += 1
        ws.connect_to_server()
        self.current = ws

    def cut(self) -> None:
        self.down = True
        if self.current is not None:
            self.current.close(code=4000, reason="network down")
