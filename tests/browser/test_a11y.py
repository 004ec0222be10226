"""axe-core on the table page: no colour-contrast and no naming or label violation, in the lobby
and during play, on a phone and on a laptop.

axe-core is vendored for the tests only (tests/browser/vendor/README.md says where it came from)
and injected into the page under test; no production page loads it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.browser.conftest import PHONE, Server
from tests.browser.scripted import ScriptedTable

pytestmark = pytest.mark.browser

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
AXE_VERSION = "4.14.1"
LAPTOP = ViewportSize(width=1280, height=800)
SIZES = {"phone": ViewportSize(width=PHONE["width"], height=PHONE["height"]), "laptop": LAPTOP}

# What must never be violated: contrast, and every element that needs a name having one.
CHECKED = {
    "color-contrast",
    "label",
    "button-name",
    "image-alt",
    "input-button-name",
    "link-name",
    "select-name",
    "role-img-alt",
    "svg-img-alt",
    "aria-allowed-attr",
    "aria-prohibited-attr",
    "aria-required-attr",
    "aria-valid-attr",
    "aria-valid-attr-value",
    "aria-roles",
    "aria-command-name",
    "aria-input-field-name",
    "aria-toggle-field-name",
    "aria-dialog-name",
    "aria-text",
    "aria-hidden-focus",
}


# axe's violations, plus the colour-contrast checks it could not decide: a text over a gradient,
# say, counts as a failure. Texts it could not see because a scrolling dialog hides them are
# scrolled into view and checked again.
_RUN_AXE = """async () => {
    // A page that is still moving is judged when it has settled: a just-won trick that stays a
    // moment and then slides over to its winner passes over the felt's status line (axe then
    // cannot tell the line's contrast), and so do the finite animations of arriving cards.
    const sleep = (ms) => new Promise(resolve => setTimeout(resolve, ms));
    for (let waited = 0; document.querySelector("#trick.won") && waited < 10000; waited += 50) {
        await sleep(50);
    }
    await Promise.all(document.getAnimations()
        .filter(a => a.playState === "running" && a.effect?.getTiming().iterations !== Infinity)
        .map(a => a.finished.catch(() => null)));
    const nodes = (v) => v.nodes.map(n => n.target.join(" ") + ": " + n.failureSummary);
    const undecided = (results) => results.incomplete.filter(v => v.id === "color-contrast")
        .flatMap(v => v.nodes);
    const results = await axe.run(document);
    const found = results.violations.map(v => ({id: v.id, impact: v.impact, nodes: nodes(v)}));
    const unseen = [];
    for (const node of undecided(results)) {
        // A glyph like "›" or "?" is too short for axe to tell whether it is text at all.
        if (/too short/.test(node.failureSummary)) continue;
        if (!/overlapped/.test(node.failureSummary)) {
            found.push({id: "color-contrast", impact: "undecided",
                        nodes: [node.target.join(" ") + ": " + node.failureSummary]});
            continue;
        }
        document.querySelector(node.target[0]).scrollIntoView({block: "center"});
        const again = await axe.run(node.target[0], {runOnly: ["color-contrast"]});
        unseen.push(...again.violations.flatMap(nodes),
                    ...undecided(again).map(n => n.target[0] + ": " + n.failureSummary));
    }
    if (unseen.length) found.push({id: "color-contrast", impact: "scrolled", nodes: unseen});
    return found;
}"""


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """Every axe violation on the page as it is now (WCAG 2.x A/AA rules and best practices).

    The page must come from a context with ``bypass_csp=True``: the strict policy (rightly)
    refuses the injected axe script."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    assert page.evaluate("axe.version") == AXE_VERSION
    found: list[dict[str, Any]] = page.evaluate(_RUN_AXE)
    return found


def assert_accessible(page: Page, where: str) -> None:
    violations = axe_violations(page)
    for other in violations:
        if other["id"] not in CHECKED:
            print(f"{where}: axe also reports {other['id']} ({other['impact']})")
    assert [v for v in violations if v["id"] in CHECKED] == [], where


def _follow(page: Page, table: ScriptedTable) -> None:
    page.wait_for_function(
        "v => Number(document.body.dataset.version) >= v", arg=table.version, timeout=15_000
    )


@pytest.mark.parametrize("size", SIZES)
def test_the_lobby_is_accessible(browser: Browser, server: Server, size: str) -> None:
    host = browser.new_context(viewport=SIZES[size], locale="de-DE", bypass_csp=True).new_page()
    host.goto(server.base_url + "/")
    assert_accessible(host, "home")
    host.get_by_test_id("create-table").click()
    host.wait_for_url(re.compile(r"/t/[\w-]+$"))
    expect(host.get_by_test_id("host-bots")).to_be_visible()
    assert_accessible(host, "the host's lobby")
    host.get_by_test_id("name-input").fill("Anna")
    host.get_by_test_id("take-seat").click()
    expect(host.get_by_test_id("join-form")).to_be_hidden()
    assert_accessible(host, "waiting for the others")
    host.get_by_test_id("lobby-help").click()
    assert_accessible(host, "help in the lobby")
    host.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_table_is_accessible_during_play(browser: Browser, server: Server, size: str) -> None:
    with ScriptedTable(server, 4, hands=1) as table:
        page = browser.new_context(viewport=SIZES[size], locale="en-GB", bypass_csp=True).new_page()
        page.goto(table.rejoin_url(0))
        expect(page.get_by_test_id("board")).to_be_visible()
        table.play_until(lambda view: view["to_move"] == 0)
        _follow(page, table)
        assert_accessible(page, "auction, your turn")
        # Your turn in the play with some cards dimmed (you must follow), a trick on the felt.
        table.play_until(
            lambda view: (
                view["to_move"] == 0
                and len(view["trick"]) > 0
                and len(view["prompt"]["cards"]) < len(view["hand"]) + len(view["displays"][0])
            )
        )
        _follow(page, table)
        expect(page.locator('#me button.card[data-legal="false"]').first).to_be_visible()
        assert_accessible(page, "play, your turn")
        page.get_by_test_id("look-back-button").click()
        expect(page.get_by_test_id("look-back")).to_be_visible()
        assert_accessible(page, "look back")
        page.keyboard.press("Escape")
        table.play_until(lambda view: False)
        _follow(page, table)
        expect(page.get_by_test_id("standings")).to_be_visible()
        assert_accessible(page, "end of the game")
        page.context.close()


def test_the_check_finds_what_it_looks_for(browser: Browser, server: Server) -> None:
    """A faint text and a nameless button on the page: axe must report both."""
    page = browser.new_context(viewport=SIZES["phone"], bypass_csp=True).new_page()
    page.goto(server.base_url + "/")
    page.evaluate(
        """() => document.querySelector("main").append(
            Object.assign(document.createElement("p"), {textContent: "faint", style: "color:#bbb"}),
            document.createElement("button"))"""
    )
    assert {"color-contrast", "button-name"} <= {v["id"] for v in axe_violations(page)}
    page.context.close()
