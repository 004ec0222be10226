"""Screenshots of the table page to look at: every moment of an evening, for 3 and 6 players in
English and German, each at 390×844, 360×740 and 1280×800 (and 4 and 5 players mid-play).

Written, when asked for (``make screenshots``), to
artifacts/screenshots/table-<players>p-<lang>-<moment>-<width>x<height>.png. The checks here
make sure each moment shows what its name says, on every run; looking is for people.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.browser.conftest import Screenshots, Server
from tests.browser.driver import hold_tricks
from tests.browser.scripted import ScriptedTable, View

pytestmark = pytest.mark.browser

SIZES = [
    ViewportSize(width=390, height=844),
    ViewportSize(width=360, height=740),
    ViewportSize(width=1280, height=800),
]
LOCALES = {"en": "en-GB", "de": "de-DE"}


class Camera:
    """Shoots a moment at each size, when screenshots were asked for (``--screenshots``);
    otherwise the page stays at its first size and only the checks around it run."""

    def __init__(self, screenshots: Screenshots, players: int, lang: str) -> None:
        self.screenshots = screenshots
        self.prefix = f"table-{players}p-{lang}"

    def shoot(self, page: Page, moment: str, sizes: list[ViewportSize] = SIZES) -> None:
        if self.screenshots.folder is None:
            return
        for size in sizes:
            page.set_viewport_size(size)
            # The layout after the resize: two animation frames later it has been drawn.
            page.evaluate(
                "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
            )
            self.screenshots.take(
                page, f"{self.prefix}-{moment}-{size['width']}x{size['height']}.png"
            )


def _follow(pages: list[Page], table: ScriptedTable) -> None:
    # Up to six pages render every step the script just made; on a loaded two-core CI machine
    # that can take longer than Playwright's default 5 s.
    for page in pages:
        page.wait_for_function(
            "v => Number(document.body.dataset.version) >= v", arg=table.version, timeout=20_000
        )


def _seated_pages(browser: Browser, table: ScriptedTable, players: int, lang: str) -> list[Page]:
    pages = []
    for seat in range(players):
        page = browser.new_context(viewport=SIZES[0], locale=LOCALES[lang]).new_page()
        page.goto(table.rejoin_url(seat))
        pages.append(page)
    for page in pages:
        expect(page.get_by_test_id("board")).to_be_visible()
    return pages


def _lobby(browser: Browser, server: Server, camera: Camera, players: int, lang: str) -> None:
    """The creator's lobby with one friend already seated."""
    host = browser.new_context(viewport=SIZES[0], locale=LOCALES[lang]).new_page()
    host.goto(server.base_url + "/")
    host.get_by_text(str(players), exact=True).click()
    host.get_by_test_id("create-table").click()
    host.wait_for_url(re.compile(r"/t/[\w-]+$"))
    code = host.url.rsplit("/", 1)[1]
    server.api("POST", f"/api/tables/{code}/seats", json={"name": "Ben", "seat": 1})
    expect(host.locator("#seat-picker")).to_contain_text("Ben")
    camera.shoot(host, "lobby")
    host.context.close()


def _shoot_summary(
    camera: Camera, table: ScriptedTable, pages: list[Page], page: Page, moment: str, shows: str
) -> None:
    """The summary that opened when the hand (or the game) ended, with its score sheet loaded."""
    _follow(pages, table)
    summary = page.get_by_test_id("summary")
    expect(summary.get_by_test_id(shows)).to_be_visible()
    expect(summary.get_by_test_id("sheet-total-0")).to_be_visible()
    camera.shoot(page, moment)
    page.get_by_test_id("summary-close").click()


def _mover(pages: list[Page], view: View) -> Page:
    return pages[view["to_move"]]


@pytest.mark.parametrize(("players", "lang"), [(3, "en"), (3, "de"), (6, "en"), (6, "de")])
def test_screenshots_of_an_evening(
    browser: Browser, server: Server, screenshots: Screenshots, players: int, lang: str
) -> None:
    camera = Camera(screenshots, players, lang)
    _lobby(browser, server, camera, players, lang)
    with ScriptedTable(server, players, hands=2) as table:
        pages = _seated_pages(browser, table, players, lang)

        table.step()  # the dealer places a card: the next one bids against it
        _follow(pages, table)
        page = _mover(pages, table.view)
        expect(page.get_by_test_id("prompt")).to_have_attribute("data-prompt-type", "bid")
        camera.shoot(page, "auction")

        table.play_until(lambda view: view["phase"] in ("vice_trump", "chief_trump"))
        _follow(pages, table)
        page = _mover(pages, table.view)
        expect(page.get_by_test_id("prompt")).to_have_attribute("data-prompt-type", "trump")
        camera.shoot(page, "trump")

        if players > 3:
            table.play_until(lambda view: view["phase"] == "partner")
            _follow(pages, table)
            camera.shoot(_mover(pages, table.view), "partner")

        # Mid-trick, your turn, some of your cards dimmed when you must follow.
        table.play_until(
            lambda view: len(view["tricks"]) >= 2 and len(view["trick"]) == players // 2
        )
        _follow(pages, table)
        page = _mover(pages, table.view)
        expect(page.locator("body.my-turn")).to_have_count(1)
        camera.shoot(page, "play")

        # A newcomer finds the table full and watches: seat 0 sits at the bottom.
        newcomer = browser.new_context(viewport=SIZES[0], locale=LOCALES[lang]).new_page()
        newcomer.goto(f"{server.base_url}/t/{table.code}")
        expect(newcomer.get_by_test_id("table-full")).to_be_visible()
        camera.shoot(newcomer, "full", SIZES[:1])
        newcomer.get_by_test_id("watch").click()
        expect(newcomer.locator("#trick .played")).to_have_count(len(table.view["trick"]))
        camera.shoot(newcomer, "spectator")
        newcomer.context.close()

        # A trick just won: shot at once, before it moves to its winner (one size per trick).
        # The suite's server holds a won trick only briefly (TRICK_PAUSE_MS, quick for the
        # tests); these pages hold it as long as a real table does, for the camera.
        pause = pages[0].evaluate("document.getElementById('app').dataset.trickPauseMs")
        hold_tricks(pages, "2000")
        for size in SIZES:
            table.play_until(lambda view: len(view["trick"]) == players - 1)
            table.step()
            winner = pages[table.view["last_trick"]["winner"]]
            _follow([winner], table)
            expect(winner.locator("#trick.won")).to_have_count(1)
            camera.shoot(winner, "trick-won", [size])
            _follow(pages, table)
        hold_tricks(pages, pause)

        page = pages[0]
        page.get_by_test_id("look-back-button").click()
        expect(page.get_by_test_id("look-back-tricks")).to_be_visible()
        camera.shoot(page, "look-back")
        page.keyboard.press("Escape")
        page.get_by_test_id("help-button").click()
        expect(page.get_by_test_id("help")).to_be_visible()
        camera.shoot(page, "help")
        page.keyboard.press("Escape")

        table.play_until(lambda view: view["hand_number"] == 2)
        _shoot_summary(camera, table, pages, pages[1], "hand-summary", "sheet-slot")
        table.play_until(lambda view: False)
        _shoot_summary(camera, table, pages, pages[2], "game-end", "standings")
        camera.shoot(pages[2], "over")
        for each in pages:
            each.context.close()


@pytest.mark.parametrize(("players", "lang"), [(4, "en"), (5, "de")])
def test_screenshots_of_four_and_five(
    browser: Browser, server: Server, screenshots: Screenshots, players: int, lang: str
) -> None:
    camera = Camera(screenshots, players, lang)
    with ScriptedTable(server, players) as table:
        pages = _seated_pages(browser, table, players, lang)
        table.step()
        _follow(pages, table)
        camera.shoot(_mover(pages, table.view), "auction")
        table.play_until(
            lambda view: len(view["tricks"]) >= 2 and len(view["trick"]) == players - 1
        )
        _follow(pages, table)
        camera.shoot(_mover(pages, table.view), "play")
        for each in pages:
            each.context.close()
