"""Nothing wider than a phone: at 360 px no page and no dialog of the client scrolls sideways,
and nothing inside a dialog hides part of itself behind a sideways scroll."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import NARROW, Server
from tests.browser.scripted import ScriptedTable

pytestmark = pytest.mark.browser

# Everything that reaches past the viewport, or scrolls sideways inside itself.
_TOO_WIDE = """() => {
  const width = document.documentElement.clientWidth;
  const classes = (el) => (typeof el.className === "string" ? el.className.split(" ") : []);
  const name = (el) => [el.tagName.toLowerCase() + (el.id ? "#" + el.id : ""), ...classes(el)]
    .filter(Boolean).join(".");
  const found = [];
  const page = document.documentElement.scrollWidth;
  if (page > width) found.push("page " + page);
  for (const el of document.querySelectorAll("body *")) {
    const box = el.getBoundingClientRect();
    if (!box.width || el.closest("[hidden]")) continue;
    const scrolls = ["auto", "scroll"].includes(getComputedStyle(el).overflowX);
    if (scrolls && el.scrollWidth > el.clientWidth + 1)
      found.push(name(el) + " scrolls " + el.scrollWidth);
    else if (box.right > width + 1 && !el.closest(".dialog-body, .sheet-scroll, .h-scroll"))
      found.push(name(el) + " ends at " + Math.round(box.right));
  }
  return found;
}"""


def assert_fits(page: Page, where: str) -> None:
    assert page.evaluate(_TOO_WIDE) == [], where


def _follow(page: Page, table: ScriptedTable) -> None:
    page.wait_for_function(
        "v => Number(document.body.dataset.version) >= v", arg=table.version, timeout=15_000
    )


def _open(page: Page, button: str, dialog: str) -> None:
    page.get_by_test_id(button).click()
    expect(page.get_by_test_id(dialog)).to_be_visible()


def _close(page: Page, dialog: str) -> None:
    page.keyboard.press("Escape")
    expect(page.get_by_test_id(dialog)).to_be_hidden()


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_home_and_lobby_fit_a_phone(browser: Browser, server: Server, locale: str) -> None:
    page = browser.new_context(viewport=NARROW, locale=locale).new_page()
    page.goto(server.base_url + "/")
    assert_fits(page, "home")
    page.locator("select[name=variant]").select_option("revised")
    assert_fits(page, "home, revised")
    code = server.new_table(5)
    page.goto(f"{server.base_url}/t/{code}")
    expect(page.get_by_test_id("join-form")).to_be_visible()
    assert_fits(page, "lobby")
    _open(page, "lobby-help", "help")
    assert_fits(page, "help dialog")
    page.context.close()


def test_a_five_player_game_fits_a_phone(browser: Browser, server: Server) -> None:
    with ScriptedTable(server, 5, hands=2) as table:
        page = browser.new_context(viewport=NARROW, locale="de-DE").new_page()
        page.goto(table.rejoin_url(0))
        expect(page.get_by_test_id("board")).to_be_visible()
        assert_fits(page, "auction")
        table.play_until(lambda view: view["phase"] == "play" and len(view["tricks"]) >= 3)
        table.step()
        _follow(page, table)
        assert_fits(page, "play")
        for button, dialog in [
            ("look-back-button", "look-back"),
            ("sheet-button", "sheet"),
            ("help-button", "help"),
        ]:
            _open(page, button, dialog)
            assert_fits(page, dialog)
            _close(page, dialog)

        table.play_until(lambda view: view["hand_number"] == 2)
        _follow(page, table)
        expect(page.get_by_test_id("summary")).to_be_visible()
        expect(page.get_by_test_id("sheet-total-0")).to_be_visible()
        assert_fits(page, "summary of hand 1")
        page.get_by_test_id("summary-close").click()

        table.play_until(lambda view: False)
        _follow(page, table)
        expect(page.get_by_test_id("standings")).to_be_visible()
        expect(page.get_by_test_id("sheet-total-0")).to_be_visible()
        assert_fits(page, "end of the game")

        for path in ["hands/1", "hands/2", "sheet"]:
            page.goto(f"{server.base_url}/t/{table.code}/{path}")
            assert_fits(page, path)
        page.context.close()


def test_the_talk_and_undo_dialogs_fit_a_phone(browser: Browser, server: Server) -> None:
    with ScriptedTable(server, 5, hands=1) as table:
        page = browser.new_context(viewport=NARROW, locale="de-DE").new_page()
        page.goto(table.rejoin_url(0))
        expect(page.get_by_test_id("board")).to_be_visible()
        assert_fits(page, "talk bar")
        _open(page, "chat-button", "chat")
        page.locator("#chat-mutes summary").click()
        assert_fits(page, "chat dialog")
        _close(page, "chat")
        # Another player asks to take back their move: this page is asked.
        mover = table.view["to_move"]
        while mover == 0:
            table.step()
            mover = table.view["to_move"]
        table.step()
        _follow(page, table)
        ask = {"type": "undo_ask", "version": table.version}
        table.sockets[mover].send(json.dumps(ask))
        expect(page.get_by_test_id("undo-dialog")).to_be_visible()
        assert_fits(page, "undo dialog")
        page.get_by_test_id("undo-refuse").click()
        expect(page.get_by_test_id("undo-dialog")).to_be_hidden()
        page.context.close()


@pytest.mark.parametrize("players", [3, 4, 6])
def test_the_table_fits_a_phone(browser: Browser, server: Server, players: int) -> None:
    with ScriptedTable(server, players) as table:
        page = browser.new_context(viewport=NARROW, locale="de-DE").new_page()
        page.goto(table.rejoin_url(players - 1))
        expect(page.get_by_test_id("board")).to_be_visible()
        table.play_until(lambda view: view["phase"] == "play" and len(view["trick"]) == players - 1)
        _follow(page, table)
        expect(page.locator("#trick .played")).to_have_count(players - 1)
        assert_fits(page, f"{players} players")
        table.play_until(lambda view: view["hand_number"] == 2)
        _follow(page, table)
        expect(page.get_by_test_id("summary").get_by_test_id("sheet-total-0")).to_be_visible()
        assert_fits(page, f"summary, {players} players")
        page.context.close()
