"""Issue 38, point 4: a live log beside the felt.

From about 1100 px wide a column beside the board holds the hand's story (bids, roles, trumps,
partner, each trick's winner and points) and the table talk, always in view, without a click;
on a phone the same log is one tap away. The table is played by script; the page is seat 0.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, Server
from tests.browser.scripted import NAMES, ScriptedTable

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1280, "height": 680}


def _two_tricks_in(table: ScriptedTable) -> dict[str, Any]:
    table.play_until(lambda view: len(view.get("tricks") or []) >= 2)
    return table.view


def _follow(page: Page, table: ScriptedTable) -> None:
    page.wait_for_function(
        "v => Number(document.body.dataset.version) >= v", arg=table.version, timeout=15_000
    )


def _in_view(page: Page, testid: str) -> dict[str, float]:
    box = page.get_by_test_id(testid).bounding_box()
    assert box is not None, testid
    viewport = page.viewport_size
    assert viewport is not None
    assert box["x"] >= 0 and box["y"] >= 0, box
    assert box["x"] + box["width"] <= viewport["width"] + 1, box
    assert box["y"] + box["height"] <= viewport["height"] + 1, box
    return box


def _expected_lines(view: dict[str, Any], words: dict[str, str]) -> list[str]:
    """What the log must say at least, from the server's view of seat 0."""
    lines = [words["chief"].format(name=NAMES[view["chief"]])]
    for n, trick in enumerate(view["tricks"], start=1):
        lines.append(
            words["trick"].format(n=n, name=NAMES[trick["winner"]], points=trick["points"])
        )
    if view.get("partner") is not None:
        lines.append(words["partner"].format(name=NAMES[view["partner"]]))
    return lines


ENGLISH = {
    "chief": "{name} is Chief",
    "trick": "Trick {n}: {name} wins the trick, {points} point",
    "partner": "as partner",
    "pass": "passes",
    "trump": "'s trump:",
}
GERMAN = {
    "chief": "{name} ist Chef",
    "trick": "Stich {n}: {name} gewinnt den Stich, {points} Punkt",
    "partner": "als Partner",
    "pass": "passt",
    "trump": "Trumpf",
}


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_4_a_live_log_beside_the_felt(browser: Browser, server: Server, locale: str) -> None:
    words = ENGLISH if locale == "en-GB" else GERMAN
    with ScriptedTable(server, 4, hands=1) as table:
        laptop = browser.new_context(viewport=LAPTOP, locale=locale).new_page()
        phone = browser.new_context(viewport=PHONE, locale=locale).new_page()
        for page in (laptop, phone):
            page.goto(table.rejoin_url(0))
        view = _two_tricks_in(table)
        table.sockets[1].send(json.dumps({"type": "chat", "text": "schöner Trumpf"}))

        # The laptop: the log is in view beside the board, with no click, and covers none of it.
        _follow(laptop, table)
        expect(laptop.get_by_test_id("chat-button")).to_be_hidden()
        log = laptop.get_by_test_id("log-lines")
        for line in _expected_lines(view, words):
            expect(log).to_contain_text(line)
        expect(log).to_contain_text(words["pass"])
        expect(log).to_contain_text(words["trump"])
        expect(laptop.get_by_test_id("chat-lines")).to_contain_text("schöner Trumpf")
        panel = _in_view(laptop, "chat")
        for testid in ("table", "hand"):
            box = laptop.get_by_test_id(testid).bounding_box()
            assert box is not None
            assert box["x"] + box["width"] <= panel["x"], f"the log covers the {testid}"
        # The newest line is in view inside the log (it follows the hand).
        newest = laptop.locator("#log-lines li").last
        expect(newest).to_contain_text(words["trick"].split(":")[0].format(n=2))
        expect(newest).to_be_in_viewport()
        # The keyboard's M goes to the message field of the docked log.
        laptop.locator("#me button.card").first.focus()
        laptop.keyboard.press("m")
        expect(laptop.get_by_test_id("chat-input")).to_be_focused()

        # The phone: the same log, one tap away.
        _follow(phone, table)
        expect(phone.get_by_test_id("chat")).to_be_hidden()
        phone.get_by_test_id("chat-button").click()
        expect(phone.get_by_test_id("chat")).to_be_visible()
        for line in _expected_lines(view, words):
            expect(phone.get_by_test_id("log-lines")).to_contain_text(line)
        expect(phone.get_by_test_id("chat-lines")).to_contain_text("schöner Trumpf")
        phone.keyboard.press("Escape")
        expect(phone.get_by_test_id("chat")).to_be_hidden()
