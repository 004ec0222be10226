"""Pause by consent, holidays and the drop-out vote in the browser (issue 40): three people
agree and the table pauses (the status line, the prompt and the hand say so, the focus goes to
"Resume" and back, the live log and the screen reader tell each step; anyone resumes), one says
no and it plays on; a player alone with bots pauses in German; a correspondence holiday set by
one person is shown to the others (that it stops the reminders is the app test's:
tests/app/test_pause.py); at a table that asks, the people present vote on a friend who
dropped out and the decision is shown and applied."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Browser, Page, expect
from starlette.testclient import TestClient

from app.config import Settings
from app.main import create_app
from tests.app.test_pace import _scan
from tests.app.test_push import Browser as PushKeys
from tests.app.test_push import Receiver, receiver  # noqa: F401  (a fixture)
from tests.browser.conftest import PHONE, Screenshots, Server
from tests.browser.driver import MY_TURN, join, whose_turn

pytestmark = pytest.mark.browser
LAPTOP = {"width": 1280, "height": 680}
NAMES = ("Anna", "Ben", "Cleo")
EVERYONE = re.compile(r"Anna, Ben,? and Cleo")


def three_people(
    browser: Browser, server: Server, viewport: dict[str, int], **options: object
) -> list[Page]:
    created = server.api(
        "POST", "/api/tables", json={"players": 3, "takeover_seconds": None, **options}
    ).json()
    pages = []
    for seat, name in enumerate(NAMES):
        page = browser.new_context(viewport=viewport, locale="en-GB").new_page()
        join(page, server.base_url, created["invite_code"], name, seat)
        pages.append(page)
    for page in pages:
        expect(page.get_by_test_id("board")).to_be_visible()
    return pages


def shoot(page: Page, screenshots: Screenshots, name: str) -> None:
    screenshots.take(page, name)


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_three_people_agree_and_the_table_pauses(
    browser: Browser, server: Server, screenshots: Screenshots, viewport: dict[str, int]
) -> None:
    anna, ben, cleo = three_people(browser, server, viewport)
    anna.get_by_test_id("pause-button").click()
    request = ben.get_by_test_id("pause-request")
    expect(request).to_contain_text("Anna asks to pause.")
    expect(request).to_contain_text("Waiting for Ben and Cleo")
    shoot(ben, screenshots, f"pause-asked-{viewport['width']}.png")
    ben.get_by_test_id("pause-agree").click()  # by mouse
    expect(cleo.get_by_test_id("pause-request")).to_contain_text("Agreed: Anna and Ben.")
    cleo.get_by_test_id("pause-agree").focus()  # by keyboard
    cleo.keyboard.press("Enter")
    for page in (anna, ben, cleo):
        paused = page.get_by_test_id("pause-paused")
        expect(paused).to_contain_text(re.compile(r"Agreed by Anna, Ben,? and Cleo\."))
        expect(page.get_by_test_id("pause-button")).to_be_hidden()
        # Where players look: the felt's status line (the moves' refusal while paused is
        # tests/app/test_pause.py's).
        expect(page.get_by_test_id("status")).to_have_text(re.compile(r"Paused — agreed by "))
        expect(page.get_by_test_id("status")).to_contain_text(EVERYONE)
    # The keyboard answered: the focus is on "Resume" now.
    expect(cleo.get_by_test_id("pause-resume")).to_be_focused()
    # The one to move sees the prompt wait and no card to play.
    mover = whose_turn([anna, ben, cleo])
    expect(mover.get_by_test_id("prompt-paused")).to_have_text(
        "Paused: your turn waits until someone resumes."
    )
    expect(mover.locator('#me button.card[data-legal="true"]')).to_have_count(0)
    expect(anna.get_by_test_id("board")).to_have_class(re.compile(r"\bis-paused\b"))
    shoot(cleo, screenshots, f"pause-paused-{viewport['width']}.png")
    shoot(mover, screenshots, f"pause-paused-mover-{viewport['width']}.png")
    ben.get_by_test_id("pause-resume").click()
    for page in (anna, ben, cleo):
        expect(page.get_by_test_id("pause-paused")).to_have_count(0)
        expect(page.get_by_test_id("pause-button")).to_be_visible()
        expect(page.get_by_test_id("status")).not_to_contain_text("Paused")
        expect(page.get_by_test_id("announcer")).to_contain_text("Ben resumed the game.")
    # Back to the cards (the mover's prompt offers its controls again).
    expect(ben.locator("#me button.card:focus, #prompt button:focus")).to_have_count(1)
    expect(mover.get_by_test_id("prompt-paused")).to_have_count(0)
    # Every step is in everyone's live log (docked beside the board on the laptop).
    log = anna.locator("#log-lines")
    for text in (
        "Anna asks to pause.",
        "Ben agreed to pause.",
        "Ben resumed the game.",
    ):
        expect(log).to_contain_text(text)
    expect(log).to_contain_text(
        re.compile(r"The table is paused \(agreed: Anna, Ben,? and Cleo\)\.")
    )
    if viewport is LAPTOP:
        expect(log).to_be_visible()


def test_one_says_no_and_the_table_plays_on(browser: Browser, server: Server) -> None:
    anna, ben, cleo = three_people(browser, server, PHONE)
    cleo.get_by_test_id("pause-button").click()
    expect(anna.get_by_test_id("pause-request")).to_contain_text("Cleo asks to pause.")
    anna.get_by_test_id("pause-agree").click()
    expect(ben.get_by_test_id("pause-request")).to_contain_text("Agreed: Anna and Cleo.")
    ben.get_by_test_id("pause-refuse").click()
    for page in (anna, ben, cleo):
        expect(page.get_by_test_id("pause-request")).to_have_count(0)
        expect(page.get_by_test_id("pause-paused")).to_have_count(0)
        expect(page.get_by_test_id("pause-button")).to_be_visible()
    expect(cleo.locator("#toast")).to_have_text("Ben wants to play on: no pause.")
    for page in (anna, cleo):
        expect(page.locator("#log-lines")).to_contain_text("Ben wants to play on: no pause.")
        expect(page.get_by_test_id("announcer")).to_contain_text("Cleo asks to pause.")


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_alone_with_bots_in_german_by_keyboard(
    browser: Browser, server: Server, screenshots: Screenshots, viewport: dict[str, int]
) -> None:
    created = server.api("POST", "/api/tables", json={"players": 3}).json()
    code = created["invite_code"]
    bearer = {"Authorization": f"Bearer {created['host_token']}"}
    for seat in (1, 2):
        server.api(
            "POST", f"/api/tables/{code}/bots", json={"seat": seat}, headers=bearer
        ).raise_for_status()
    anna = browser.new_context(viewport=viewport, locale="de-DE").new_page()
    join(anna, server.base_url, code, "Anna", 0)
    # A function, not the bare expression: the page's CSP refuses to evaluate a string, and
    # wait_for_function would, if it is not Anna's turn at the first look.
    anna.wait_for_function(f"() => {MY_TURN}")
    anna.get_by_test_id("pause-button").focus()
    anna.keyboard.press("Enter")  # alone with bots: paused at once
    expect(anna.get_by_test_id("pause-paused")).to_contain_text("Pause")
    expect(anna.get_by_test_id("status")).to_have_text("Pause – einverstanden: Anna")
    expect(anna.get_by_test_id("prompt-paused")).to_have_text(
        "Pause: Du bist dran, sobald jemand fortsetzt."
    )
    expect(anna.locator('#me button.card[data-legal="true"]')).to_have_count(0)
    expect(anna.get_by_test_id("pause-resume")).to_be_focused()
    expect(anna.locator("#log-lines")).to_contain_text("Der Tisch pausiert (einverstanden: Anna).")
    expect(anna.get_by_test_id("announcer")).to_contain_text(
        "Der Tisch pausiert (einverstanden: Anna)."
    )
    shoot(anna, screenshots, f"pause-paused-de-{viewport['width']}.png")
    anna.keyboard.press("Enter")  # "Fortsetzen"
    expect(anna.get_by_test_id("pause-paused")).to_have_count(0)
    expect(anna.get_by_test_id("announcer")).to_contain_text("Anna hat das Spiel fortgesetzt.")
    # Her turn again: the focus is back on her cards, which play again.
    expect(anna.locator("#me button.card:focus, #prompt button:focus")).to_have_count(1)
    expect(anna.locator('#me button.card[data-legal="true"]').first).to_be_visible()


def test_a_holiday_stops_the_reminders_until_it_ends(
    browser: Browser,
    server: Server,
    receiver: Receiver,  # noqa: F811  (the fixture imported above)
) -> None:
    """The one to move at a correspondence table goes on holiday from the page: while it lasts
    their turn's reminder is not sent (the job waits for its end), and after it, once."""
    began = datetime.now(UTC)
    pages = three_people(browser, server, PHONE, pace="correspondence", move_hours=24)
    away = whose_turn(pages)
    seat = pages.index(away)
    code = away.url.rsplit("/", 1)[1]
    # Their browser asks to be told (as the page's "Notify me" does), with its own seat cookie.
    subscription = {**PushKeys().subscription(receiver.url(f"/s/{seat}")), "lang": "en"}
    status = away.evaluate(
        """async ([code, body]) => (await fetch(`/api/tables/${code}/push`, {
            method: "POST", headers: {"Content-Type": "application/json"},
            body: JSON.stringify(body)})).status""",
        [code, subscription],
    )
    assert status == 204
    day = away.evaluate("new Date(Date.now() + 5 * 86400000).toISOString().slice(0, 10)")
    away.get_by_test_id("holiday-details").locator("summary").click()
    away.get_by_test_id("holiday-until").fill(day)
    away.get_by_test_id("holiday-set").click()
    expect(away.get_by_test_id("holiday")).to_contain_text("You are away until")
    back = datetime.fromtimestamp(away.evaluate(f"new Date('{day}T00:00').getTime() / 1000"), UTC)
    away.context.close()  # gone: a reminder would be for them now

    # The reminder job, run as the server's job loop runs it, on the server's database at
    # later moments (its clock moved on instead of waiting days).
    settings = Settings(database_url=server.env["DATABASE_URL"], review_workers=0)
    with TestClient(create_app(settings)) as client:
        assert _scan(client, began + timedelta(hours=22, minutes=5)) == 0  # due, but away
        assert _scan(client, back - timedelta(minutes=1)) == 0
        assert _scan(client, back + timedelta(minutes=1)) == 1  # back, still their turn
        assert _scan(client, back + timedelta(hours=1)) == 0  # once
    assert [path for path, _body, _headers in receiver.wait_for(1)] == [f"/s/{seat}"]


def test_a_correspondence_holiday_is_shown_to_the_others(
    browser: Browser, server: Server, screenshots: Screenshots
) -> None:
    anna, ben, _cleo = three_people(browser, server, PHONE, pace="correspondence")
    day = anna.evaluate("new Date(Date.now() + 5 * 86400000).toISOString().slice(0, 10)")
    anna.get_by_test_id("holiday-details").locator("summary").click()
    anna.get_by_test_id("holiday-until").fill(day)
    anna.get_by_test_id("holiday-set").click()
    expect(anna.get_by_test_id("holiday")).to_contain_text("You are away until")
    seen = ben.get_by_test_id("holiday")
    expect(seen).to_contain_text(re.compile(r"Anna is away until \w+"))
    shoot(ben, screenshots, "holiday-others-390.png")
    anna.get_by_test_id("holiday-end").click()
    expect(seen).to_have_count(0)


@pytest.mark.parametrize(
    ("choice", "viewport"),
    [("bot", PHONE), ("bot", LAPTOP), ("wait", PHONE)],
    ids=["bot-phone", "bot-laptop", "wait-phone"],
)
def test_the_table_votes_on_a_friend_who_dropped_out(
    browser: Browser,
    server: Server,
    screenshots: Screenshots,
    choice: str,
    viewport: dict[str, int],
) -> None:
    pages = three_people(browser, server, viewport, on_dropout="ask")
    gone = whose_turn(pages)  # the one the table now waits for
    seat = pages.index(gone)
    name = NAMES[seat]
    first, second = [page for page in pages if page is not gone]
    gone.context.close()  # the connection goes away
    for page in (first, second):
        question = page.get_by_test_id("dropout")
        expect(question).to_contain_text(f"{name} dropped out. A bot now, or wait for them?")
        # The felt's line says why nobody moves, not that the one gone is about to.
        expect(page.get_by_test_id("status")).to_have_text(
            f"{name} dropped out: the table decides how to go on…"
        )
    shoot(first, screenshots, f"dropout-vote-{viewport['width']}.png")
    seen = int(first.evaluate("document.body.dataset.version"))
    if choice == "bot":
        first.get_by_test_id("dropout-bot").click()
        expect(second.get_by_test_id("dropout")).to_contain_text(
            f"Bot now: {NAMES[pages.index(first)]}. Wait: –."
        )
        second.get_by_test_id("dropout-bot").focus()
        second.keyboard.press("Enter")
        decided = f"A bot plays for {name} until they are back."
    else:  # one of two to wait: a tie waits
        first.get_by_test_id("dropout-wait").click()
        decided = f"The table waits for {name}: they continue where they left."
    for page in (first, second):
        expect(page.get_by_test_id("dropout")).to_contain_text(decided)
        expect(page.get_by_test_id("dropout-bot")).to_have_count(0)
        expect(page.locator("#log-lines")).to_contain_text(decided)
        expect(page.get_by_test_id("announcer")).to_contain_text(decided)
    shoot(second, screenshots, f"dropout-decided-{choice}-{viewport['width']}.png")
    if choice == "bot":  # a bot moves for the away person
        expect(first.get_by_test_id(f"bot-playing-{seat}")).to_be_visible()
        first.wait_for_function(
            "seen => Number(document.body.dataset.version) > seen + 1", arg=seen, timeout=15_000
        )
    else:  # the table waits: nobody plays for them, their turn stays
        expect(first.get_by_test_id(f"bot-playing-{seat}")).to_have_count(0)
        expect(first.get_by_test_id("status")).to_have_text(f"Waiting for {name} to come back…")
