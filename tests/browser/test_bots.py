"""Bots through the UI: the creator fills the table with bots and plays a hand against them."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import DESKTOP, PHONE, Screenshots, Server
from tests.browser.driver import play_until_summary

pytestmark = pytest.mark.browser

HAND_TIMEOUT_S = 45


def _create_from_home(page: Page, base_url: str) -> str:
    page.goto(base_url + "/")
    page.get_by_text("3", exact=True).click()
    page.get_by_text("Fixed number of hands").click()
    page.locator("input[name=hands]").fill("1")
    page.get_by_test_id("takeover").select_option(label="a bot plays for them after 5 minutes")
    page.get_by_test_id("create-table").click()
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    return page.url.rsplit("/", 1)[1]


# Each animation frame's top of the card, for 20 frames.
FRAME_TOPS = """card => new Promise(done => {
  const tops = [];
  const frame = () => {
    tops.push(card.getBoundingClientRect().top);
    if (tops.length < 20) requestAnimationFrame(frame); else done(tops);
  };
  requestAnimationFrame(frame);
})"""


def _a_resting_mouse_does_not_shake_a_card(page: Page) -> None:
    """A playable card lifts under the mouse. Resting just above its lower edge, the mouse stays
    over the lifted card, so it does not drop and lift again on every frame (that shook it, and a
    click waited for it to hold still: the practice test failed so in CI)."""
    card = page.locator('body.my-turn #me button.card[data-legal="true"]').first
    expect(card).to_be_visible(timeout=HAND_TIMEOUT_S * 1000)
    page.mouse.move(0, 0)  # the last click may have left the mouse on the card: measure it down
    box = card.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] - 2)
    tops = card.evaluate(FRAME_TOPS)
    assert len(set(tops)) == 1, tops
    assert tops[0] < box["y"] and card.evaluate("card => card.matches(':hover')")


def test_the_creator_adds_bots_and_plays_a_hand_against_them(
    browser: Browser, server: Server, screenshots: Screenshots
) -> None:
    page = browser.new_context(viewport=DESKTOP, locale="en-GB").new_page()
    code = _create_from_home(page, server.base_url)
    options = server.api("GET", f"/api/tables/{code}").json()["options"]
    assert options["hands"] == 1 and options["takeover_seconds"] == 300

    # The creator's lobby offers a bot for every empty seat, with a level each.
    panel = page.get_by_test_id("host-bots")
    expect(panel).to_be_visible()
    expect(panel.locator("li")).to_have_count(3)
    page.get_by_test_id("bot-level-1").select_option("search")
    page.get_by_test_id("add-bot-1").click()
    expect(page.get_by_test_id("bot-seat-1")).to_have_count(0)
    page.get_by_test_id("bot-level-2").select_option(label="Easy")
    page.get_by_test_id("add-bot-2").click()
    expect(page.get_by_test_id("bot-seat-2")).to_have_count(0)
    # Bot seats stay takeable in the picker and say what plays there.
    expect(page.locator("#seat-picker")).to_contain_text("Alan, bot (Strong): take over")
    expect(page.get_by_test_id("seat-choice-1")).to_be_enabled()
    screenshots.take(page, "bots-lobby.png")

    # A stranger with the invite link sees no bot controls (no host cookie).
    stranger = browser.new_context(viewport=DESKTOP, locale="en-GB").new_page()
    stranger.goto(f"{server.base_url}/t/{code}")
    expect(stranger.get_by_test_id("join-form")).to_be_visible()
    expect(stranger.get_by_test_id("host-bots")).to_be_hidden()
    stranger.context.close()

    page.get_by_test_id("name-input").fill("Anna")
    page.get_by_test_id("seat-choice-0").check(force=True)
    page.get_by_test_id("take-seat").click()
    expect(page.get_by_test_id("board")).to_be_visible()
    expect(page.get_by_test_id("seat-1")).to_contain_text("Bot · Strong")
    expect(page.get_by_test_id("seat-2")).to_contain_text("Bot · Easy")
    _a_resting_mouse_does_not_shake_a_card(page)

    play_until_summary(page, HAND_TIMEOUT_S)
    screenshots.take(page, "bots-summary.png")
    sheet: dict[str, Any] = server.api("GET", f"/api/tables/{code}/scoresheet").json()
    assert sheet["over"] and len(sheet["rows"]) == 1
    assert sheet["names"] == ["Anna", "Alan", "Grace"]
    page.context.close()


def test_an_away_player_is_shown_with_a_bot_playing_for_them(
    browser: Browser, server: Server
) -> None:
    created = server.api(
        "POST", "/api/tables", json={"players": 3, "hands": 1, "takeover_seconds": 0.3}
    ).json()
    code = created["invite_code"]
    bearer = {"Authorization": f"Bearer {created['host_token']}"}
    seated = server.api(
        "POST", f"/api/tables/{code}/bots", json={"seat": 2, "level": "expert"}, headers=bearer
    )
    assert seated.status_code == 201
    page = browser.new_context(viewport=DESKTOP, locale="de-DE").new_page()
    page.goto(f"{server.base_url}/t/{code}")
    page.get_by_test_id("name-input").fill("Anna")
    page.get_by_test_id("seat-choice-0").check(force=True)
    page.get_by_test_id("take-seat").click()
    # Bert takes seat 1 (named: Anna's click may still be on its way) and never opens the table:
    # after 0.3 s a bot plays for him.
    joined = server.api("POST", f"/api/tables/{code}/seats", json={"name": "Bert", "seat": 1})
    assert joined.is_success
    expect(page.get_by_test_id("board")).to_be_visible()
    expect(page.get_by_test_id("bot-playing-1")).to_have_text("Bot spielt")
    expect(page.get_by_test_id("seat-2")).to_contain_text("Bot · Experte")
    play_until_summary(page, HAND_TIMEOUT_S)
    page.context.close()


def test_the_lobby_closes_when_the_last_bot_sits_down(browser: Browser, server: Server) -> None:
    """On a phone, the creator takes the first seat and fills the others with bots: the lobby goes,
    the table comes up and its first prompt is on screen without scrolling."""
    page = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    page.goto(server.base_url + "/")
    page.get_by_text("3", exact=True).click()
    page.get_by_test_id("create-table").click()
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    expect(page.get_by_test_id("lobby-title")).to_have_text("Your table")
    page.get_by_test_id("name-input").fill("Anna")
    page.get_by_test_id("take-seat").click()
    expect(page.locator("#seat-list")).to_contain_text("Anna (you)")
    page.get_by_test_id("add-bot-1").click()
    expect(page.get_by_test_id("bot-seat-1")).to_have_count(0)
    page.get_by_test_id("add-bot-2").click()
    expect(page.get_by_test_id("board")).to_be_visible()
    expect(page.get_by_test_id("lobby")).to_be_hidden()
    # Seat 0 deals the first hand and opens the auction.
    expect(page.get_by_test_id("prompt")).to_have_attribute("data-prompt-type", "bid")
    expect(page.get_by_test_id("prompt")).to_be_in_viewport()
    expect(page.locator("#me .hand button.card").first).to_be_in_viewport()
    page.context.close()
