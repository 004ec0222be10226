"""History pages in headless Chromium: the score sheet, then a replay stepped through.

The hand itself is played over the real server's WebSocket by a small scripted client (the
client helper's UI tests already cover playing through the page); the browser only reads.
"""

from __future__ import annotations

import json
from contextlib import ExitStack
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect
from websockets.sync.client import ClientConnection, connect

from tests.app.helpers import choose
from tests.browser.conftest import DESKTOP, PHONE, Screenshots, Server

pytestmark = pytest.mark.browser

NAMES = ["Anna", "Ben", "Cleo"]


def _view_at(ws: ClientConnection, version: int) -> dict[str, Any]:
    while True:
        message = json.loads(ws.recv(timeout=5))
        if message["type"] == "view" and message["version"] >= version:
            return dict(message)


def play_one_hand(server: Server) -> str:
    """A 3-player table of one hand, played to the end; returns its invite code."""
    code = server.new_table(3, hands=1)
    tokens = [
        server.api("POST", f"/api/tables/{code}/seats", json={"name": name}).json()["token"]
        for name in NAMES
    ]
    ws_base = server.base_url.replace("http", "ws", 1)
    with ExitStack() as stack:
        sockets = [
            stack.enter_context(connect(f"{ws_base}/ws/{code}?token={token}")) for token in tokens
        ]
        views = [_view_at(ws, 0) for ws in sockets]  # each socket's first view
        while not views[0]["view"]["game_over"]:
            mover = views[0]["view"]["to_move"]
            version = views[0]["version"]
            message = {"type": "action", "version": version, "action": choose(views[mover]["view"])}
            sockets[mover].send(json.dumps(message))
            views = [_view_at(ws, version + 1) for ws in sockets]
    return code


def _errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return errors


def test_score_sheet_then_step_through_the_replay(
    browser: Browser, server: Server, screenshots: Screenshots
) -> None:
    code = play_one_hand(server)
    sheet = server.api("GET", f"/api/tables/{code}/scoresheet").json()
    hand = server.api("GET", f"/api/tables/{code}/hands/1").json()

    context = browser.new_context(
        viewport=ViewportSize(width=DESKTOP["width"], height=DESKTOP["height"]), locale="en-GB"
    )
    page = context.new_page()
    errors = _errors(page)
    page.goto(f"{server.base_url}/t/{code}/sheet")
    for seat, total in enumerate(sheet["totals"]):
        expect(page.get_by_test_id(f"saldo-1-{seat}")).to_have_attribute("data-value", str(total))
    expect(page.get_by_test_id("winners")).to_contain_text("Game over")
    expect(page.get_by_test_id("print")).to_be_visible()  # the script shows it
    screenshots.take(page, "history-sheet.png", full_page=True)

    page.get_by_test_id("hand-link-1").click()
    expect(page.get_by_test_id("explanation")).to_have_text(hand["explanation"])
    replay = page.get_by_test_id("replay")
    expect(replay).to_have_attribute("data-step", "0")
    page.get_by_test_id("perspective").select_option("0")  # Anna's seat: the others hidden
    expect(replay).to_have_attribute("data-seat", "0")
    expect(page.get_by_test_id("replay-hand-1").locator("[data-card-id]")).to_have_count(0)
    for step in range(1, 6):
        page.get_by_test_id("step-next").click()
        expect(replay).to_have_attribute("data-step", str(step))
    page.get_by_test_id("step-prev").click()
    expect(replay).to_have_attribute("data-step", "4")
    page.keyboard.press("ArrowRight")
    expect(replay).to_have_attribute("data-step", "5")
    assert "step=5" in page.url and "seat=0" in page.url  # a reload shows the same moment

    page.get_by_test_id("perspective").select_option("all")
    expect(page.get_by_test_id("replay-hand-1").locator("[data-card-id]").first).to_be_visible()
    page.get_by_test_id("step-last").click()
    expect(replay).to_have_attribute("data-step", str(hand["steps"]))
    last = hand["tricks"][-1]
    for play in last["cards"]:
        card = page.get_by_test_id(f"replay-play-{play['seat']}").locator("[data-card-id]")
        expect(card).to_have_attribute("data-card-id", str(play["card"]["id"]))
    page.keyboard.press("Home")
    expect(replay).to_have_attribute("data-step", "0")
    page.get_by_test_id("step-next").click()
    expect(replay).to_have_attribute("data-step", "1")
    screenshots.take(page, "history-replay.png", full_page=True)
    assert errors == []
    context.close()


def test_replay_steps_without_javascript(
    browser: Browser, server: Server, screenshots: Screenshots
) -> None:
    code = play_one_hand(server)
    context = browser.new_context(
        viewport=ViewportSize(width=PHONE["width"], height=PHONE["height"]),
        java_script_enabled=False,
    )
    page = context.new_page()
    page.goto(f"{server.base_url}/t/{code}/hands/1?seat=all")
    page.get_by_test_id("step-next").click()
    page.get_by_test_id("step-next").click()
    expect(page.get_by_test_id("replay")).to_have_attribute("data-step", "2")
    expect(page.get_by_test_id("print")).to_be_hidden()  # needs the script
    screenshots.take(page, "history-replay-nojs-phone.png", full_page=True)
    context.close()
