"""Practice tables in the browser (issue 39): from the review's costliest decision after the
first step, "Play on from here" opens a practice table on the same deal at that moment; the
player takes that decision's seat, seats bots for the others and finishes the hand; the
practice hand's page links back to where it branched. Also "Play this deal again" from the hand
page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, Screenshots, Server
from tests.browser.driver import play_until_summary
from tests.waiting import wait_until

pytestmark = pytest.mark.browser

DESKTOP_WIDE = {"width": 1280, "height": 800}
REVIEW_TIMEOUT_S = 120


@pytest.fixture(scope="module")
def practice_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Quick bots and a review worker: the hands here are played by bots and reviewed."""
    running = Server(tmp_path_factory.mktemp("practice-db") / "mu.db")
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


@pytest.fixture(scope="module")
def reviewed(practice_server: Server) -> tuple[str, dict[str, Any]]:
    """A one-hand table of three bots, played to its end and reviewed: its code and review."""
    server = practice_server
    created = server.api("POST", "/api/tables", json={"players": 3, "hands": 1}).json()
    code = created["invite_code"]
    bearer = {"Authorization": f"Bearer {created['host_token']}"}
    for seat in range(3):
        added = server.api("POST", f"/api/tables/{code}/bots", json={"seat": seat}, headers=bearer)
        assert added.status_code == 201, added.text

    def done() -> dict[str, Any] | None:
        answer = server.api("GET", f"/api/tables/{code}/hands/1/review")
        body: dict[str, Any] = answer.json() if answer.status_code == 200 else {}
        return body if body.get("status") == "done" else None

    review = wait_until(done, REVIEW_TIMEOUT_S, "the bots' hand was not reviewed")
    assert review is not None
    return code, review


def _seat_and_fill(page: Page, seat: int) -> None:
    page.get_by_test_id("name-input").fill("Anna")
    page.get_by_test_id(f"seat-choice-{seat}").check(force=True)
    page.get_by_test_id("take-seat").click()
    expect(page.get_by_test_id("join-form")).to_be_hidden()
    page.get_by_test_id("fill-bots").click()


def test_play_on_from_the_costliest_decision_against_bots(
    browser: Browser,
    practice_server: Server,
    reviewed: tuple[str, dict[str, Any]],
    screenshots: Screenshots,
) -> None:
    server = practice_server
    code, review = reviewed
    # The costliest decision after the first step: from step 0 a practice table plays the deal
    # again (the note says so, not "from step 0"; the German test below covers it), and which
    # decision costs most depends on the server's random deal (in one CI run it was the first bid).
    later = [d for d in review["decisions"] if d["move"] > 0]
    costliest = max(later, key=lambda d: (d["loss"], -d["move"]))
    seat, move = costliest["seat"], costliest["move"]
    before = server.api("GET", f"/api/tables/{code}").json()

    page = browser.new_context(viewport=DESKTOP_WIDE, locale="en-GB").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server.base_url}/t/{code}/hands/1#review")
    section = page.get_by_test_id(f"review-seat-{seat}")
    section.locator("details summary").click()
    button = section.locator(f'[data-testid="practice-decision"][data-practice-step="{move}"]')
    expect(button).to_be_visible()
    expect(button).to_have_text("Play on from here")
    screenshots.take(page, "practice-review-desktop.png")
    button.click()

    page.wait_for_url(re.compile(r"/t/[^/]+$"))
    practice = page.url.rsplit("/", 1)[1]
    assert practice != code
    note = page.get_by_test_id("lobby-practice")
    expect(note).to_contain_text(f"from step {move}")
    expect(note.get_by_test_id("lobby-practice-link")).to_have_attribute(
        "href", f"/t/{code}/hands/1?step={move}#replay"
    )
    screenshots.take(page, "practice-lobby-desktop.png")
    _seat_and_fill(page, seat)
    # The hand goes on from that moment: the same seat is to move as then, against bots.
    play_until_summary(page)
    info = server.api("GET", f"/api/tables/{practice}").json()
    assert info["status"] == "over" and info["options"]["practice"]["step"] == move

    # The practice hand's page says where it came from and links back there.
    page.goto(f"{server.base_url}/t/{practice}/hands/1")
    origin = page.get_by_test_id("practice-origin")
    expect(origin).to_contain_text("Practice")
    expect(origin.get_by_test_id("practice-origin-link")).to_have_attribute(
        "href", f"/t/{code}/hands/1?step={move}#replay"
    )
    # The original table is as it was.
    assert server.api("GET", f"/api/tables/{code}").json() == before
    assert errors == []
    page.context.close()


def test_play_this_deal_again_from_the_phone_in_german(
    browser: Browser,
    practice_server: Server,
    reviewed: tuple[str, dict[str, Any]],
    screenshots: Screenshots,
) -> None:
    server = practice_server
    code, _review = reviewed
    page = browser.new_context(viewport=PHONE, locale="de-DE").new_page()
    page.goto(f"{server.base_url}/t/{code}/hands/1?lang=de")
    again = page.get_by_test_id("practice-again")
    expect(again).to_have_text("Dieses Blatt noch einmal spielen")
    # The replay's own button follows the replay's step (swapped in by the script).
    page.get_by_test_id("step-next").click()
    expect(page.get_by_test_id("practice-here")).to_have_attribute("data-practice-step", "1")
    expect(page.get_by_test_id("practice-here")).to_be_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide"
    screenshots.take(page, "practice-hand-phone-de.png")
    again.click()
    page.wait_for_url(re.compile(r"/t/[^/]+$"))
    expect(page.get_by_test_id("lobby-practice")).to_contain_text("noch einmal gespielt")
    screenshots.take(page, "practice-lobby-phone-de.png")
    _seat_and_fill(page, 0)
    play_until_summary(page)
    # The two hand pages show each other side by side: the same cards, two plays.
    page.goto(f"{server.base_url}/t/{code}/hands/1")
    compare = page.get_by_test_id("same-deal")
    expect(compare.locator("h2")).to_have_text("Dieselben Karten, noch einmal gespielt")
    expect(compare.locator("thead th[scope=col]")).to_have_count(2)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide"
    compare.evaluate("el => el.scrollIntoView()")
    screenshots.take(page, "practice-same-deal-phone-de.png")
    page.set_viewport_size(DESKTOP_WIDE)
    screenshots.take(page, "practice-same-deal-desktop-de.png")
    page.context.close()
