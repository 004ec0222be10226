"""A group's game on the deals of an earlier game, in the browser (issue 39, point 2): "Play
these deals" on the group page opens the new game as its host, bots play it, and the group page
then links both games to the page that compares them deal by deal (phone and laptop)."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import PHONE, Screenshots, Server
from tests.waiting import wait_until

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1280, "height": 800}
GAME_TIMEOUT_S = 60


def _over(server: Server, code: str) -> bool:
    return bool(server.api("GET", f"/api/tables/{code}").json()["status"] == "over")


def test_play_the_deals_of_a_game_again_and_compare(
    browser: Browser, server: Server, screenshots: Screenshots
) -> None:
    with httpx.Client(base_url=server.base_url, timeout=10) as client:
        made = client.post("/g", data={"name": "Freitagsrunde"})
        group = made.headers["location"].removeprefix("/g/")
        form = {"players": "3", "variant": "classic", "ends": "hands", "hands": "2"}
        opened = client.post(f"/g/{group}/tables", data=form)
        first = opened.headers["location"].removeprefix("/t/")
        for seat in range(3):  # the host cookie came with the redirect
            added = client.post(f"/api/tables/{first}/bots", json={"seat": seat})
            assert added.status_code == 201, added.text
    wait_until(lambda: _over(server, first), GAME_TIMEOUT_S, "the bots' game did not end")

    page = browser.new_context(viewport=LAPTOP, locale="en-GB").new_page()
    page.goto(f"{server.base_url}/g/{group}")
    page.get_by_test_id("play-deals").first.click()
    page.wait_for_url(re.compile(r"/t/[^/]+$"))
    again = page.url.rsplit("/", 1)[1]
    page.get_by_test_id("fill-bots").click()  # the host: bots at every seat
    wait_until(lambda: _over(server, again), GAME_TIMEOUT_S, "the second game did not end")

    page.goto(f"{server.base_url}/g/{group}")
    expect(page.get_by_test_id("compare-deals")).to_have_count(2)
    page.get_by_test_id("compare-deals").first.click()
    page.wait_for_url(re.compile(rf"/g/{group}/deals/"))
    expect(page.get_by_test_id("deals-title")).to_have_text("The same deals")
    expect(page.get_by_test_id("deal-1")).to_be_visible()
    expect(page.get_by_test_id("deals-seats").locator("tbody tr")).to_have_count(3)
    for seat in range(3):
        expect(page.get_by_test_id(f"deals-better-{seat}")).to_have_text(
            re.compile(r"(, by \d+|a tie|–)$")
        )
    screenshots.take(page, "group-deals-laptop.png", full_page=True)
    page.set_viewport_size(PHONE)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide"
    screenshots.take(page, "group-deals-phone.png", full_page=True)
    page.context.close()
