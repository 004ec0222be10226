"""Issue 38, point 9: it looks made for Mü.

Card faces drawn as SVG (app/web/cardface.py) for Mü's five colours: each colour with its own
symbol, the number large in two corners, the card points marked, trumps marked; readable at
390 px with 15 cards in hand. A self-hosted typeface with German glyphs. Cards that move from
their player to the trick and the won trick to its winner, and stay still for people who ask
their system for reduced motion.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, Server
from tests.browser.scripted import ScriptedTable

pytestmark = pytest.mark.browser

SYMBOLS = {"red", "yellow", "green", "blue", "purple"}

# Each card of the hand as drawn: its colour, its numbers, its symbol's path, its triangles,
# whether it carries the trump corner, and how tall its number is on screen.
_FACES = """() => [...document.querySelectorAll('#me button.card')].map((card) => {
  const face = card.querySelector('svg.face');
  const nums = face ? [...face.querySelectorAll('text.num')] : [];
  return {
    label: card.getAttribute('aria-label'),
    colour: [...card.classList].find((c) => c.startsWith('c-'))?.slice(2),
    trump: card.classList.contains('trump'),
    numbers: nums.map((n) => n.textContent),
    numberPx: nums.length ? nums[0].getBoundingClientRect().height : 0,
    symbol: face?.querySelector('path.sym')?.getAttribute('d') ?? null,
    points: face ? face.querySelectorAll('.pts path').length : -1,
    corner: Boolean(face?.querySelector('.corner-gold')),
    box: card.getBoundingClientRect().toJSON(),
  };
})"""


# The typeface's faces in the page's font set, by status ("unloaded", "loading", "loaded").
# An expression: wait with `() => …` around it, since wait_for_function polls a string by
# evaluating it, which the page's Content-Security-Policy refuses (an EvalError, whenever the
# condition does not hold at the first look).
_OUR_FACES = """[...document.fonts]
  .filter((face) => face.family.includes('Atkinson Hyperlegible Next'))
  .map((face) => face.status)"""
# The font files the page fetched.
_FONT_FILES = """[...new Set(performance.getEntriesByType('resource').map((e) => e.name)
  .filter((name) => name.endsWith('.woff2')))].sort()"""


def _faces(page: Page) -> list[dict[str, Any]]:
    return list(page.evaluate(_FACES))


def test_9_it_looks_made_for_mu(browser: Browser, server: Server) -> None:
    with ScriptedTable(server, 4, hands=1) as table:
        page = browser.new_context(viewport=PHONE, locale="de-DE").new_page()
        page.goto(table.rejoin_url(0))
        page.wait_for_function(
            "v => Number(document.body.dataset.version) >= v", arg=table.version, timeout=15_000
        )

        # Fifteen faces on a 390 px phone, every one whole in view, the number large enough
        # to read (at least 12 px tall) and in two corners, the symbol its colour's own.
        faces = _faces(page)
        assert len(faces) == 15
        symbols: dict[str, str] = {}
        for face in faces:
            number = re.match(r"\S+ (\d)", face["label"])
            assert number is not None, face["label"]
            assert face["numbers"] == [number.group(1)] * 2, face
            assert face["numberPx"] >= 12, face
            points = int(re.search(r"(\d) (point|Punkt)", face["label"]).group(1))  # type: ignore[union-attr]
            assert face["points"] == points, face
            assert (
                face["box"]["right"] <= PHONE["width"] and face["box"]["bottom"] <= PHONE["height"]
            )
            assert symbols.setdefault(face["colour"], face["symbol"]) == face["symbol"]
        assert set(symbols) <= SYMBOLS and len(set(symbols.values())) == len(symbols)

        # Trumps marked, once named: every card the ranking makes a trump wears the corner.
        table.play_until(lambda view: view["phase"] == "play")
        page.wait_for_function(
            "v => Number(document.body.dataset.version) >= v", arg=table.version, timeout=15_000
        )
        faces = _faces(page)
        assert any(face["trump"] for face in faces)
        assert all(face["corner"] == face["trump"] for face in faces)

        # The typeface is ours, served from /static/fonts, and it has the German letters.
        # A first visit keeps the system font (a typeface arriving after the page is usable
        # would move its text under the reader's finger) and only fetches the typeface's
        # files, once the page is usable, for the next visit.
        page.wait_for_function("() => localStorage.getItem('mu-fonts') === '1'", timeout=15_000)
        assert page.evaluate(_OUR_FACES) == []
        assert page.evaluate(_FONT_FILES) == [
            server.base_url + "/static/fonts/atkinson-hyperlegible-next-400.woff2",
            server.base_url + "/static/fonts/atkinson-hyperlegible-next-700.woff2",
        ]
        # The next visit applies it at once (static/js/early.js), from the cache.
        page.reload()
        page.wait_for_function(
            "v => Number(document.body.dataset.version) >= v", arg=table.version, timeout=15_000
        )
        body_font = page.evaluate("getComputedStyle(document.body).fontFamily")
        assert body_font.startswith('"Atkinson Hyperlegible Next"'), body_font
        page.wait_for_function(f"() => ({_OUR_FACES}).includes('loaded')", timeout=15_000)
        assert page.evaluate(
            "document.fonts.check('16px \"Atkinson Hyperlegible Next\"', 'äöüßÄÖÜ')"
        )
        page.context.close()


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_9_cards_move_from_their_player_unless_asked_not_to(
    browser: Browser, server: Server, motion: str
) -> None:
    with ScriptedTable(server, 4, hands=1) as table:
        page = browser.new_context(
            viewport={"width": 1280, "height": 680}, locale="en-GB", reduced_motion=motion
        ).new_page()
        table.play_until(lambda view: view["phase"] == "play")
        page.goto(table.rejoin_url(0))
        page.wait_for_function(
            "v => Number(document.body.dataset.version) >= v", arg=table.version, timeout=15_000
        )
        # Record each card's motion as the page starts it: where its first frame puts it, and
        # where its player's seat is, both measured before it moves.
        page.evaluate(
            """() => {
              window.__arrivals = [];
              const animate = Element.prototype.animate;
              Element.prototype.animate = function (frames, options) {
                if (this.matches('#trick .played')) {
                  const seat = document.querySelector(
                    `#ring .seat[data-seat="${this.dataset.seat}"]`).getBoundingClientRect();
                  const spot = this.getBoundingClientRect();
                  const shift = String(frames[0].transform)
                    .match(/translate\\((-?[\\d.]+)px, (-?[\\d.]+)px\\)/);
                  window.__arrivals.push({seat: Number(this.dataset.seat),
                    fx: shift ? Number(shift[1]) : NaN, fy: shift ? Number(shift[2]) : NaN,
                    dx: seat.left + seat.width / 2 - (spot.left + spot.width / 2),
                    dy: seat.top + seat.height / 2 - (spot.top + spot.height / 2)});
                }
                return animate.call(this, frames, options);
              };
            }"""
        )
        for _ in range(3):  # three cards of the first trick, from three other seats
            table.step()
        expect(page.locator("#trick .played")).to_have_count(3)
        if motion == "reduce":
            page.wait_for_function("() => document.querySelectorAll('#trick .played').length >= 3")
            assert page.evaluate("window.__arrivals") == []
        else:
            page.wait_for_function("() => window.__arrivals.length >= 3", timeout=15_000)
            for arrival in page.evaluate("window.__arrivals"):
                # It starts at its player's seat and moves to its place in front of them.
                assert abs(arrival["fx"] - arrival["dx"]) < 2, arrival
                assert abs(arrival["fy"] - arrival["dy"]) < 2, arrival
        page.context.close()
