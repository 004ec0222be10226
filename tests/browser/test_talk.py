"""Talk at the table in the browser: a chat line shows as a bubble at the speaker's seat and in
the chat (as text, never markup), a one-tap reaction pops up at the seat, spectators read but
cannot write, and muting a player hides their lines and reactions on this device only."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, Screenshots, Server
from tests.browser.driver import open_talk
from tests.browser.scripted import ScriptedTable

pytestmark = pytest.mark.browser
LAPTOP = {"width": 1280, "height": 800}
MARKUP = '<img src=x onerror="window.pwned=1"><b>bold?</b> nice trump'


def _seated(browser: Browser, table: ScriptedTable, seat: int, viewport: dict[str, int]) -> Page:
    page = browser.new_context(viewport=viewport, locale="en-GB").new_page()
    page.goto(table.rejoin_url(seat))
    expect(page.get_by_test_id("board")).to_be_visible()
    return page


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_chat_and_reactions_reach_the_table(
    browser: Browser, server: Server, screenshots: Screenshots, viewport: dict[str, int]
) -> None:
    with ScriptedTable(server, 3, hands=1) as table:
        anna = _seated(browser, table, 0, viewport)
        ben = _seated(browser, table, 1, viewport)
        watcher = browser.new_context(viewport=viewport, locale="en-GB").new_page()
        watcher.goto(f"{server.base_url}/t/{table.code}")
        watcher.get_by_test_id("watch").click()

        docked = viewport["width"] >= 1100
        open_talk(anna)
        anna.get_by_test_id("chat-input").fill(MARKUP)
        anna.get_by_test_id("chat-send").click()
        expect(anna.get_by_test_id("chat-line")).to_have_count(1)
        # Ben sees it at Anna's seat and as one unread line; shown as text, nothing ran.
        bubble = ben.get_by_test_id("bubble-0")
        expect(bubble).to_have_text(MARKUP)
        if not docked:  # docked, the line is in view at once: nothing is unread
            expect(ben.get_by_test_id("chat-button")).to_have_text("Messages (1)")
        assert ben.evaluate("window.pwned") is None
        assert ben.locator("#ring img").count() == 0
        screenshots.take(ben, f"talk-bubble-{viewport['width']}.png")
        open_talk(ben)
        expect(ben.get_by_test_id("chat-line")).to_contain_text(MARKUP)
        screenshots.take(ben, f"talk-chat-{viewport['width']}.png")
        width = ben.evaluate("document.querySelector('#chat').getBoundingClientRect().width")
        assert width <= viewport["width"]
        ben.keyboard.press("Escape")
        expect(ben.get_by_test_id("chat-button")).to_have_text("Messages")

        # A reaction pops up at Ben's seat on the others' screens.
        ben.get_by_test_id("react-well_played").click()
        expect(anna.get_by_test_id("bubble-1")).to_have_text("Well played")
        expect(watcher.get_by_test_id("bubble-1")).to_have_text("Well played")

        # The spectator reads the chat but has no way to write or react.
        expect(watcher.get_by_test_id("talkbar").get_by_role("button", name="👍")).to_have_count(0)
        open_talk(watcher)
        expect(watcher.get_by_test_id("chat-line")).to_contain_text("nice trump")
        expect(watcher.get_by_test_id("chat-form")).to_be_hidden()

        # Ben mutes Anna: her next line and reaction do not show for him, and stay muted
        # after a reload (this device remembers).
        open_talk(ben)
        ben.locator("#chat-mutes summary").click()
        ben.get_by_test_id("mute-0").check()
        ben.keyboard.press("Escape")
        ben.reload()
        expect(ben.get_by_test_id("board")).to_be_visible()
        anna.get_by_test_id("chat-input").fill("can you hear me?")
        anna.get_by_test_id("chat-send").click()
        anna.keyboard.press("Escape")
        anna.get_by_test_id("react-laugh").click()
        expect(watcher.get_by_test_id("bubble-0")).to_have_text("😂")
        expect(ben.get_by_test_id("bubble-0")).to_have_count(0)
        expect(ben.get_by_test_id("chat-button")).to_have_text("Messages")
