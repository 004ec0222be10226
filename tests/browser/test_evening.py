"""A whole evening in several browsers, on a phone (390×844) and a laptop (1280×800): two
people and a bot play a short game; they talk and react; one drops out (everyone sees the
countdown, a bot plays for them, they come back and take their seat again); the game ends
with its standings, and "Play again" takes everyone to the next game in the same seats."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, Screenshots, Server
from tests.browser.driver import join, open_talk, plain_move, version, wait_past
from tests.waiting import wait_until

pytestmark = pytest.mark.browser
LAPTOP = {"width": 1280, "height": 800}
TAKEOVER_S = 2
GAME_TIMEOUT_S = 120


def _my_turn(page: Page) -> bool:
    return bool(page.evaluate("document.body.classList.contains('my-turn')"))


def _play(pages: list[Page], until: Callable[[], object]) -> None:
    """The people move whenever it is their turn, until ``until()`` is true."""
    deadline = time.monotonic() + GAME_TIMEOUT_S

    def somebody_may_move_or_done() -> object:
        return until() or any(_may_move(page) for page in pages)

    while not until():
        left = deadline - time.monotonic()
        wait_until(somebody_may_move_or_done, left, "the game did not get there in time")
        for page in pages:
            if _may_move(page):
                seen = version(page)
                plain_move(page)
                wait_past(page, seen)


def _may_move(page: Page) -> bool:
    return _my_turn(page) and not page.locator("dialog[open]:not(.log-docked)").count()


def _undo_with_consent(anna: Page, ben: Page, shoot: Callable[[Page], None]) -> None:
    """At Anna's next move after which Ben is to move (not the bot), she asks to take it back
    and Ben allows it: the table is back before her move, and it is her turn again."""
    for _attempt in range(30):
        _play(
            [anna, ben],
            lambda: _my_turn(anna) and not anna.locator("dialog[open]:not(.log-docked)").count(),
        )
        seen = version(anna)
        plain_move(anna)
        wait_past(anna, seen)
        undo = anna.get_by_test_id("undo-button")
        if not (undo.is_visible() and _my_turn(ben)):
            continue
        moved = version(anna)
        undo.click()
        dialog = ben.get_by_test_id("undo-dialog")
        expect(dialog).to_contain_text("Anna asks to take back their last move.")
        expect(dialog.get_by_test_id("undo-countdown")).to_contain_text("s left to answer")
        shoot(ben)
        box = dialog.bounding_box()
        assert box is not None and box["width"] <= ben.viewport_size["width"]  # type: ignore[index]
        dialog.get_by_test_id("undo-allow").click()
        anna.wait_for_function("v => Number(document.body.dataset.version) > v", arg=moved)
        expect(anna.get_by_test_id("toast")).to_contain_text("Anna took back their last move.")
        # Ben's page, too, at the view Anna's toast came with: it may come a moment later
        # (a quiet run once found it still at Ben's turn).
        wait_past(ben, version(anna) - 1)
        assert _my_turn(anna) and not _my_turn(ben)
        expect(anna.get_by_test_id("undo-button")).to_be_hidden()
        return
    raise AssertionError("no move of Anna's was followed by Ben's turn")


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_a_whole_evening(
    browser: Browser, server: Server, screenshots: Screenshots, viewport: dict[str, int]
) -> None:
    width = viewport["width"]
    created = server.api(
        "POST", "/api/tables", json={"players": 3, "hands": 1, "takeover_seconds": TAKEOVER_S}
    ).json()
    code = created["invite_code"]
    bearer = {"Authorization": f"Bearer {created['host_token']}"}
    server.api("POST", f"/api/tables/{code}/bots", json={"seat": 2}, headers=bearer)
    anna = browser.new_context(viewport=viewport, locale="en-GB").new_page()
    ben = browser.new_context(viewport=viewport, locale="en-GB").new_page()
    join(anna, server.base_url, code, "Anna", 0)
    join(ben, server.base_url, code, "Ben", 1)
    for page in (anna, ben):
        expect(page.get_by_test_id("board")).to_be_visible()

    # Talk: a line and a reaction reach the other player at the speaker's seat.
    open_talk(anna)
    anna.get_by_test_id("chat-input").fill("Good luck, Ben!")
    anna.get_by_test_id("chat-send").click()
    anna.keyboard.press("Escape")
    expect(ben.get_by_test_id("bubble-0")).to_have_text("Good luck, Ben!")
    ben.get_by_test_id("react-thumbs_up").click()
    expect(anna.get_by_test_id("bubble-1")).to_have_text("👍")

    # Anna misclicks; she takes the move back and Ben allows it.
    _undo_with_consent(anna, ben, lambda page: screenshots.take(page, f"evening-undo-{width}.png"))

    # A few moves in, Ben drops out: a countdown, then a bot plays for him; he comes back.
    start = version(anna)
    _play([anna, ben], lambda: version(anna) >= start + 4)
    context = ben.context
    ben.close()
    expect(anna.get_by_test_id("away-1")).to_have_text(re.compile(r"away · bot in \d s"))
    screenshots.take(anna, f"evening-away-{width}.png")
    _play([anna], lambda: anna.get_by_test_id("bot-playing-1").count() > 0)
    ben = context.new_page()
    ben.goto(f"{server.base_url}/t/{code}")
    expect(ben.get_by_test_id("board")).to_be_visible()
    expect(anna.get_by_test_id("bot-playing-1")).to_have_count(0)

    # To the end of the game: the final standings, with Play again.
    summary = [page.get_by_test_id("summary") for page in (anna, ben)]
    _play([anna, ben], lambda: all(dialog.is_visible() for dialog in summary))
    for page in (anna, ben):
        expect(page.get_by_test_id("summary")).to_contain_text("Final standings")
        box = page.get_by_test_id("summary").bounding_box()
        assert box is not None and box["width"] <= width
    screenshots.take(anna, f"evening-end-{width}.png")
    anna.get_by_test_id("play-again").click()
    anna.wait_for_url(lambda url: code not in url)
    nxt = anna.url.rsplit("/", 1)[1]
    assert nxt != code
    # Ben is offered the next game and goes along, to his own seat.
    expect(ben.get_by_test_id("play-again")).to_have_text("Join the next game")
    screenshots.take(ben, f"evening-again-offer-{width}.png")
    ben.get_by_test_id("play-again").click()
    ben.wait_for_url(f"**/t/{nxt}")
    for page, seat in ((anna, 0), (ben, 1)):
        expect(page.get_by_test_id("board")).to_be_visible()
        expect(page.get_by_test_id(f"seat-{seat}")).to_contain_text("(you)")
    expect(anna.get_by_test_id("seat-2")).to_contain_text("Bot")
    screenshots.take(anna, f"evening-next-{width}.png")


def test_the_host_fills_the_table_with_bots_in_one_tap_and_a_newcomer_may_only_watch(
    browser: Browser, server: Server, screenshots: Screenshots
) -> None:
    host = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    host.goto(server.base_url + "/")
    host.get_by_text("4", exact=True).click()
    host.get_by_test_id("newcomers-take-bots").uncheck()
    host.get_by_test_id("create-table").click()
    host.wait_for_url(re.compile(r"/t/[\w-]+$"))
    code = host.url.rsplit("/", 1)[1]
    assert (
        server.api("GET", f"/api/tables/{code}").json()["options"]["newcomers_take_bots"] is False
    )
    host.get_by_test_id("name-input").fill("Anna")
    host.get_by_test_id("take-seat").click()
    screenshots.take(host, "evening-fill-bots-390.png")
    host.get_by_test_id("fill-bots").click()
    # The last bot deals the first hand: the lobby closes, the table is there.
    expect(host.get_by_test_id("board")).to_be_visible()
    for seat in (1, 2, 3):
        expect(host.get_by_test_id(f"seat-{seat}")).to_contain_text("Bot")
    newcomer = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    newcomer.goto(f"{server.base_url}/t/{code}")
    expect(newcomer.get_by_test_id("table-full")).to_contain_text("This table is full")
    newcomer.get_by_test_id("watch").click()
    expect(newcomer.get_by_test_id("board")).to_be_visible()
