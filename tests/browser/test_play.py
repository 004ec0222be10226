"""A whole hand of Mü played by four browsers through the UI, checked against the server."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import DESKTOP, NARROW, PHONE, Screenshots, Server
from tests.browser.driver import Hand, join, version, wait_past, whose_turn

pytestmark = pytest.mark.browser

PLAYERS = 4
NAMES = ["Anna", "Ben", "Cleo", "Dirk"]
PAGE_BUDGET_BYTES = 150 * 1024


def _open_seats(browser: Browser, server: Server, code: str) -> list[Page]:
    # Seat 0 plays on a phone, seat 1 on a laptop, seat 2 on the narrowest phone we support.
    sizes = [PHONE, DESKTOP, NARROW, {"width": 1000, "height": 800}]
    pages = []
    for seat, size in enumerate(sizes):
        context = browser.new_context(viewport=size, locale="en-GB")
        page = context.new_page()
        join(page, server.base_url, code, NAMES[seat], seat)
        pages.append(page)
    for page in pages:
        expect(page.get_by_test_id("board")).to_be_visible()
    return pages


def _shoot(pages: list[Page], screenshots: Screenshots, moment: str) -> None:
    for page in pages:
        size = page.viewport_size or {}
        screenshots.take(page, f"{moment}-{size.get('width')}x{size.get('height')}.png")


def _summary_totals(page: Page, players: int = PLAYERS) -> list[int]:
    dialog = page.get_by_test_id("summary")
    expect(dialog).to_be_visible()
    return [int(dialog.get_by_test_id(f"summary-total-{s}").inner_text()) for s in range(players)]


def test_a_full_hand_through_the_ui(
    browser: Browser, server: Server, screenshots: Screenshots
) -> None:
    code = server.new_table(PLAYERS)
    pages = _open_seats(browser, server, code)
    hand = Hand(pages)
    hand.on_phase["bid"] = lambda _page: _shoot(pages[:2], screenshots, "auction")
    hand.on_phase["trump"] = lambda page: _shoot([page], screenshots, "trump")
    hand.on_phase["partner"] = lambda page: _shoot([page], screenshots, "partner")
    kinds: list[str] = []
    while hand.plays < 3 * PLAYERS:
        kinds.append(hand.step())
    _shoot(pages[:3], screenshots, "play")
    _a_move_leaves_the_others_cards_in_place(pages, hand)
    while hand.plays < 15 * PLAYERS:
        kinds.append(hand.step())

    assert {"bid", "trump", "partner", "play"} <= set(kinds)
    # Sixty cards never all come free: some player had to follow and saw the others dimmed.
    assert hand.must_follow_seen
    sheet: dict[str, Any] = server.api("GET", f"/api/tables/{code}/scoresheet").json()
    assert len(sheet["rows"]) == 1
    for page in pages:
        assert _summary_totals(page) == sheet["totals"]
        slot = page.get_by_test_id("summary").get_by_test_id("sheet-total-0")
        expect(slot).to_have_text(str(sheet["totals"][0]))
    assert sum(sheet["rows"][0]["card_points"]) == 60
    _shoot(pages[:2], screenshots, "summary")
    for page in pages:
        page.get_by_test_id("summary-close").click()
        expect(page.get_by_test_id("hand-number")).to_have_text("Hand 2")
    for page in pages:
        page.context.close()


KEPT = "[...document.querySelectorAll('#me button.card')]"
# The log's lines, the chat's and its mute switches (drawn on every view where the panel is
# docked beside the board, from 1100 px wide).
TALK = "[...document.querySelectorAll('#log-lines li, #chat-lines li, #chat-mute-list label')]"


def _a_move_leaves_the_others_cards_in_place(pages: list[Page], hand: Hand) -> None:
    """A card played by one seat leaves every other seat's card buttons the same elements
    (a keyboard player's focus stays put, and the page lays out only what changed); the seat
    whose turn comes up sees its playable cards on those same buttons. The log's and the
    chat's lines stay the same elements too unless the move added a line (a trick's end)."""
    mover = whose_turn(pages)
    others = [page for page in pages if page is not mover]
    lines = []
    for page in others:
        page.evaluate(f"{KEPT}.forEach((button) => {{ button.kept = true; }})")
        page.evaluate(f"{TALK}.forEach((line) => {{ line.kept = true; }})")
        lines.append(page.locator("#log-lines li").count())
    assert hand.step() == "play"
    reached = version(mover)
    for page, before in zip(others, lines, strict=True):
        wait_past(page, reached - 1)
        assert page.evaluate(f"{KEPT}.every((button) => button.kept === true)")
        if page.locator("#log-lines li").count() == before:
            assert page.evaluate(f"{TALK}.every((line) => line.kept === true)")
    after = whose_turn(pages)
    if after in others:
        legal = after.locator('#me button.card[data-legal="true"]')
        expect(legal.first).to_be_visible()
        assert after.evaluate(f"{KEPT}.filter((b) => b.dataset.legal === 'true' && b.kept).length")


def test_three_players_one_hand_game_ends_with_winners(browser: Browser, server: Server) -> None:
    code = server.new_table(3, hands=1)
    pages = []
    for seat, name in enumerate(NAMES[:3]):
        page = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
        join(page, server.base_url, code, name, seat)
        pages.append(page)
    hand = Hand(pages)
    kinds = set()
    while hand.plays < 12 * 3:
        kinds.add(hand.step())
    assert kinds == {"bid", "trump", "play"}  # three players: no vice choice, no partner
    sheet: dict[str, Any] = server.api("GET", f"/api/tables/{code}/scoresheet").json()
    assert sheet["over"]
    winners = ", ".join(NAMES[s] for s in sheet["winners"])
    for page in pages:
        assert _summary_totals(page, 3) == sheet["totals"]
        expect(page.get_by_test_id("winners")).to_contain_text(winners)
        page.get_by_test_id("summary-close").click()
        expect(page.get_by_test_id("status")).to_contain_text(winners)
        page.context.close()


def test_revised_edition_for_three_from_the_home_page(browser: Browser, server: Server) -> None:
    first = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    first.goto(server.base_url + "/")
    first.get_by_label("3").check()
    first.locator("select[name=variant]").select_option("revised")
    expect(first.locator("input[name=hands]")).to_have_value("4")
    first.locator("input[name=hands]").fill("1")
    first.get_by_test_id("create-table").click()
    first.wait_for_url("**/t/**")
    code = first.url.rsplit("/", 1)[1]
    pages = [first]
    join(first, server.base_url, code, NAMES[0], 0)
    for seat, name in enumerate(NAMES[1:3], start=1):
        page = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
        join(page, server.base_url, code, name, seat)
        pages.append(page)
    hand = Hand(pages)
    hand.on_phase["discard"] = lambda page: expect(page.locator(".seat.mine")).to_contain_text(
        "Crown"
    )
    kinds = set()
    while hand.plays < 15 * 3:
        kinds.add(hand.step())
    assert kinds == {"bid", "discard", "trump", "play"}
    sheet: dict[str, Any] = server.api("GET", f"/api/tables/{code}/scoresheet").json()
    assert sheet["over"]
    for page in pages:
        assert _summary_totals(page, 3) == sheet["totals"]
        expect(page.get_by_test_id("summary")).to_contain_text("team wins")
        page.context.close()
