"""The lessons (issue 27) in the browser: both lessons completed by following the highlighted
moves only, on a phone and a laptop, in German and English (one run by keyboard alone), axe
clean on every step, a screenshot of every step; a wrong move and its explanation; resuming
after a reload; the practice table at the end."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from app.lesson import script
from engine import notation
from tests.browser.conftest import REPO, Screenshots, Server
from tests.browser.test_a11y import assert_accessible
from tests.waiting import wait_until

pytestmark = pytest.mark.browser

PHONE = ViewportSize(width=390, height=844)
LAPTOP = ViewportSize(width=1280, height=800)
RUNS = [
    ("en", PHONE, False),
    ("de", PHONE, True),  # keyboard only
    ("en", LAPTOP, True),
    ("de", LAPTOP, False),
]
METRICS = REPO / "artifacts" / "lesson-metrics.txt"
WORDS_PER_MINUTE = 180  # a newcomer reading carefully
SECONDS_PER_TAP = 2.0  # finding the glowing card or button and tapping it


def _index(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.stepIndex ?? '-1'"))


def _until(page: Page, js: str, arg: object = None, timeout_s: float = 15) -> None:
    """Poll ``js`` (the page's CSP forbids wait_for_function's eval) until it is true."""
    wait_until(lambda: page.evaluate(js, arg), timeout_s, js)


def _press(page: Page, keyboard: bool, target: str) -> bool:
    """Click, or by keyboard press Enter; whether the control had to be given the focus first
    (the lesson itself moves it to the next highlighted control)."""
    control = page.locator(target).first
    if not keyboard:
        control.click()
        return False
    moved = not control.evaluate("el => el === document.activeElement")
    if moved:
        control.focus()
    page.keyboard.press("Enter")
    return moved


def follow_lesson(
    page: Page, name: str, *, keyboard: bool, shots: Screenshots, axe: bool, tag: str
) -> dict[str, float]:
    """Complete a lesson by the highlight alone; returns its taps and its text's words."""
    steps = len(script.load(name).steps)
    taps, words, seen, focused = 0, 0, -1, 0
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        _until(page, "() => document.body.dataset.stepIndex !== undefined")
        index = _index(page)
        if index != seen:
            seen = index
            expect(page.locator("#coach-progress")).to_have_text(re.compile(rf"\b{index + 1}\b"))
            words += len(page.locator("#coach-text").inner_text().split())
            shots.take(page, f"lesson-{name}-{tag}-{index:02d}.png")
            if axe:
                # At the top nothing scrolls under the sticky coach (axe cannot decide the
                # contrast of a text over another element).
                page.evaluate("() => scrollTo(0, 0)")
                assert_accessible(page, f"{name} step {index} ({tag})")
        if index == steps - 1:
            expect(page.get_by_test_id("lesson-end")).to_be_visible()
            # By keyboard: after the first step the focus is always already on the next move.
            assert focused <= 1, f"the focus had to be moved {focused} times"
            return {"taps": taps, "words": words, "steps": steps}
        moves = page.locator(".lesson-move")
        if moves.count():
            before = moves.first.evaluate("el => el.dataset.cardId ?? el.dataset.testid")
            focused += _press(page, keyboard, ".lesson-move")
            taps += 1
            _until(
                page,
                """([index, before]) => Number(document.body.dataset.stepIndex) !== index ||
                    (document.querySelector('.lesson-move')?.dataset.cardId ??
                     document.querySelector('.lesson-move')?.dataset.testid) !== before""",
                [index, before],
            )
        else:
            focused += _press(page, keyboard, "[data-testid=lesson-next]")
            taps += 1
            _until(page, "(index) => Number(document.body.dataset.stepIndex) !== index", index)
        expect(page.get_by_test_id("lesson-why")).to_be_hidden()
    raise AssertionError(f"{name} not finished")


@pytest.mark.parametrize(("lang", "size", "keyboard"), RUNS, ids=lambda v: str(v))
def test_both_lessons_by_the_highlight_alone(
    browser: Browser,
    server: Server,
    screenshots: Screenshots,
    lang: str,
    size: ViewportSize,
    keyboard: bool,
) -> None:
    axe = size == PHONE and lang == "en" or size == LAPTOP and lang == "de"
    # axe is injected as a script: only those runs lift the page's strict policy.
    context = browser.new_context(viewport=size, locale=lang, bypass_csp=axe)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    tag = f"{lang}-{size['width']}x{size['height']}"
    page.goto(f"{server.base_url}/?lang={lang}")
    _press(page, keyboard, "[data-testid=learn]")
    expect(page).to_have_url(re.compile(r"/learn/classic"))
    classic = follow_lesson(page, "classic", keyboard=keyboard, shots=screenshots, axe=axe, tag=tag)
    overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
    assert overflow <= 0, "nothing scrolls sideways"
    expect(page.get_by_test_id("lesson-sheet")).to_be_visible()
    _press(page, keyboard, "[data-testid=next-lesson]")
    expect(page).to_have_url(re.compile(r"/learn/revised"))
    revised = follow_lesson(page, "revised", keyboard=keyboard, shots=screenshots, axe=axe, tag=tag)
    assert not errors
    if lang == "en" and size == PHONE:
        _write_metrics(classic, revised)
    if lang == "en" and size == LAPTOP:
        _press(page, keyboard, "[data-testid=practice]")
        expect(page).to_have_url(re.compile(r"/t/[\w-]+$"))
        expect(page.get_by_test_id("board")).to_be_visible(timeout=30_000)
        expect(page.locator("#me button.card").first).to_be_visible()
        if page.locator("body.my-turn").count():
            expect(page.get_by_test_id("hint-button")).to_be_visible()
        info = server.api("GET", "/api/tables/" + page.url.rsplit("/", 1)[-1]).json()
        assert info["options"]["hints"] is True
    context.close()


def _write_metrics(classic: dict[str, float], revised: dict[str, float]) -> None:
    lines = ["How long the lessons take (tests/browser/test_lesson.py)", ""]
    for name, got in (("classic", classic), ("revised", revised)):
        reading = got["words"] / WORDS_PER_MINUTE * 60
        total = reading + got["taps"] * SECONDS_PER_TAP
        lines.append(
            f"{name}: {got['steps']} steps, {got['taps']} taps, {got['words']} words "
            f"(~{reading / 60:.1f} min reading at {WORDS_PER_MINUTE} wpm), "
            f"read-through ~{total / 60:.1f} min with {SECONDS_PER_TAP:.0f} s per tap"
        )
    METRICS.parent.mkdir(parents=True, exist_ok=True)
    METRICS.write_text("\n".join(lines) + "\n")


def test_a_wrong_move_is_explained_and_the_place_is_kept(
    browser: Browser, server: Server, screenshots: Screenshots
) -> None:
    # The narrowest phone the table supports.
    context = browser.new_context(viewport=ViewportSize(width=360, height=740), locale="en")
    page = context.new_page()
    page.goto(f"{server.base_url}/learn/classic?lang=en")
    expect(page.get_by_test_id("lesson-text")).to_contain_text("15 cards")
    page.get_by_test_id("lesson-next").click()
    expect(page.locator("body")).to_have_attribute("data-step", "open")
    # Two cards where small steps allow one: the engine refuses, the coach says why.
    page.locator(f'#me [data-card-id="{notation.card_id("G9")}"]').click()
    page.locator(f'#me [data-card-id="{notation.card_id("G8")}"]').click(force=True)  # dimmed
    why = page.get_by_test_id("lesson-why")
    expect(why).to_have_attribute("data-code", "too_many_cards")
    expect(why).to_contain_text("at most 1")
    # A legal move that is not the lesson's: said so, nothing happens.
    page.get_by_test_id("pass").click()
    expect(why).to_have_attribute("data-code", "other_move")
    expect(page.locator("body")).to_have_attribute("data-step", "open")
    # Leave and come back: the same step.
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-step", "open")
    # Jump ahead to following suit: the dimmed green 7 is a trump, not green.
    page.evaluate("localStorage.setItem('mu_lesson_classic', '12')")
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-step", "follow")
    page.locator(f'#me [data-card-id="{notation.card_id("G7")}"]').click(force=True)
    expect(why).to_have_attribute("data-code", "must_follow_suit")
    expect(why).to_contain_text("number trump no longer belongs to its colour")
    assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
    screenshots.take(page, "lesson-wrong-move-360.png")
    # Back, then Show me makes the move.
    page.get_by_test_id("lesson-back").click()
    expect(page.locator("body")).to_have_attribute("data-step", "won")
    page.get_by_test_id("lesson-show").click()
    expect(page.locator("body")).to_have_attribute("data-step", "follow")
    context.close()


def test_the_lobby_offers_the_lesson_while_waiting(server: Server) -> None:
    code = server.new_table(4)
    page = server.api("GET", f"/t/{code}").text
    assert 'data-testid="lobby-learn"' in page and 'href="/learn/classic"' in page
