"""The pace on the home form and in the lobby (DE/EN), at phone and desktop width."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import PHONE, Screenshots, Server
from tests.browser.driver import join

pytestmark = pytest.mark.browser

WIDE = {"width": 1280, "height": 800}


@pytest.mark.parametrize(
    ("locale", "viewport", "shown"),
    [
        ("de-DE", PHONE, "über Tage: 36 Stunden pro Zug"),
        ("en-GB", WIDE, "over days: 36 hours per move"),
    ],
)
def test_correspondence_table_from_the_home_form(
    browser: Browser,
    server: Server,
    screenshots: Screenshots,
    locale: str,
    viewport: dict[str, int],
    shown: str,
) -> None:
    context = browser.new_context(locale=locale, viewport=viewport)
    page = context.new_page()
    page.goto(server.base_url + "/")
    expect(page.get_by_test_id("move-hours")).to_be_hidden()
    expect(page.get_by_test_id("takeover")).to_be_visible()
    page.get_by_test_id("pace-correspondence").check(force=True)
    expect(page.get_by_test_id("takeover")).to_be_hidden()
    page.get_by_test_id("move-hours").fill("36")
    expect(page.get_by_test_id("correspondence-bots")).to_be_visible()
    size = f"{viewport['width']}x{viewport['height']}"
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.get_by_test_id("move-hours").scroll_into_view_if_needed()
    screenshots.take(page, f"pace-home-{size}.png")
    page.get_by_test_id("create-table").click()
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    expect(page.locator("#lobby-options")).to_contain_text(shown)
    screenshots.take(page, f"pace-lobby-{size}.png")
    code = page.url.rsplit("/", 1)[1]
    options = server.api("GET", f"/api/tables/{code}").json()["options"]
    assert (options["pace"], options["move_hours"], options["correspondence_bots"]) == (
        "correspondence",
        36,
        False,
    )
    context.close()


@pytest.mark.parametrize(("viewport", "size"), [(PHONE, "390x844"), (WIDE, "1280x800")])
def test_your_tables_on_the_home_page(
    browser: Browser, server: Server, screenshots: Screenshots, viewport: dict[str, int], size: str
) -> None:
    context = browser.new_context(locale="de-DE", viewport=viewport)
    page = context.new_page()
    page.goto(server.base_url + "/")
    expect(page.get_by_test_id("your-tables")).to_be_hidden()  # a new browser sits nowhere
    codes = [server.new_table(3) for _ in range(2)]
    for code in codes:
        join(page, server.base_url, code, "Anna", 0)
        for seat, name in ((1, "Bert"), (2, "Cleo")):
            body = {"name": name, "seat": seat}
            server.api("POST", f"/api/tables/{code}/seats", json=body).raise_for_status()
    page.goto(server.base_url + "/")
    rows = page.get_by_test_id("your-table")
    expect(rows).to_have_count(2)
    expect(rows.first).to_contain_text("Bert, Cleo")
    mine = page.evaluate("fetch('/api/me/tables').then((r) => r.json())")
    turns = mine["your_turn"]
    title = page.title()
    assert title.startswith(f"({turns}) ") if turns else not title.startswith("(")
    if turns:
        expect(rows.first).to_contain_text("du bist dran")
        icon = page.locator("link[rel=icon]").get_attribute("href")
        assert icon == f"/favicon/{turns}.svg"
        assert server.api("GET", icon).headers["content-type"].startswith("image/svg+xml")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.get_by_test_id("your-tables").scroll_into_view_if_needed()
    screenshots.take(page, f"your-tables-{size}.png")
    context.close()
