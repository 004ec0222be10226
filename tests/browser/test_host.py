"""The host's table in the browser (issue 28): a removal seen from both sides, the table
display following a whole hand at TV and laptop sizes (screenshots), the new dialogs under
axe-core, a closed table's visitor, a deleted table's page.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from tests.browser.conftest import NARROW, PHONE, Screenshots, Server
from tests.browser.driver import join, plain_move, version, wait_past
from tests.browser.test_a11y import assert_accessible

pytestmark = pytest.mark.browser

TV = ViewportSize(width=1920, height=1080)
LAPTOP = ViewportSize(width=1280, height=800)
HAND_TIMEOUT_S = 90
_RECORD_PHASES = """() => {
    window.muPhases = [document.body.dataset.phase ?? ""];
    new MutationObserver(() => window.muPhases.push(document.body.dataset.phase ?? "")).observe(
        document.body, { attributes: true, attributeFilter: ["data-phase"] });
}"""


def context(browser: Browser, viewport: Any = PHONE, locale: str = "en-GB") -> BrowserContext:
    return browser.new_context(viewport=viewport, locale=locale, bypass_csp=True)


def hosted_table(page: Page, server: Server, players: int = 3, **options: Any) -> str:
    """A table opened from ``page``'s browser (which keeps the host cookie)."""
    response = page.request.post(
        server.base_url + "/api/tables", data={"players": players, **options}
    )
    assert response.ok, response.text()
    return str(response.json()["invite_code"])


def test_removing_a_person_seen_from_both_sides(
    browser: Browser, server: Server, screenshots: Screenshots
) -> None:
    anna = context(browser).new_page()
    code = hosted_table(anna, server)
    join(anna, server.base_url, code, "Anna", 0)
    bert = context(browser).new_page()
    join(bert, server.base_url, code, "Bert", 1)
    cleo = context(browser, NARROW, "de-DE").new_page()
    join(cleo, server.base_url, code, "Cleo", 2)
    expect(anna.get_by_test_id("board")).to_be_visible()

    anna.get_by_test_id("host-button").click()
    dialog = anna.get_by_test_id("host-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_test_id("host-person-1")).to_contain_text("Bert")
    assert_accessible(anna, "host dialog")
    screenshots.take(anna, "host-dialog.png")
    dialog.get_by_test_id("host-remove-bot-1").click()
    dialog.get_by_test_id("host-confirm-yes-1").click()  # it asks first (issue 38.6)

    # Bert's side: told, offered the home page, no reconnecting.
    removed = bert.get_by_test_id("removed")
    expect(removed).to_be_visible()
    expect(removed).to_contain_text("The host removed you from this table")
    expect(bert.get_by_test_id("board")).to_be_hidden()
    screenshots.take(bert, "host-removed.png")
    # Everyone else: what happened, and a bot in the seat.
    anna.keyboard.press("Escape")
    expect(anna.get_by_test_id("host-note")).to_have_text("Anna gave Bert's seat to a bot.")
    expect(cleo.get_by_test_id("host-note")).to_contain_text("Anna")
    screenshots.take(cleo, "host-removed-seen-360.png")
    # Bert's seat cookie is dead: his browser comes back as a newcomer's, not to the board.
    bert.goto(f"{server.base_url}/t/{code}")
    expect(bert.get_by_test_id("board")).to_be_hidden(timeout=3000)


def test_a_closed_table_offers_a_visitor_only_the_home_page(
    browser: Browser, server: Server
) -> None:
    anna = context(browser).new_page()
    code = hosted_table(anna, server)
    join(anna, server.base_url, code, "Anna", 0)
    anna.get_by_test_id("host-button").click()
    anna.get_by_test_id("host-close-newcomers").check()
    anna.get_by_test_id("host-close-save").click()
    expect(anna.get_by_test_id("host-note")).to_contain_text("closed the table to newcomers")
    visitor = context(browser, NARROW, "de-DE").new_page()
    visitor.goto(f"{server.base_url}/t/{code}")
    closed = visitor.get_by_test_id("closed")
    expect(closed).to_be_visible()
    expect(visitor.get_by_test_id("join-form")).to_be_hidden()
    assert closed.locator("a").get_attribute("href") == "/"
    assert_accessible(visitor, "closed table")


@pytest.mark.parametrize("size", {"tv": TV, "laptop": LAPTOP})
def test_the_display_follows_a_whole_hand(
    browser: Browser, server: Server, screenshots: Screenshots, size: str
) -> None:
    viewport = TV if size == "tv" else LAPTOP
    display = context(browser, viewport).new_page()
    host = display.context.request
    response = host.post(server.base_url + "/api/tables", data={"players": 3, "hands": 1})
    code = response.json()["invite_code"]
    display.goto(f"{server.base_url}/t/{code}/display")
    expect(display.get_by_test_id("display-qr")).to_be_visible()
    qr = display.request.get(f"{server.base_url}/t/{code}/qr.svg")
    assert qr.ok and qr.headers["content-type"].startswith("image/svg+xml")
    # The table's short code (tests/browser/test_tv.py follows it to the table).
    expect(display.get_by_test_id("display-code")).to_have_text(
        re.compile(r"^\s*[2-9A-HJKMNP-Z]{6}\s*$")
    )
    assert_accessible(display, f"display {size}")
    screenshots.take(display, f"display-{size}-waiting.png")
    # The whole hand, live: the auction, the play, the end. The page records every phase it
    # shows, so the test waits for states and misses none however quick the bots are.
    display.evaluate(_RECORD_PHASES)
    for seat in range(3):
        added = host.post(f"{server.base_url}/api/tables/{code}/bots", data={"seat": seat})
        assert added.ok, added.text()
    wait_ms = HAND_TIMEOUT_S * 1000
    if screenshots.folder is not None:
        display.wait_for_function(
            "() => document.querySelectorAll('#trick .card').length >= 2", timeout=wait_ms
        )
        screenshots.take(display, f"display-{size}-trick.png")
    display.wait_for_function("() => document.body.dataset.phase === 'over'", timeout=wait_ms)
    assert server.api("GET", f"/api/tables/{code}").json()["status"] == "over"
    expect(display.get_by_test_id("status")).not_to_be_empty()
    over = server.api("GET", f"/api/tables/{code}").json()["version"]
    display.wait_for_function("v => Number(document.body.dataset.version) >= v", arg=over)
    screenshots.take(display, f"display-{size}-over.png")
    phases = set(display.evaluate("() => window.muPhases"))
    assert "auction" in phases and "play" in phases, phases
    # No hand, no chat input on the display.
    assert display.locator("#me, #chat-input, #prompt").count() == 0


def test_the_host_deletes_a_finished_table(
    browser: Browser, server: Server, screenshots: Screenshots
) -> None:
    anna = context(browser).new_page()
    code = hosted_table(anna, server, hands=1)
    join(anna, server.base_url, code, "Anna", 0)
    for seat in (1, 2):
        anna.request.post(f"{server.base_url}/api/tables/{code}/bots", data={"seat": seat})
    # Anna moves whenever it is her turn, until the game's summary opens.
    my_turn_or_end = """() => document.body.classList.contains('my-turn')
        || !!document.querySelector('[data-testid=summary][data-kind=game-end]')"""
    while True:
        anna.wait_for_function(my_turn_or_end, timeout=HAND_TIMEOUT_S * 1000)
        if not anna.evaluate("document.body.classList.contains('my-turn')"):
            break
        seen = version(anna)
        plain_move(anna)
        wait_past(anna, seen)
    assert server.api("GET", f"/api/tables/{code}").json()["status"] == "over"
    # The page opens the game's summary when the last view reaches it, which can be after the
    # API already says "over": wait for that dialog before closing what is open.
    expect(anna.get_by_test_id("summary")).to_have_attribute("data-kind", "game-end")
    anna.keyboard.press("Escape")
    for dialog in anna.locator("dialog[open]").all():
        dialog.evaluate("d => d.close()")
    anna.get_by_test_id("host-button").click()
    anna.get_by_test_id("host-delete").click()
    assert_accessible(anna, "host dialog, delete")
    anna.get_by_test_id("host-delete-confirm").click()
    expect(anna.get_by_test_id("deleted")).to_be_visible()
    assert server.api("GET", f"/api/tables/{code}").status_code == 410
    anna.goto(f"{server.base_url}/t/{code}")
    expect(anna.get_by_test_id("gone")).to_be_visible()
    screenshots.take(anna, "host-deleted.png")
