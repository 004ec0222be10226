"""Issue 38, point 1: a laptop window fits the game.

From 1280×680 (a 1280×800 laptop minus the browser's bars) up, at every moment of a hand, the
trump ranking, every seat, the trick and your whole hand are on screen at once, and the page
neither needs nor does any scrolling; on a 390×844 phone the trumps, the trick and your hand are.
The table is played by script (every seat), the page watches seat 0 and is checked at every
version of the hand: the auction (displays grow), the trump and partner choices, every trick.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.conftest import Server
from tests.browser.scripted import ScriptedTable

pytestmark = pytest.mark.browser

# What must be in view, each a CSS selector: every element it matches must lie wholly inside
# the viewport. The ranking only once trumps are named; the seats only where the point asks.
# ``whole``: the page as a whole fits (nothing to scroll to); a phone may scroll to the rest
# (reactions, chat), as long as what must be in view is, at the top.
_OUT_OF_VIEW = """([selectors, whole]) => {
  const width = innerWidth, height = innerHeight;
  const out = [];
  const page = document.documentElement.scrollHeight;
  if (whole && page > height + 1) out.push(`page is ${page} px high`);
  if (scrollY > 0) out.push(`page scrolled by ${scrollY}`);
  for (const selector of selectors) {
    for (const el of document.querySelectorAll(selector)) {
      const box = el.getBoundingClientRect();
      if (!box.width && !box.height) continue;
      if (box.top < -1 || box.left < -1 || box.bottom > height + 1 || box.right > width + 1)
        out.push(`${selector} at ${Math.round(box.left)},${Math.round(box.top)}–` +
                 `${Math.round(box.right)},${Math.round(box.bottom)}`);
    }
  }
  return out;
}"""

LAPTOP_VIEW = ["#ranking:not(:empty)", "#ring .seat", "#trick", "#me button.card"]
PHONE_VIEW = ["#ranking:not(:empty)", "#trick", "#me button.card"]

SIZES = {
    "1280x680": ({"width": 1280, "height": 680}, LAPTOP_VIEW, True),
    "1920x1080": ({"width": 1920, "height": 1080}, LAPTOP_VIEW, True),
    "390x844": ({"width": 390, "height": 844}, PHONE_VIEW, False),
}


def _watch(page: Page, table: ScriptedTable, selectors: list[str], whole: bool) -> list[str]:
    """Every problem seen at any version of the hand, with the phase it was seen in."""
    seen: list[str] = []
    while True:
        page.wait_for_function(
            "v => Number(document.body.dataset.version) >= v", arg=table.version, timeout=15_000
        )
        view: dict[str, Any] = table.view
        for problem in page.evaluate(_OUT_OF_VIEW, [selectors, whole]):
            seen.append(f"{view['phase']} v{table.version}: {problem}")
        if view["hand_number"] > 1 or view["game_over"]:
            return seen
        table.step()


# The laptop window with the fewest and the most seats around it; the phone with the most; the
# TV between (every combination would play eight hands for little more).
CASES = [("1280x680", 4), ("1280x680", 6), ("390x844", 6), ("1920x1080", 5)]
# The tightest moment of a laptop window is your trump choice as Vice: the prompt holds your
# options with their explanations. At 6 seats the bidders show green cards where they have
# them, whose name ("Grün") is wider than "Rot": on a first visit, in the system font
# (fonts.js), its explanation took a third line, and the page 6 px more than the window.
BID_COLOUR = {("1280x680", 6): "green"}


@pytest.mark.parametrize(("size", "players"), CASES, ids=[f"{s}-{n}p" for s, n in CASES])
def test_1_a_laptop_window_fits_the_game(
    browser: Browser, server: Server, size: str, players: int
) -> None:
    viewport, selectors, whole = SIZES[size]
    colour = BID_COLOUR.get((size, players))
    with ScriptedTable(server, players, bid_colour=colour) as table:
        page = browser.new_context(viewport=viewport, locale="de-DE").new_page()
        page.goto(table.rejoin_url(0))
        problems = _watch(page, table, selectors, whole)
    assert problems == [], "\n".join(problems[:20])
