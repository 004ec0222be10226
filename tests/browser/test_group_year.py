"""A group's year in the browser (issue 40): a group whose games fall in two seasons (last
year's and this year's, their tables' dates set in the database) shows the current season,
switches to last year's with its winner marked, and reaches the head-to-head page by keyboard
on a 390 px phone."""

from __future__ import annotations

import asyncio
import re
import threading
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Browser, Page, expect

from app.db import create_engine, create_session_factory
from app.groups import seasons
from tests.app.test_group_seasons import store_game
from tests.browser.conftest import PHONE, Screenshots, Server

pytestmark = pytest.mark.browser
WIDE = {"width": 1280, "height": 680}


def fits(page: Page) -> None:
    """Nothing wider than the viewport (the page never scrolls sideways)."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


async def _store_games(database_url: str, code: str, year: int) -> None:
    db = create_engine(database_url)
    sessions = create_session_factory(db)
    last = datetime(year - 1, 9, 1, 20, tzinfo=UTC)
    await store_game(sessions, code, last, 31, hands=2)
    await store_game(sessions, code, last + timedelta(days=7), 32, hands=2)
    await store_game(sessions, code, datetime(year, 2, 1, 20, tzinfo=UTC), 33, hands=2)
    await db.dispose()


def _group_with_two_seasons(server: Server) -> tuple[str, int]:
    created = server.api("POST", "/g", data={"name": "Donnerstagsrunde"})
    assert created.status_code == 303, created.text
    code = created.headers["location"].removeprefix("/g/")
    year = seasons.today().year
    # Playwright's sync API runs an event loop in this thread: the writes get one of their own.
    writer = threading.Thread(
        target=asyncio.run, args=(_store_games(server.env["DATABASE_URL"], code, year),)
    )
    writer.start()
    writer.join()
    return code, year


def test_season_switch_winner_and_head_to_head_on_a_phone(
    browser: Browser, server: Server, screenshots: Screenshots
) -> None:
    code, year = _group_with_two_seasons(server)
    page = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    page.goto(f"{server.base_url}/g/{code}")
    expect(page.get_by_test_id("season-shown")).to_have_text(f"Season {year}")
    expect(page.get_by_test_id("season-winner")).to_have_count(0)
    expect(page.get_by_test_id("earlier-seasons")).to_contain_text(f"Season {year - 1}")
    fits(page)
    screenshots.take(page, "group-phone.png", full_page=True)

    # The switch: last year's season, its final table with the winner marked.
    page.get_by_test_id("filter-season").select_option(label=f"Season {year - 1}")
    page.get_by_test_id("filter-submit").click()
    expect(page.get_by_test_id("season-shown")).to_have_text(f"Season {year - 1}")
    winner = page.get_by_test_id("player-0").get_by_test_id("season-winner")
    expect(winner).to_have_text("season winner")
    expect(page.get_by_test_id("season-final")).to_be_visible()
    fits(page)
    screenshots.take(page, "season-phone.png", full_page=True)

    # All time, then the head-to-head page by keyboard alone.
    page.get_by_test_id("filter-season").select_option("all")
    page.get_by_test_id("filter-submit").click()
    expect(page.get_by_test_id("season-shown")).to_have_text("All time")
    page.get_by_test_id("vs-a").focus()
    page.keyboard.press("Tab")
    expect(page.get_by_test_id("vs-b")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_test_id("vs-submit")).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/vs\?a=[^&]+&b=[^&]+$"))
    expect(page.get_by_test_id("vs-games")).to_have_text("3")
    expect(page.get_by_test_id("vs-member-0")).to_be_visible()
    fits(page)
    screenshots.take(page, "vs-phone.png", full_page=True)


def test_season_pages_in_german_on_a_laptop(
    browser: Browser, server: Server, screenshots: Screenshots
) -> None:
    code, year = _group_with_two_seasons(server)
    page = browser.new_context(viewport=WIDE, locale="de-DE").new_page()
    page.goto(f"{server.base_url}/g/{code}?season=1")
    expect(page.get_by_test_id("season-shown")).to_have_text(f"Saison {year - 1}")
    expect(page.get_by_test_id("season-winner")).to_have_text("Saisonsieg")
    page.get_by_test_id("season-rule").locator("summary").click()
    screenshots.take(page, "season-wide-de.png", full_page=True)
    page.goto(f"{server.base_url}/g/{code}/vs?a=anna&b=ben")
    expect(page.get_by_test_id("vs-pair")).to_contain_text("Partien zusammen")
    screenshots.take(page, "vs-wide-de.png", full_page=True)
