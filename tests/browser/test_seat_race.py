"""Two phones racing for one seat: the lobby follows every view while a seat request is on its
way, and a seat the newcomer chose that someone else took first is never silently replaced by
another one; the newcomer is told and picks again.

The newcomer's ``POST …/seats`` is held in the browser (``page.route``) while another player
takes the seat through the API, then let go.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tests.browser.conftest import PHONE, Server

pytestmark = pytest.mark.browser

TAKEN = "That seat was just taken. Pick another one."


SEATS = "**/api/tables/*/seats"


def _held_seat_requests(page: Page) -> list[Route]:
    """Holds the page's seat requests until the test lets them go (:func:`_release`)."""
    held: list[Route] = []
    page.route(SEATS, lambda route: held.append(route))
    return held


def _newcomer(browser: Browser, server: Server, code: str) -> Page:
    page = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    page.goto(f"{server.base_url}/t/{code}")
    expect(page.get_by_test_id("join-form")).to_be_visible()
    page.get_by_test_id("name-input").fill("Anna")
    return page


def _release(page: Page, held: list[Route]) -> None:
    """Lets the one held seat request go on to the server; later ones are not held."""
    for _ in range(50):
        if held:
            break
        page.wait_for_timeout(100)  # the route handler runs only while Playwright does
    assert len(held) == 1, "the seat request never left the page"
    held.pop().continue_()
    page.unroute(SEATS)


def test_a_refused_seat_request_finds_the_picker_up_to_date(
    browser: Browser, server: Server
) -> None:
    code = server.new_table(4)
    page = _newcomer(browser, server, code)
    held = _held_seat_requests(page)
    page.get_by_test_id("seat-choice-1").check()
    page.get_by_test_id("take-seat").click()
    # While Anna's request is on its way, Ben takes seat 2 and then seat 1 goes to Cleo.
    server.api("POST", f"/api/tables/{code}/seats", json={"name": "Ben", "seat": 2})
    server.api("POST", f"/api/tables/{code}/seats", json={"name": "Cleo", "seat": 1})
    # The views of both joins are drawn at once, request or not.
    expect(page.locator("#seat-picker")).to_contain_text("Ben", timeout=1900)
    expect(page.locator("#seat-picker")).to_contain_text("Cleo", timeout=1900)
    expect(page.get_by_test_id("seat-choice-2")).to_be_disabled()
    _release(page, held)
    # Refused: said so, and the picker does not offer the taken seat as free.
    error = page.locator("#join .form-error")
    expect(error).to_have_text(TAKEN)
    expect(page.get_by_test_id("join-form")).to_be_visible()
    expect(page.get_by_test_id("seat-choice-1")).to_be_disabled()
    expect(page.get_by_test_id("seat-choice-1")).not_to_be_checked()
    assert page.locator("#seat-picker input:checked").count() == 0
    # Another seat, chosen by Anna herself, is hers.
    page.get_by_test_id("seat-choice-3").check()
    page.get_by_test_id("take-seat").click()
    expect(page.locator("#seat-list")).to_contain_text("Seat 4 Anna (you)")
    page.context.close()


def test_a_chosen_seat_taken_by_someone_else_is_not_silently_replaced(
    browser: Browser, server: Server
) -> None:
    code = server.new_table(4)
    page = _newcomer(browser, server, code)
    page.get_by_test_id("seat-choice-2").check()
    # Before Anna sends her request, Ben takes the seat she chose.
    server.api("POST", f"/api/tables/{code}/seats", json={"name": "Ben", "seat": 2})
    expect(page.get_by_test_id("seat-choice-2")).to_be_disabled(timeout=1900)
    error = page.locator("#join .form-error")
    expect(error).to_have_text(TAKEN)
    # No other seat was picked for her: taking "the seat" now sends nothing and says so again.
    assert page.locator("#seat-picker input:checked").count() == 0
    held = _held_seat_requests(page)
    page.get_by_test_id("take-seat").click()
    expect(error).to_have_text(TAKEN)
    page.wait_for_timeout(300)  # an absence: time for a request that must not be sent
    assert held == []
    # She picks seat 3; while that request is held, Cleo joins too (any free seat: seat 0).
    page.get_by_test_id("seat-choice-3").check()
    page.get_by_test_id("take-seat").click()
    server.api("POST", f"/api/tables/{code}/seats", json={"name": "Cleo"})
    expect(page.locator("#seat-picker")).to_contain_text("Cleo", timeout=1900)
    expect(error).to_be_hidden()
    _release(page, held)
    expect(page.locator("#seat-list")).to_contain_text("Seat 4 Anna (you)")
    expect(page.locator("#seat-list")).to_contain_text("Seat 1 Cleo")
    page.context.close()
