"""The table display on a TV (issue 38, point 5): every card of a hand and each trick's winner
appear on it, the hand's result and the running totals show between hands, the QR code steps
aside once every seat is taken, the short code it shows leads to the table (typed on the home
page, or as a short address), and the page fits a 1920×1080 and a 1280×720 screen."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.browser.conftest import PHONE, Screenshots, Server
from tests.browser.scripted import NAMES, ScriptedTable
from tests.browser.test_a11y import assert_accessible

pytestmark = pytest.mark.browser

TV = ViewportSize(width=1920, height=1080)
LAPTOP = ViewportSize(width=1280, height=720)
LOW_LAPTOP = ViewportSize(width=1280, height=680)
WAIT_MS = 30_000
# The short code's alphabet: no 0/O, no 1/l/I (shown in upper case).
SHORT = re.compile(r"^[2-9A-HJKMNP-Z]{6}$")

# Recorded in the page from its first view on: each change of the cards on the felt, with its
# time (performance.now()), and every line on the felt that says who won a trick.
_RECORD = """() => {
    window.muFelt = [];
    window.muWins = new Set();
    const look = () => {
        const cards = document.querySelectorAll('#trick .played .card');
        const ids = [...cards].map(c => c.dataset.cardId);
        const last = window.muFelt.at(-1);
        if (!last || last.ids.join() !== ids.join()) {
            window.muFelt.push({ t: performance.now(), ids });
        }
        const says = (el) => el.textContent.includes('wins the trick');
        for (const el of document.querySelectorAll('#felt, #felt *')) {
            if (says(el) && ![...el.children].some(says)) window.muWins.add(el.textContent.trim());
        }
    };
    look();
    new MutationObserver(look).observe(document.getElementById('board'),
        { childList: true, subtree: true, characterData: true });
}"""


def open_display(browser: Browser, server: Server, code: str, viewport: Any) -> Page:
    page = browser.new_context(viewport=viewport, locale="en-GB", bypass_csp=True).new_page()
    page.goto(f"{server.base_url}/t/{code}/display")
    return page


def follow(page: Page, version: int) -> None:
    page.wait_for_function(
        "v => Number(document.body.dataset.version) >= v", arg=version, timeout=WAIT_MS
    )


def assert_fits(page: Page, where: str) -> None:
    """No scrolling, and the bottom seat's plate wholly on the screen."""
    sizes = page.evaluate(
        """() => ({
            scrollH: document.documentElement.scrollHeight,
            scrollW: document.documentElement.scrollWidth,
            h: innerHeight,
            w: innerWidth,
            bottom: document.querySelector('#ring-bottom .seat')?.getBoundingClientRect().bottom,
        })"""
    )
    assert sizes["scrollH"] <= sizes["h"] and sizes["scrollW"] <= sizes["w"], (where, sizes)
    assert sizes["bottom"] is not None and sizes["bottom"] <= sizes["h"], (where, sizes)


def held_ms(felt: list[dict[str, Any]], cards: set[str]) -> float:
    """How long all of ``cards`` lay on the felt together (the longest such stretch)."""
    longest, since = 0.0, None
    for change in felt:
        whole = cards <= set(change["ids"])
        if whole and since is None:
            since = change["t"]
        elif not whole and since is not None:
            longest, since = max(longest, change["t"] - since), None
    return longest if since is None else float("inf")


def test_5_the_tv_shows_the_whole_game(
    browser: Browser, server: Server, screenshots: Screenshots
) -> None:
    # ----- a table with free seats: the way to join, and the short code -----
    waiting = server.new_table(3)
    tv = open_display(browser, server, waiting, LAPTOP)
    expect(tv.get_by_test_id("display-qr")).to_be_visible()
    short = tv.get_by_test_id("display-code").inner_text().strip()
    assert SHORT.match(short), short
    expect(tv.get_by_test_id("display-join")).to_contain_text("type")
    expect(tv.get_by_test_id("display-short-url")).to_have_text(re.compile(f"/j/{short}$"))
    tv.wait_for_function("() => document.querySelector('#ring-bottom .seat')")
    assert_fits(tv, "1280×720, waiting")
    screenshots.take(tv, "tv-1280x720-waiting.png")
    # Typed on the home page (in lower case), or as a short address: on to the table.
    home = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    home.goto(server.base_url + "/")
    screenshots.take(home, "tv-home-have-a-code-390.png")
    home.get_by_test_id("short-code-input").fill(short.lower())
    home.get_by_test_id("short-code-go").click()
    home.wait_for_url(f"{server.base_url}/t/{waiting}")
    home.goto(f"{server.base_url}/j/{short}")
    home.wait_for_url(f"{server.base_url}/t/{waiting}")
    missing = home.request.get(f"{server.base_url}/j/OIL10O", max_redirects=0)
    assert missing.status == 404 and "No table has this code" in missing.text()
    home.goto(f"{server.base_url}/j/OIL10O")
    expect(home.get_by_test_id("no-code")).to_contain_text("No table has this code")
    screenshots.take(home, "tv-no-code-390.png")

    # ----- a game: every seat taken, a whole hand followed on a 1920×1080 screen -----
    with ScriptedTable(server, 3, hands=2) as table:
        tv = open_display(browser, server, table.code, TV)
        follow(tv, table.version)
        tv.evaluate(_RECORD)
        expect(tv.get_by_test_id("display-join")).to_be_hidden()
        pause_ms = float(
            tv.evaluate("() => Number(document.getElementById('app').dataset.trickPauseMs)")
        )
        table.play_until(lambda view: view["phase"] == "play")
        follow(tv, table.version)
        screenshots.take(tv, "tv-1920x1080-play.png")
        assert_accessible(tv, "display, 1920×1080, play")
        table.play_until(lambda view: len(view["trick"]) == 2)
        follow(tv, table.version)
        screenshots.take(tv, "tv-1920x1080-trick.png")
        table.play_until(lambda view: view["hand_number"] == 2)
        follow(tv, table.version)
        # The hand's result and the running totals, until the next hand's play starts.
        result = tv.get_by_test_id("display-result")
        expect(result).to_be_visible(timeout=WAIT_MS)
        expect(result).to_contain_text("Hand 1 is over")
        for seat, total in enumerate(table.view["totals"]):
            expect(tv.get_by_test_id(f"display-total-{seat}")).to_have_text(str(total))
        screenshots.take(tv, "tv-1920x1080-between-hands.png")
        assert_fits(tv, "1920×1080, between hands")
        hand = server.api("GET", f"/api/tables/{table.code}/hands/1").json()
        # Every card of the hand appeared on the felt, each trick whole for the pause, and
        # each trick's winner was named there.
        tv.wait_for_function(
            "n => new Set(window.muFelt.flatMap(change => change.ids)).size >= n",
            arg=sum(len(trick["cards"]) for trick in hand["tricks"]),
            timeout=WAIT_MS,
        )
        felt = tv.evaluate("() => window.muFelt")
        wins = set(tv.evaluate("() => [...window.muWins]"))
        seen = {card for change in felt for card in change["ids"]}
        for number, trick in enumerate(hand["tricks"], start=1):
            cards = {str(play["card"]["id"]) for play in trick["cards"]}
            assert cards <= seen, f"trick {number}: {cards - seen} never shown"
            held = held_ms(felt, cards)
            assert held >= pause_ms - 5, f"trick {number} lay whole {held:.0f} ms"
            line = f"{NAMES[trick['winner']]} wins the trick (+{trick['points']})"
            assert line in wins, (line, wins)
        # The last card and the last trick's winner were said before the next hand.
        said = tv.get_by_test_id("announcer").inner_text()
        last = hand["tricks"][-1]
        winner_said = said.find(f"{NAMES[last['winner']]} wins the trick")
        assert winner_said >= 0, said
        assert winner_said < said.find("Hand 2: the cards are dealt"), said

        # The same moment on a 1280×720 screen: no scrolling, the bottom seat in view.
        laptop = open_display(browser, server, table.code, LAPTOP)
        follow(laptop, table.version)
        expect(laptop.get_by_test_id("display-result")).to_be_visible()
        assert_fits(laptop, "1280×720, between hands")
        screenshots.take(laptop, "tv-1280x720-between-hands.png")
        low = open_display(browser, server, table.code, LOW_LAPTOP)
        follow(low, table.version)
        screenshots.take(low, "tv-1280x680-between-hands.png")
        phone = open_display(browser, server, table.code, PHONE)
        follow(phone, table.version)
        screenshots.take(phone, "tv-390-between-hands.png", full_page=True)

        # Once the next hand's play starts the result steps aside; the totals stay.
        table.play_until(lambda view: view["phase"] == "play")
        follow(tv, table.version)
        expect(result).to_be_hidden()
        expect(tv.get_by_test_id("display-total-0")).to_have_text(str(table.view["totals"][0]))
