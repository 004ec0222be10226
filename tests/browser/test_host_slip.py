"""Issue 38.6: the host cannot end a friend's evening by a slip.

Removing a person asks first (naming them and what happens), a cancelled or double tap removes
nobody, the two ways to remove look different, the dialog works by keyboard alone (Escape
cancels the question, not the dialog), and the removed person's page says whether the invite
link seats them again, with the link when it does: not after "Give the seat to a bot" at a
table whose bots newcomers may not take, yes after "Open the seat for someone new".
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from tests.browser.conftest import PHONE, Screenshots, Server
from tests.browser.driver import join
from tests.browser.test_a11y import assert_accessible
from tests.browser.test_host import context, hosted_table

pytestmark = pytest.mark.browser

LAPTOP_SHORT = ViewportSize(width=1280, height=680)
_STYLE = """e => { const s = getComputedStyle(e);
    return {color: s.color, background: s.backgroundColor, border: s.borderTopColor,
            width: s.borderTopWidth, weight: s.fontWeight}; }"""
MAX_TABS = 40


def seat_name(server: Server, code: str, seat: int) -> tuple[str | None, bool]:
    info = server.api("GET", f"/api/tables/{code}").json()["seats"][seat]
    return info["name"], info["bot"]


def style(button: Locator) -> dict[str, str]:
    return dict(button.evaluate(_STYLE))


def focused_testid(page: Page) -> str:
    return str(page.evaluate("document.activeElement?.dataset?.testid ?? ''"))


def tab_to(page: Page, testid: str) -> None:
    for _ in range(MAX_TABS):
        if focused_testid(page) == testid:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {testid}")


def test_6_host_cannot_remove_a_friend_by_a_slip(
    browser: Browser, server: Server, screenshots: Screenshots
) -> None:
    anna = context(browser, LAPTOP_SHORT).new_page()
    # Bots keep their seats here: a seat given to a bot is not one a newcomer may take.
    code = hosted_table(anna, server, newcomers_take_bots=False)
    join(anna, server.base_url, code, "Anna", 0)
    bert = context(browser, PHONE).new_page()
    join(bert, server.base_url, code, "Bert", 1)
    cleo = context(browser, PHONE).new_page()
    join(cleo, server.base_url, code, "Cleo", 2)
    expect(anna.get_by_test_id("board")).to_be_visible()

    anna.get_by_test_id("host-button").click()
    dialog = anna.get_by_test_id("host-dialog")
    to_bot = dialog.get_by_test_id("host-remove-bot-1")
    to_open = dialog.get_by_test_id("host-remove-open-1")
    # The two ways to remove do not look alike.
    bot_style, open_style = style(to_bot), style(to_open)
    assert bot_style["color"] != open_style["color"], (bot_style, open_style)
    assert bot_style["border"] != open_style["border"], (bot_style, open_style)

    # One tap (even a double one) removes nobody: it asks, naming Bert and what happens.
    to_bot.dblclick()
    question = dialog.get_by_test_id("host-confirm-1")
    expect(question).to_be_visible()
    expect(question).to_contain_text("Give Bert's seat to a bot?")
    expect(question).to_contain_text("a bot plays their cards from now on")
    expect(question).to_contain_text("Bert cannot take this seat back")
    confirm = dialog.get_by_test_id("host-confirm-yes-1")
    expect(confirm).to_have_text("Remove Bert")
    cancel = dialog.get_by_test_id("host-confirm-cancel-1")
    assert style(confirm)["background"] != style(cancel)["background"]
    assert seat_name(server, code, 1) == ("Bert", False)
    expect(bert.get_by_test_id("removed")).to_be_hidden()
    assert_accessible(anna, "host dialog asking")
    screenshots.take(anna, "host-slip-ask-1280x680.png")
    anna.set_viewport_size(PHONE)  # type: ignore[arg-type]
    question.scroll_into_view_if_needed()
    screenshots.take(anna, "host-slip-ask-390.png")
    anna.set_viewport_size(LAPTOP_SHORT)

    # Cancel keeps Bert, and gives the focus back to the button.
    cancel.click()
    expect(question).to_be_hidden()
    expect(to_bot).to_be_focused()
    assert seat_name(server, code, 1) == ("Bert", False)

    # Confirmed, Bert is removed, and told that the invite link will not seat him again.
    to_bot.click()
    dialog.get_by_test_id("host-confirm-yes-1").click()
    expect(bert.get_by_test_id("removed")).to_be_visible()
    expect(bert.get_by_test_id("board")).to_be_hidden()
    way_back = bert.get_by_test_id("removed-way-back")
    expect(way_back).to_contain_text("you cannot come back through the invite link")
    expect(bert.get_by_test_id("removed-rejoin")).to_be_hidden()
    assert seat_name(server, code, 1)[1] is True
    assert_accessible(bert, "removed, no way back")
    screenshots.take(bert, "host-slip-removed-no-way-back-390.png")
    bert.set_viewport_size(LAPTOP_SHORT)
    screenshots.take(bert, "host-slip-removed-no-way-back-1280x680.png")

    # Keyboard alone: Cleo's seat opened for someone new; Escape cancels only the question.
    expect(dialog.get_by_test_id("host-person-1")).to_have_count(0)
    expect(anna.locator("#host-title")).to_be_focused()
    tab_to(anna, "host-remove-open-2")
    anna.keyboard.press("Enter")
    question = dialog.get_by_test_id("host-confirm-2")
    expect(question).to_contain_text("Open Cleo's seat for someone new?")
    expect(question).to_contain_text("Cleo may take the seat again through the invite link")
    expect(dialog.get_by_test_id("host-confirm-cancel-2")).to_be_focused()
    anna.keyboard.press("Escape")
    expect(question).to_be_hidden()
    expect(dialog).to_be_visible()
    expect(dialog.get_by_test_id("host-remove-open-2")).to_be_focused()
    assert seat_name(server, code, 2) == ("Cleo", False)
    anna.keyboard.press("Enter")
    anna.keyboard.press("Shift+Tab")
    expect(dialog.get_by_test_id("host-confirm-yes-2")).to_be_focused()
    anna.keyboard.press("Enter")

    # Cleo may come back: the page says so and offers the invite link, which seats her again.
    expect(cleo.get_by_test_id("removed")).to_be_visible()
    expect(cleo.get_by_test_id("removed-way-back")).to_contain_text(
        "You may take a seat at this table again through the invite link."
    )
    rejoin = cleo.get_by_test_id("removed-rejoin")
    expect(rejoin).to_be_visible()
    assert rejoin.get_attribute("href") == f"/t/{code}"
    assert_accessible(cleo, "removed, may come back")
    screenshots.take(cleo, "host-slip-removed-may-come-back-390.png")
    tab_to(cleo, "removed-rejoin")
    cleo.keyboard.press("Enter")
    expect(cleo.get_by_test_id("join-form")).to_be_visible()
    join(cleo, server.base_url, code, "Cleo", 2)
    expect(cleo.get_by_test_id("board")).to_be_visible()
    assert seat_name(server, code, 2) == ("Cleo", False)
