"""Playing Mü through the UI only: join a table, find whose turn it is, act as a person would.

The tests never send WebSocket messages themselves; every move is a click on what the page
offers (cards marked ``data-legal="true"``, the prompt's buttons).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Page, expect

from tests.waiting import wait_until

TURN_TIMEOUT_S = 10
MY_TURN = "document.body.classList.contains('my-turn')"


def join(page: Page, base_url: str, code: str, name: str, seat: int) -> None:
    page.goto(f"{base_url}/t/{code}")
    page.get_by_test_id("name-input").fill(name)
    page.get_by_test_id(f"seat-choice-{seat}").check(force=True)
    page.get_by_test_id("take-seat").click()
    expect(page.get_by_test_id("join-form")).to_be_hidden()


def version(page: Page) -> int:
    return int(page.evaluate("Number(document.body.dataset.version ?? -1)"))


def prompt_type(page: Page) -> str:
    return str(page.get_by_test_id("prompt").get_attribute("data-prompt-type") or "")


def plain_move(page: Page, *, lead: bool = False) -> None:
    """A plain, always legal move from what the page offers (the Crown's discard included).
    ``lead``: place a card while the auction has seen nothing yet (so that a hand is played
    out rather than passed in), then pass."""
    kind = prompt_type(page) or "play"
    if kind == "bid":
        pass_button = page.get_by_test_id("pass")
        quiet = lead and not page.evaluate(
            "document.querySelectorAll('#trick .auction-log li').length"
        )
        if pass_button.count() and not quiet:
            pass_button.click()
        else:
            page.locator('#me .hand button.card[data-legal="true"]').first.click()
            page.get_by_test_id("place").click()
    elif kind in ("trump", "partner"):
        page.locator("#prompt button.option").first.click()
    elif kind == "discard":
        button = page.get_by_test_id("discard")
        while button.is_disabled():
            page.locator('#me .hand button.card[data-legal="true"]:not(.selected)').first.click()
        button.click()
    else:
        page.locator('#me button.card[data-legal="true"]').first.click()


# A hand against quick bots, waited for as a whole (a bound: a few seconds when idle).
HAND_TIMEOUT_S = 45


def play_until_summary(
    page: Page,
    timeout_s: float = HAND_TIMEOUT_S,
    *,
    lead: bool = False,
    look: Callable[[], None] | None = None,
) -> None:
    """The page's seat makes a plain move whenever it is its turn (the bots play the others)
    until the summary opens; ``look()`` between its moves."""
    while not page.evaluate("document.getElementById('summary').open"):
        if look:
            look()
        if page.evaluate(MY_TURN):
            seen = version(page)
            plain_move(page, lead=lead)
            wait_past(page, seen)
        else:  # the bots' moves: wait in the page for our turn or the summary
            page.wait_for_function(
                f"() => {MY_TURN} || document.getElementById('summary').open",
                timeout=timeout_s * 1000,
            )


def whose_turn(pages: list[Page]) -> Page:
    """The one page whose seat is to move (its body carries ``my-turn``)."""

    def mover() -> Page | None:
        return next((page for page in pages if page.evaluate(MY_TURN)), None)

    found = wait_until(mover, TURN_TIMEOUT_S, "nobody's turn came up")
    assert found is not None
    return found


def wait_past(page: Page, seen: int) -> None:
    """Wait until the page shows a newer view than ``seen`` (our action was applied)."""
    page.wait_for_function(
        "seen => Number(document.body.dataset.version) > seen", arg=seen, timeout=15_000
    )


@dataclass
class Hand:
    """Plays one hand: the first two bids make a clear chief and vice, then everyone passes."""

    pages: list[Page]
    bids_made: int = 0
    plays: int = 0
    must_follow_seen: list[str] = field(default_factory=list)
    on_phase: dict[str, Any] = field(default_factory=dict)

    def step(self) -> str:
        page = whose_turn(self.pages)
        kind = prompt_type(page) or "play"
        hook = self.on_phase.pop(kind, None)
        if hook:
            hook(page)
        seen = version(page)
        getattr(self, f"_{kind}")(page)
        wait_past(page, seen)
        return kind

    def _bid(self, page: Page) -> None:
        if self.bids_made < 2:
            cards = page.locator("#me .hand button.card")
            for index in range(self.bids_made + 1):
                cards.nth(index).click()
            page.get_by_test_id("place").click()
            self.bids_made += 1
        else:
            page.get_by_test_id("pass").click()

    def _discard(self, page: Page) -> None:
        button = page.get_by_test_id("discard")
        while button.is_disabled():
            page.locator('#me .hand button.card[data-legal="true"]:not(.selected)').first.click()
        button.click()

    def _trump(self, page: Page) -> None:
        page.locator("#prompt button.option").first.click()

    def _partner(self, page: Page) -> None:
        page.locator("#prompt button.option").first.click()

    def _play(self, page: Page) -> None:
        self._check_dimmed(page)
        card = page.locator('#me button.card[data-legal="true"]').first
        if self.plays % 2:
            card.click()
        else:  # every other card is played from the keyboard
            card.focus()
            page.keyboard.press("Enter")
        self.plays += 1

    def _check_dimmed(self, page: Page) -> None:
        """Cards the prompt leaves out are disabled, say why, and clicking them sends nothing."""
        dimmed = page.locator('#me button.card[data-legal="false"]')
        if not dimmed.count():
            return
        card = dimmed.first
        expect(card).to_have_attribute("aria-disabled", "true")
        reason = card.get_attribute("title") or ""
        assert reason.startswith(("You must", "Du musst")), reason
        before = version(page)
        card.click(force=True)  # aria-disabled: Playwright would wait for it to be enabled
        expect(page.get_by_test_id("toast")).to_have_text(reason)
        assert version(page) == before
        self.must_follow_seen.append(reason)


def open_talk(page: Page) -> None:
    """Open the log and chat: the talkbar's button, unless the panel is docked beside the
    board (from 1100 px wide, static/js/log.js), where it is always open."""
    if page.evaluate("document.querySelector('#chat').classList.contains('log-docked')"):
        expect(page.get_by_test_id("chat-button")).to_be_hidden()
    else:
        page.get_by_test_id("chat-button").click()
    expect(page.get_by_test_id("chat")).to_be_visible()


def hold_tricks(pages: list[Page], ms: str) -> None:
    """How long these pages hold a completed trick from now on (their ``data-trick-pause-ms``,
    which felt.js reads for every trick): a test that looks at one trick's pause need not wait
    the whole pause for every other trick."""
    for page in pages:
        page.evaluate("ms => { document.getElementById('app').dataset.trickPauseMs = ms; }", ms)
