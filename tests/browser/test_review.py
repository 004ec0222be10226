"""The hand review in the browser: a hand played against bots, the end-of-hand link, the
review's progress and then its moments, chart and alternatives (phone and desktop)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import NARROW, PHONE, Screenshots, Server
from tests.browser.driver import play_until_summary

pytestmark = pytest.mark.browser

DESKTOP_WIDE = {"width": 1280, "height": 800}
REVIEW_TIMEOUT_MS = 90_000


@pytest.fixture(scope="module")
def review_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of its own: quick bots, and a review worker that looks often."""
    running = Server(tmp_path_factory.mktemp("review-db") / "mu.db")
    # REVIEW_PRIORITY low: the review gets a share of the CPU even while other tests run.
    running.env.update(
        {
            "BOT_DELAY_MS": "30",
            "REVIEW_POLL_SECONDS": "0.3",
            "REVIEW_WORKERS": "1",
            "REVIEW_PRIORITY": "low",
        }
    )
    running.start()
    yield running
    running.stop()


def _fits(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width}px wide"  # type: ignore[index]


def test_a_hand_against_bots_is_reviewed_and_the_review_is_shown(
    browser: Browser, review_server: Server, screenshots: Screenshots
) -> None:
    server = review_server
    created = server.api("POST", "/api/tables", json={"players": 3, "hands": 1}).json()
    code = created["invite_code"]
    bearer = {"Authorization": f"Bearer {created['host_token']}"}
    for seat in (1, 2):
        added = server.api("POST", f"/api/tables/{code}/bots", json={"seat": seat}, headers=bearer)
        assert added.status_code == 201, added.text

    page = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server.base_url}/t/{code}")
    page.get_by_test_id("name-input").fill("Anna")
    page.get_by_test_id("seat-choice-0").check(force=True)
    page.get_by_test_id("take-seat").click()
    play_until_summary(page)

    # The end-of-hand summary links to the review of the hand just played.
    link = page.get_by_test_id("review-link")
    expect(link).to_have_attribute("href", re.compile(rf"/t/{code}/hands/1#review$"))
    link.click()
    page.wait_for_url(re.compile(rf"/t/{code}/hands/1"))
    review = page.get_by_test_id("review")
    expect(review).to_be_visible()
    # Progress while it runs (pending or running), then the result, without a reload.
    expect(review).to_have_attribute("data-status", "done", timeout=REVIEW_TIMEOUT_MS)
    body = server.api("GET", f"/api/tables/{code}/hands/1/review").json()
    assert body["status"] == "done" and body["decisions"]
    anna = page.get_by_test_id("review-seat-0")
    expect(anna).to_contain_text("Anna")
    expect(anna.get_by_test_id("review-chart")).to_be_visible()
    moments = [m for s in body["seats"] if s["seat"] == 0 for m in s["moments"]]
    for moment in moments:  # Anna reads her own review: "cost you"
        expect(anna).to_contain_text(moment.replace(" cost Anna ~", " cost you ~"))
    details = anna.locator("details")
    expect(details.locator(".h-alts").first).to_be_hidden()
    details.locator("summary").click()
    expect(details.locator("ol.h-decisions > li")).to_have_count(
        sum(1 for d in body["decisions"] if d["seat"] == 0)
    )
    _fits(page)
    screenshots.take(page, "review-phone-full.png", full_page=True)
    page.set_viewport_size(NARROW)
    _fits(page)  # the smallest phone we support
    page.set_viewport_size(PHONE)
    review.evaluate("el => el.scrollIntoView()")
    screenshots.take(page, "review-phone.png")
    assert errors == []

    desktop = browser.new_context(viewport=DESKTOP_WIDE, locale="de-DE").new_page()
    desktop.goto(f"{server.base_url}/t/{code}/hands/1?lang=de#review")
    section = desktop.get_by_test_id("review")
    expect(section.locator("h2")).to_have_text("Analyse")
    expect(section).to_have_attribute("data-status", "done")
    german = server.api("GET", f"/api/tables/{code}/hands/1/review?lang=de").json()
    for moment in [m for s in german["seats"] for m in s["moments"]][:3]:
        expect(section).to_contain_text(moment)
    _fits(desktop)
    section.evaluate("el => el.scrollIntoView()")
    screenshots.take(desktop, "review-desktop-de.png")
    desktop.context.close()
    page.context.close()


def test_a_beginner_hint_at_the_table_is_marked_on_the_sheet(
    browser: Browser, review_server: Server, screenshots: Screenshots
) -> None:
    server = review_server
    created = server.api("POST", "/api/tables", json={"players": 3, "hands": 1, "hints": True})
    code = created.json()["invite_code"]
    bearer = {"Authorization": f"Bearer {created.json()['host_token']}"}
    for seat in (1, 2):
        server.api("POST", f"/api/tables/{code}/bots", json={"seat": seat}, headers=bearer)

    page = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    page.goto(f"{server.base_url}/t/{code}")
    expect(page.locator("#lobby-options")).to_contain_text("beginner hints")
    page.get_by_test_id("name-input").fill("Anna")
    page.get_by_test_id("seat-choice-0").check(force=True)
    page.get_by_test_id("take-seat").click()
    button = page.get_by_test_id("hint-button")
    expect(button).to_be_visible(timeout=30_000)  # Anna's first turn
    button.click()
    text = page.get_by_test_id("hint-text")
    expect(text).to_contain_text("Hint: ")
    _fits(page)
    screenshots.take(page, "hint-phone.png")
    play_until_summary(page)
    expect(page.get_by_test_id("sheet-hint-1-0")).to_be_visible()
    sheet = server.api("GET", f"/api/tables/{code}/scoresheet").json()
    assert sheet["hints"] == [[0]]
    page.context.close()
