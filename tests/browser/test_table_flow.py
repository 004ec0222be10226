"""The evening's flow on the table page: the lobby hears of every join at once, invitees are
not told it is their table, the hand summary opens only for the seats that played the hand and
only when it ends, and the cards' colours keep their contrast and differ in lightness."""

from __future__ import annotations

import math
import re

import pytest
from playwright.sync_api import Browser, Page, Request, expect

from tests.browser.conftest import PHONE, Server
from tests.browser.scripted import ScriptedTable

pytestmark = pytest.mark.browser


def _follow(page: Page, table: ScriptedTable) -> None:
    page.wait_for_function(
        "v => Number(document.body.dataset.version) >= v", arg=table.version, timeout=15_000
    )


def test_the_lobby_shows_a_join_at_once_without_polling(browser: Browser, server: Server) -> None:
    code = server.new_table(4)
    page = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    info_requests: list[Request] = []
    page.on("request", lambda r: r.url.endswith(f"/api/tables/{code}") and info_requests.append(r))
    page.goto(f"{server.base_url}/t/{code}")
    # Someone who is not the creator is invited to join, not told it is their table.
    expect(page.get_by_test_id("lobby-title")).to_have_text("Join the table")
    expect(page.get_by_test_id("join-form")).to_be_visible()
    server.api("POST", f"/api/tables/{code}/seats", json={"name": "Ben", "seat": 1})
    # The socket pushes the join: sooner than the 2 s the lobby used to poll at.
    expect(page.get_by_test_id("seat-choice-1")).to_be_disabled(timeout=1900)
    expect(page.locator("#seat-picker")).to_contain_text("Ben")
    page.get_by_test_id("name-input").fill("Anna")
    page.get_by_test_id("take-seat").click()
    expect(page.locator("#seat-list")).to_contain_text("Anna (you)")
    expect(page.get_by_test_id("lobby-title")).to_have_text("Waiting for the other players")
    server.api("POST", f"/api/tables/{code}/seats", json={"name": "Cleo"})
    expect(page.locator("#seat-list")).to_contain_text("Cleo", timeout=1900)
    page.wait_for_timeout(2500)  # an absence: longer than the 2 s the lobby used to poll at
    assert [r.url for r in info_requests] == [f"{server.base_url}/api/tables/{code}"]
    page.context.close()


def test_the_summary_opens_for_players_when_their_hand_ends(
    browser: Browser, server: Server
) -> None:
    with ScriptedTable(server, 3, hands=3) as table:
        player = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
        player.goto(table.rejoin_url(0))
        spectator = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
        spectator.goto(f"{server.base_url}/t/{table.code}")
        # A newcomer at a table whose seats people hold is told so, and may watch.
        expect(spectator.get_by_test_id("table-full")).to_contain_text("This table is full")
        spectator.get_by_test_id("watch").click()
        expect(spectator.get_by_test_id("board")).to_be_visible()

        table.play_until(lambda view: view["hand_number"] == 2)
        _follow(player, table)
        _follow(spectator, table)
        expect(player.get_by_test_id("summary")).to_be_visible()
        expect(player.get_by_test_id("summary")).to_contain_text("Hand 1 is over")
        expect(spectator.get_by_test_id("summary")).to_be_hidden()

        # Opened or reloaded in the middle of hand 2: no summary of hand 1 pops up.
        second_tab = player.context.new_page()
        second_tab.goto(f"{server.base_url}/t/{table.code}")
        table.step()
        _follow(second_tab, table)
        player.reload()
        _follow(player, table)
        for page in [second_tab, player]:
            expect(page.get_by_test_id("board")).to_be_visible()
            page.wait_for_timeout(300)  # an absence: time for a summary that must not open
            expect(page.get_by_test_id("summary")).to_be_hidden()

        # Both tabs of the seat see hand 2 end, the spectator does not get a summary.
        table.play_until(lambda view: view["hand_number"] == 3)
        for page in [second_tab, player]:
            _follow(page, table)
            expect(page.get_by_test_id("summary")).to_contain_text("Hand 2 is over")
        _follow(spectator, table)
        expect(spectator.get_by_test_id("summary")).to_be_hidden()

        # The end of the game is for everyone: standings, the sheet, room for "Play again".
        table.play_until(lambda view: False)
        for page in [player, spectator]:
            _follow(page, table)
            summary = page.get_by_test_id("summary")
            expect(summary.get_by_test_id("standings")).to_be_visible()
            expect(summary.get_by_test_id("play-again-slot")).to_be_attached()
            winner = table.view["winners"][0]
            expect(summary.get_by_test_id(f"standing-{winner}")).to_have_class("winner")
        player.context.close()  # with the second tab
        spectator.context.close()


_CARD_COLOURS = """() => {
    const out = {};
    for (const colour of ["red", "yellow", "green", "blue", "purple"]) {
        const card = document.createElement("span");
        card.className = "card c-" + colour;
        card.innerHTML = '<svg class="face" viewBox="0 0 50 70"><rect class="ground"/>' +
                         '<text class="num">7</text></svg>';
        document.body.append(card);
        out[colour] = [getComputedStyle(card.querySelector(".ground")).fill,
                       getComputedStyle(card.querySelector(".num")).fill];
        card.remove();
    }
    return out;
}"""


def _luminance(css: str) -> float:
    channels = [int(c) / 255 for c in re.findall(r"\d+", css)[:3]]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _lightness(y: float) -> float:
    return 116 * math.cbrt(y) - 16 if y > 216 / 24389 else y * 24389 / 27


def test_card_numbers_contrast_and_colours_differ_in_lightness(
    browser: Browser, server: Server
) -> None:
    page = browser.new_context().new_page()
    page.goto(server.base_url + "/")
    colours = page.evaluate(_CARD_COLOURS)
    lightness = {}
    for colour, (card, number) in colours.items():
        bright, dark = sorted([_luminance(card), _luminance(number)], reverse=True)
        assert (bright + 0.05) / (dark + 0.05) >= 4.5, colour
        lightness[colour] = _lightness(_luminance(card))
    # In greyscale every colour is a step of its own: at least 14 L* apart.
    ordered = sorted(lightness.values())
    assert min(b - a for a, b in zip(ordered, ordered[1:], strict=False)) >= 14, lightness
    page.context.close()


def test_placed_cards_lie_face_up_in_front_of_their_owner_all_hand(
    browser: Browser, server: Server
) -> None:
    """Every seat's cards from the auction stay on view in every phase until they are played,
    for the other players and for spectators alike."""
    with ScriptedTable(server, 4, hands=1) as table:
        player = browser.new_context(viewport=PHONE).new_page()
        player.goto(table.rejoin_url(3))
        spectator = browser.new_context(viewport=PHONE).new_page()
        spectator.goto(f"{server.base_url}/t/{table.code}")
        spectator.get_by_test_id("watch").click()
        phases = set()
        while len(table.view["tricks"]) < 2:
            table.step()
            phases.add(table.view["phase"])
            for page in [player, spectator]:
                _follow(page, table)
                for seat, display in enumerate(table.view["displays"]):
                    if page is player and seat == 3:
                        shown = page.locator("#me .my-display .card")
                    else:
                        shown = page.get_by_test_id(f"seat-{seat}").locator(".display .card")
                    expect(shown).to_have_count(len(display))
        assert {"auction", "vice_trump", "chief_trump", "partner", "play"} <= phases
        player.context.close()
        spectator.context.close()
