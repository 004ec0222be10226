"""The help dialog's rules card shows the table's goal and bonus numbers from the engine, and
marks the revised edition's unverified values as such."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, Server

pytestmark = pytest.mark.browser


def open_help(browser: Browser, server: Server, body: dict[str, object], locale: str) -> Page:
    code = server.api("POST", "/api/tables", json=body).json()["invite_code"]
    page = browser.new_context(viewport=PHONE, locale=locale).new_page()
    page.goto(f"{server.base_url}/t/{code}")
    page.get_by_test_id("lobby-help").click()
    return page


def test_revised_rules_card_marks_unverified_values(browser: Browser, server: Server) -> None:
    page = open_help(browser, server, {"players": 4, "variant": "revised"}, "en-GB")
    card = page.get_by_test_id("rules-card")
    expect(card).to_contain_text("Team goal")
    expect(card).to_contain_text("42")  # bid 7 with 4 players: the rulebook's one example
    expect(card).to_contain_text("× 10 (Crown)")
    expect(page.get_by_test_id("rules-unverified")).to_contain_text("Unverified")
    expect(page.locator("#rules-short")).to_be_hidden()  # the classic summary would mislead
    page.context.close()


def test_classic_rules_card_in_german_has_nothing_unverified(
    browser: Browser, server: Server
) -> None:
    page = open_help(browser, server, {"players": 5, "variant": "classic"}, "de-DE")
    card = page.get_by_test_id("rules-card")
    expect(card).to_contain_text("Teamziel")
    expect(card).to_contain_text("33")  # 5 players, bid 4 (T1)
    expect(page.get_by_test_id("rules-unverified")).to_have_count(0)
    page.context.close()
