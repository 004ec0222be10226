"""Issue 38, point 10 (the seats' part): on a 390 px phone a bot's badge fits its side seat at
4 to 6 players, and a seat's running game total is labelled as one, not read as this hand's
points beside this hand's tricks."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import PHONE, Server
from tests.browser.driver import join

pytestmark = pytest.mark.browser

# Every badge or stat line that reaches past its seat's plate.
_SPILLS = """() => [...document.querySelectorAll('#ring .seat')].flatMap((seat) => {
  const box = seat.getBoundingClientRect();
  return [...seat.querySelectorAll('.badge, .stats > span')]
    .filter((el) => el.getBoundingClientRect().right > box.right + 1)
    .map((el) => `${seat.dataset.seat}: ${el.textContent}`);
})"""


@pytest.mark.parametrize("players", [4, 6])
def test_10_bot_badges_fit_and_totals_say_total(
    browser: Browser, server: Server, players: int
) -> None:
    created: dict[str, Any] = server.api("POST", "/api/tables", json={"players": players}).json()
    code, host = created["invite_code"], created["host_token"]
    for seat in range(1, players):
        response = server.api(
            "POST",
            f"/api/tables/{code}/bots",
            json={"seat": seat, "level": "heuristic"},
            headers={"Authorization": f"Bearer {host}"},
        )
        assert response.status_code == 201, response.text
    page = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    join(page, server.base_url, code, "Anna", 0)
    expect(page.locator("#ring-left .b-bot")).to_have_count(1)
    assert page.evaluate(_SPILLS) == []
    # The level is still there to read: in the badge's title at a narrow seat, in full above.
    assert page.locator("#ring-left .b-bot").get_attribute("title") == "Normal"
    expect(page.locator("#ring-top .b-bot").first).to_have_text("Bot · Normal")
    for seat in range(players):
        expect(page.get_by_test_id(f"seat-{seat}").locator(".total")).to_have_text("Total 0")
    page.context.close()
