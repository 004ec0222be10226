"""A group of friends in the browser: start it from the home page, claim a name, open a table
from the group page, play a hand against bots, then see the standings and the rating chart."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, Screenshots, Server
from tests.browser.driver import play_until_summary

pytestmark = pytest.mark.browser
WIDE = {"width": 1280, "height": 800}


def fits(page: Page) -> None:
    """Nothing wider than the viewport (the page never scrolls sideways)."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_group_claim_play_and_standings(
    browser: Browser, server: Server, screenshots: Screenshots
) -> None:
    page = browser.new_context(viewport=WIDE, locale="en-GB").new_page()
    page.goto(server.base_url + "/")
    page.get_by_test_id("new-group").get_by_test_id("group-name-input").fill("Tuesday friends")
    page.get_by_test_id("create-group").click()
    page.wait_for_url(re.compile(r"/g/[\w-]{32,}$"))
    group_url = page.url
    expect(page.get_by_test_id("group-name")).to_have_text("Tuesday friends")
    expect(page.get_by_test_id("no-standings")).to_be_visible()

    page.get_by_test_id("claim-name").fill("Anna")
    page.get_by_test_id("claim-submit").click()
    expect(page.get_by_test_id("claimed")).to_contain_text("On this device you are Anna")

    # A table of the group: 3 players, one hand.
    page.get_by_test_id("g-players-3").check()
    page.get_by_test_id("g-ends-hands").check()
    page.get_by_test_id("g-hands").fill("1")
    page.get_by_test_id("g-open-table").click()
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    code = page.url.rsplit("/", 1)[1]
    page.get_by_test_id("add-bot-1").click()
    expect(page.get_by_test_id("bot-seat-1")).to_have_count(0)
    page.get_by_test_id("add-bot-2").click()
    expect(page.get_by_test_id("bot-seat-2")).to_have_count(0)
    page.get_by_test_id("name-input").fill("Anna")
    page.get_by_test_id("seat-choice-0").check(force=True)
    page.get_by_test_id("take-seat").click()
    expect(page.get_by_test_id("board")).to_be_visible()
    play_until_summary(page)

    page.goto(group_url)
    players = page.get_by_test_id("players")
    expect(players).to_be_visible()
    expect(players.locator("tbody tr")).to_have_count(3)
    me = players.locator("tbody tr", has_text="you")
    expect(me.get_by_test_id("p-name")).to_contain_text("Anna")
    expect(me.get_by_test_id("p-hands")).to_have_text("1")
    expect(me.get_by_test_id("p-rating")).to_contain_text("±")
    expect(page.get_by_test_id("games").locator("tbody tr")).to_have_count(1)
    chart = page.get_by_test_id("rating-chart").locator("svg.chart")
    expect(chart).to_be_visible()
    expect(chart.locator("polyline")).to_have_count(3)
    expect(page.get_by_test_id("score-chart").locator("svg.chart polyline")).to_have_count(3)
    fits(page)
    screenshots.take(page, "group-desktop.png", full_page=True)

    # The filter: the revised edition has no game in this group.
    page.get_by_test_id("filter-variant").select_option("revised")
    page.get_by_test_id("filter-submit").click()
    expect(page.get_by_test_id("no-standings")).to_be_visible()

    # The score sheet's running totals chart, and the game as a file.
    page.goto(f"{server.base_url}/t/{code}/sheet")
    expect(page.get_by_test_id("totals-chart").locator("svg.chart polyline")).to_have_count(3)
    expect(page.get_by_test_id("game-file-link")).to_be_visible()

    phone = browser.new_context(viewport=PHONE, locale="de-DE").new_page()
    phone.goto(group_url)
    expect(phone.get_by_test_id("standings")).to_contain_text("Tabelle")
    fits(phone)
    screenshots.take(phone, "group-phone.png", full_page=True)
    phone.goto(f"{server.base_url}/t/{code}/sheet")
    fits(phone)
    screenshots.take(phone, "sheet-chart-phone.png", full_page=True)
    # The game as a file, pasted into the import page with a card that does not exist.
    game = server.api("GET", f"/t/{code}/game.txt").text
    broken = game.replace("[Auction]\n", "[Auction]\nX", 1)
    phone.goto(f"{server.base_url}/import")
    phone.get_by_test_id("import-text").fill(broken)
    phone.get_by_test_id("import-submit").click()
    expect(phone.get_by_test_id("import-error")).to_contain_text("Zeile")
    fits(phone)
    screenshots.take(phone, "import-error-phone.png", full_page=True)
    phone.get_by_test_id("import-text").fill(game)
    phone.get_by_test_id("import-submit").click()
    phone.wait_for_url(re.compile(r"/import/[\w-]+/hands/1$"))
    expect(phone.get_by_test_id("explanation")).to_be_visible()
    fits(phone)
    screenshots.take(phone, "import-replay-phone.png", full_page=True)
    phone.context.close()
    page.context.close()
