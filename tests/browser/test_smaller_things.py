"""Issue 38, point 10: the smaller things, each seen in the browser.

Each test looks at one item (or a few of one page) the way the issue saw it: a DOM, focus,
computed-style or axe check at a phone's 390 px and a laptop's 1280 × 680, in English and German.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

import engine
from app.history.i18n import Text
from app.history.review_page import Decision, sentence
from tests.browser.conftest import Screenshots, Server
from tests.browser.scripted import ScriptedTable, View
from tests.browser.test_a11y import axe_violations

pytestmark = pytest.mark.browser

PHONE = ViewportSize(width=390, height=844)
LAPTOP = ViewportSize(width=1280, height=680)


def _page(browser: Browser, size: ViewportSize, locale: str = "en-GB") -> Page:
    return browser.new_context(viewport=size, locale=locale, bypass_csp=True).new_page()


def _follow(page: Page, table: ScriptedTable) -> None:
    page.wait_for_function(
        "v => Number(document.body.dataset.version) >= v", arg=table.version, timeout=15_000
    )


def test_10_score_sheet_says_balance_and_passes_contrast(
    browser: Browser, server: Server, screenshots: Screenshots
) -> None:
    """The English sheet names its running line "Balance" (German keeps "Saldo"), and the page
    passes axe's colour-contrast at 1280 px, the game-over row included."""
    with ScriptedTable(server, 4, hands=1) as table:
        table.play_until(lambda view: False)
        code = table.code
    page = _page(browser, LAPTOP)
    page.goto(f"{server.base_url}/t/{code}/sheet")
    expect(page.get_by_test_id("winners")).to_be_visible()
    expect(page.get_by_test_id("saldo-1-bid")).to_have_text("Balance")
    # What axe decides; glyph-only marks (★ ☆), the chart's SVG text and the sticky hand column's
    # overlap are texts it cannot judge ("undecided", "scrolled").
    contrast = [
        v
        for v in axe_violations(page)
        if v["id"] == "color-contrast" and v["impact"] not in {"undecided", "scrolled"}
    ]
    assert contrast == [], contrast
    screenshots.take(page, "smaller-sheet-en.png", full_page=True)
    page.context.close()
    german = _page(browser, LAPTOP, "de-DE")
    german.goto(f"{server.base_url}/t/{code}/sheet")
    expect(german.get_by_test_id("saldo-1-bid")).to_have_text("Saldo")
    german.context.close()


def _seated_with_link(page: Page, table: ScriptedTable) -> None:
    """Seat 0's page as the browser that took the seat sees it: its personal link kept."""
    link = f"{table.server.base_url}/t/{table.code}#rejoin={table.tokens[0]}"
    page.add_init_script(f"localStorage.setItem('mu_rejoin_{table.code}', '{link}')")
    page.goto(table.rejoin_url(0))
    expect(page.get_by_test_id("board")).to_be_visible()
    expect(page.get_by_test_id("rejoin-button")).to_be_visible()


_HEADER_ROWS = """() => {
    // The header's lines: the distinct tops of its visible controls (a line is 8 px tolerant).
    const tops = [...document.querySelectorAll("header.site a, header.site button")]
        .filter(el => el.offsetParent !== null)
        .map(el => el.getBoundingClientRect().top)
        .sort((a, b) => a - b);
    return tops.filter((top, i) => i === 0 || top - tops[i - 1] > 8).length;
}"""


@pytest.mark.parametrize(("locale", "sound", "link"), [
    ("de-DE", "Ton an", "Dein Platz-Link"),
    ("en-GB", "Sound on", "Your seat's link"),
])  # fmt: skip
def test_10_header_says_what_its_buttons_do_and_fits(
    browser: Browser, server: Server, screenshots: Screenshots, locale: str, sound: str, link: str
) -> None:
    """The sound switch and the personal link say what they are ("♪ on", "My link" did not), and
    the header is one line on a laptop and two at most on a phone, in German too."""
    with ScriptedTable(server, 4, hands=1) as table:
        for size, rows in ((LAPTOP, 1), (PHONE, 2)):
            page = _page(browser, size, locale)
            _seated_with_link(page, table)
            expect(page.get_by_test_id("sound-button")).to_contain_text(sound)
            expect(page.get_by_test_id("sound-button")).to_have_attribute("aria-pressed", "true")
            # A switch's name stays put; whether it is on is its pressed state.
            expect(page.get_by_test_id("sound-button")).to_have_accessible_name(
                "Ton" if locale == "de-DE" else "Sound"
            )
            expect(page.get_by_test_id("rejoin-button")).to_have_text(link)
            assert page.evaluate(_HEADER_ROWS) <= rows, (locale, size)
            screenshots.take(page, f"smaller-header-{locale}-{size['width']}.png")
            page.context.close()


def test_10_bidding_marks_chosen_cards_and_says_click_on_a_laptop(
    browser: Browser, server: Server, screenshots: Screenshots
) -> None:
    """A chosen card is lifted in an ink ring with a check badge (a red ring vanished on red cards);
    the prompt says "Click" with a mouse and "Tap" on a touch screen; the page's secondary buttons
    look like buttons, apart from the primary one."""
    with ScriptedTable(server, 4, hands=1) as table:
        table.play_until(lambda view: view["to_move"] == 0)
        assert table.view["prompt"]["type"] == "bid"
        page = _page(browser, LAPTOP)
        page.goto(table.rejoin_url(0))
        _follow(page, table)
        expect(page.locator("#prompt")).to_contain_text("Click cards in your hand")
        card = page.locator('[data-testid="hand"] button.card').first
        card.click()
        expect(card).to_have_class(re.compile(r"\bselected\b"))
        marker = card.evaluate(
            """el => ({shadow: getComputedStyle(el).boxShadow,
                       badge: getComputedStyle(el, "::before").content})"""
        )
        assert "rgb(29, 35, 39)" in marker["shadow"], marker  # the ink, not the red accent
        assert marker["badge"] == '"✓"', marker
        looks = page.evaluate(
            """() => {
                const style = (el) => getComputedStyle(el);
                const chat = style(document.querySelector("#btn-chat"));
                const primary = style(document.querySelector("#prompt button.primary"));
                return {border: chat.borderTopColor, background: chat.backgroundColor,
                        primary: primary.backgroundColor};
            }"""
        )
        assert looks["border"] not in {"rgba(0, 0, 0, 0)", looks["background"]}, looks
        assert looks["background"] not in {"rgba(0, 0, 0, 0)", looks["primary"]}, looks
        screenshots.take(page, "smaller-bid-selected-1280.png")
        page.context.close()
        phone = browser.new_context(
            viewport=PHONE, locale="de-DE", is_mobile=True, has_touch=True
        ).new_page()
        phone.goto(table.rejoin_url(0))
        _follow(phone, table)
        expect(phone.locator("#prompt")).to_contain_text("Tippe Karten")
        phone.locator('[data-testid="hand"] button.card').first.tap()
        expect(phone.locator('[data-testid="hand"] button.card.selected')).to_have_count(1)
        screenshots.take(phone, "smaller-bid-selected-390.png")
        phone.context.close()


def test_10_a_hint_marks_its_card_in_the_hand(
    browser: Browser, server: Server, screenshots: Screenshots
) -> None:
    """The hint names a card and the hand marks it (class and frame); the mark goes with the
    move."""
    with ScriptedTable(server, 3, hands=1, hints=True) as table:
        table.play_until(lambda view: view["to_move"] == 0 and view["prompt"]["type"] == "play")
        page = _page(browser, PHONE)
        page.goto(table.rejoin_url(0))
        _follow(page, table)
        page.get_by_test_id("hint-button").click()
        expect(page.get_by_test_id("hint-text")).to_contain_text("Hint: play")
        hinted = page.locator("#me button.card.hinted")
        expect(hinted).to_have_count(1)
        assert hinted.evaluate("el => getComputedStyle(el).outlineStyle") == "dashed"
        screenshots.take(page, "smaller-hint-390.png")
        table.step()
        _follow(page, table)
        expect(page.locator("#me button.card.hinted")).to_have_count(0)
        page.context.close()


_SHARE_STUB = """navigator.share = (data) => {
    window.sharedInvite = data;
    return Promise.resolve();
};"""


@pytest.mark.parametrize(("locale", "invite"), [
    ("en-GB", "Join Anna's table at Mü Online"),
    ("de-DE", "Komm an den Tisch von Anna bei Mü Online"),
])  # fmt: skip
def test_10_host_lobby_lists_free_seats_once_shares_and_keeps_focus(
    browser: Browser, server: Server, screenshots: Screenshots, locale: str, invite: str
) -> None:
    """The seated host sees each free seat once (with its bot controls); "Add bot" by keyboard
    leaves the focus on the next "Add bot", not on the page's body; the invite offers the share
    sheet where there is one, with a text that names the host."""
    page = _page(browser, PHONE, locale)
    page.add_init_script(_SHARE_STUB)
    page.goto(server.base_url + "/")
    page.get_by_test_id("create-table").click()
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    page.get_by_test_id("name-input").fill("Anna")
    page.get_by_test_id("seat-choice-0").check(force=True)
    page.get_by_test_id("take-seat").click()
    expect(page.get_by_test_id("join-form")).to_be_hidden()
    expect(page.locator("#seat-list li")).to_have_count(1)  # Anna; the free seats are below
    free = page.locator("#bot-seats li")
    expect(free.first).to_be_visible()
    seats = free.count()
    assert seats >= 2
    screenshots.take(page, f"smaller-host-lobby-{locale}-390.png", full_page=True)

    page.get_by_test_id("add-bot-1").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("bot-seat-1")).to_have_count(0)
    expect(page.locator("#seat-list li")).to_have_count(2)
    focused = page.evaluate(
        "document.activeElement.dataset.testid ?? document.activeElement.tagName"
    )
    assert focused == "add-bot-2", focused

    page.get_by_test_id("share-invite").click()
    page.wait_for_function("() => window.sharedInvite !== undefined")
    shared = page.evaluate("window.sharedInvite")
    assert shared["text"] == invite
    assert shared["url"] == page.url.split("#")[0]
    page.context.close()


@pytest.mark.parametrize(("lang", "others", "yours"), [
    ("en", "Trick 4: passing cost Ben ~6 points", "Trick 4: passing cost you ~6 points"),
    ("de", "hat Ben ~6 Punkte gekostet", "hat dich ~6 Punkte gekostet"),
])  # fmt: skip
def test_10_the_review_names_whom_a_move_cost(lang: str, others: str, yours: str) -> None:
    """Another player's costly moment names them ("cost Ben ~6 points"); "you" is the reader's
    own seat only."""
    pass_ = {"type": "pass"}
    decision = Decision(
        5, 1, "play", 4, "Trick 4", pass_, pass_, "", "", -2.0, 4.0, 6.0, [], 64
    )  # fmt: skip
    t = Text(lang)
    names = ["Anna", "Ben", "Cleo"]
    action = engine.action_from_json(pass_)
    assert others in sentence(decision, action, action, names, False, t)
    assert yours in sentence(decision, action, action, names, False, t, yours=True)


_SELECTS_FIT = """() => [...document.querySelectorAll("main select")]
    .filter((select) => select.offsetParent !== null)
    .map((select) => {
        // Each option's text in the select's font: the widest must fit beside the arrow.
        const probe = document.createElement("span");
        probe.style.cssText = "position:absolute;white-space:pre;visibility:hidden";
        probe.style.font = getComputedStyle(select).font;
        document.body.append(probe);
        const widest = Math.max(...[...select.options].map((option) => {
            probe.textContent = option.text;
            return probe.getBoundingClientRect().width;
        }));
        probe.remove();
        const style = getComputedStyle(select);
        const room = select.clientWidth - parseFloat(style.paddingLeft) - 24;  // 24: the arrow
        return {name: select.name, widest: Math.round(widest), room: Math.round(room)};
    })"""


@pytest.mark.parametrize("locale", ["de-DE", "en-GB"])
def test_10_home_form_selects_are_not_cut_off_on_a_phone(
    browser: Browser, server: Server, screenshots: Screenshots, locale: str
) -> None:
    """Every choice of the home form's selects is readable in full at 390 px, in German too."""
    page = _page(browser, PHONE, locale)
    page.goto(server.base_url + "/")
    selects = page.evaluate(_SELECTS_FIT)
    assert selects and all(s["widest"] <= s["room"] for s in selects), selects
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshots.take(page, f"smaller-home-{locale}-390.png", full_page=True)
    page.context.close()


def test_10_group_page_shows_the_tables_link_on_a_phone(
    browser: Browser, server: Server, screenshots: Screenshots
) -> None:
    """The group's list of tables keeps each table's link on screen at 390 px (it was the last
    column, off to the right)."""
    page = _page(browser, PHONE, "de-DE")
    page.goto(server.base_url + "/")
    page.get_by_test_id("new-group").get_by_test_id("group-name-input").fill("Dienstagsrunde")
    page.get_by_test_id("create-group").click()
    page.wait_for_url(re.compile(r"/g/[\w-]{32,}$"))
    group_url = page.url
    page.get_by_test_id("claim-name").fill("Anna mit einem langen Namen")
    page.get_by_test_id("claim-submit").click()
    page.get_by_test_id("g-open-table").click()
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    code = page.url.rsplit("/", 1)[1]
    page.goto(group_url)
    link = page.locator(f'[data-testid="group-tables"] a[href="/t/{code}"]')
    expect(link).to_be_visible()
    box = link.bounding_box()
    assert box is not None and box["x"] + box["width"] <= PHONE["width"], box
    link.scroll_into_view_if_needed()
    screenshots.take(page, "smaller-group-390.png")
    page.context.close()


_PROBLEM_LOOK = """() => {
    const panel = document.querySelector("section.problem:not([hidden])");
    if (!panel) return null;
    const style = getComputedStyle(panel);
    const heading = getComputedStyle(panel.querySelector("h1"));
    return {background: style.backgroundColor,
            border: style.borderTopWidth + " " + style.borderTopColor,
            width: style.maxWidth, radius: style.borderRadius, heading: heading.fontSize,
            home: Boolean(panel.querySelector(".problem-actions a"))};
}"""


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_10_error_pages_share_one_look(browser: Browser, server: Server, locale: str) -> None:
    """Table not found (the table page and the history pages), an unknown group, offline and
    the server's own problem page: one panel, one heading, a way on: the same computed look."""
    page = _page(browser, PHONE, locale)
    looks = {}
    for name, path in {
        "offline": "/offline",
        "unknown group": "/g/" + "x" * 32,
        "unknown hand": "/t/nosuchtable123/hands/1",
        "table not found": "/t/nosuchtable123",
        "no such page": "/no/such/page",  # the 404, 500 and 503 page (tests/app/test_http.py)
    }.items():
        page.goto(server.base_url + path)
        expect(page.locator("section.problem:not([hidden])")).to_be_visible()
        looks[name] = page.evaluate(_PROBLEM_LOOK)
    assert all(look == looks["offline"] for look in looks.values()), looks
    assert looks["offline"]["home"]
    page.context.close()


_IN_VIEW = """(selector) => {
    const text = document.querySelector("#coach-text").getBoundingClientRect();
    const target = document.querySelector(".lesson-target")?.getBoundingClientRect();
    return {text: text.top >= 0 && text.bottom <= innerHeight,
            target: !target || (target.bottom > 0 && target.top < innerHeight)};
}"""


@pytest.mark.parametrize(("size", "locale", "bonus"), [
    (LAPTOP, "en-GB", "Bonus"),
    (PHONE, "de-DE", "Bonus"),
])  # fmt: skip
def test_10_lesson_keeps_its_words_in_view_and_ends_complete(
    browser: Browser,
    server: Server,
    screenshots: Screenshots,
    size: ViewportSize,
    locale: str,
    bonus: str,
) -> None:
    """Every step of the first lesson shows its explanation and what it points at together; a
    step that only explains has one call to action (the table's controls rest); the closing sheet
    shows the bonus its text states (50 for chief and partner), and the lesson says it is
    complete."""
    page = _page(browser, size, locale)
    page.goto(server.base_url + "/learn/classic")
    page.wait_for_function("() => document.body.dataset.stepIndex === '0'")
    # The first step: Next is the one call to action.
    assert page.evaluate("document.querySelector('#prompt').inert")
    expect(page.locator("#prompt button:visible")).to_have_count(0)
    seen: list[int] = []
    for _ in range(80):
        page.wait_for_function("() => document.body.dataset.stepIndex !== undefined")
        index = int(page.evaluate("document.body.dataset.stepIndex"))
        if not seen or seen[-1] != index:
            seen.append(index)
            view = page.evaluate(_IN_VIEW)
            assert view == {"text": True, "target": True}, (index, view)
        if page.get_by_test_id("lesson-end").is_visible():
            break
        moves = page.locator(".lesson-move")
        if moves.count():
            assert not page.evaluate("document.querySelector('#prompt').inert")
            before = moves.first.evaluate("el => el.dataset.cardId ?? el.dataset.testid")
            moves.first.click()
            page.wait_for_function(
                """([index, before]) => Number(document.body.dataset.stepIndex) !== index ||
                    (document.querySelector('.lesson-move')?.dataset.cardId ??
                     document.querySelector('.lesson-move')?.dataset.testid) !== before""",
                arg=[index, before],
            )
        else:
            page.get_by_test_id("lesson-next").click()
            page.wait_for_function(
                "(i) => Number(document.body.dataset.stepIndex) !== i", arg=index
            )
    expect(page.get_by_test_id("lesson-complete")).to_be_visible()
    row = page.get_by_test_id("breakdown-bonus")
    expect(row).to_contain_text(bonus)
    expect(row.locator("td").first).to_have_text("50")
    expect(page.get_by_test_id("breakdown-score").locator("td").first).to_have_text("72")
    screenshots.take(page, f"smaller-lesson-end-{locale}-{size['width']}.png", full_page=True)
    page.context.close()


def _play_last_card_by_keyboard(page: Page, table: ScriptedTable) -> None:
    """The page takes the seat that leads the first hand's last trick and plays its last card
    with Enter while the others still have to finish the trick; the script's views follow.

    The leader of the last trick, not a fixed seat: the deal is the server's own, and which
    seat plays last in a trick is chance, so a fixed seat could play last in every hand."""

    def leads_last_trick(view: View) -> bool:
        mover = view["to_move"]
        if mover is None:
            return False
        own = table.views[mover]
        return (
            own["prompt"]["type"] == "play"
            and len(own["hand"]) + len(own["displays"][mover]) == 1
            and not own["trick"]
        )

    table.play_until(leads_last_trick, limit=1000)
    assert not table.view["game_over"]
    assert table.view["hand_number"] == 1
    page.goto(table.rejoin_url(int(table.view["to_move"])))
    _follow(page, table)
    card = page.locator('#me button.card[data-legal="true"]')
    expect(card).to_have_count(1)
    card.focus()
    page.keyboard.press("Enter")
    version = table.version
    page.wait_for_function(
        "v => Number(document.body.dataset.version) > v", arg=version, timeout=15_000
    )
    table.views = [table._view_at(ws, version + 1) for ws in table.sockets]


def test_10_after_your_last_card_the_focus_stays_in_your_hand(
    browser: Browser, server: Server
) -> None:
    """After your last card of the hand the focus is on your (now empty) hand, not on the page's
    body."""
    with ScriptedTable(server, 3, hands=5) as table:
        page = _page(browser, LAPTOP)
        _play_last_card_by_keyboard(page, table)
        expect(page.locator("#me button.card")).to_have_count(0)
        focused = page.evaluate(
            "document.activeElement.dataset.testid ?? document.activeElement.tagName"
        )
        assert focused == "hand", focused
        page.context.close()


def test_10_closing_the_summary_focuses_the_new_hand(browser: Browser, server: Server) -> None:
    """After your last card the others finish the hand; the end-of-hand summary closed by
    keyboard: the focus lands on the new hand's first control, never on the page's body."""
    with ScriptedTable(server, 3, hands=5) as table:
        page = _page(browser, LAPTOP)
        _play_last_card_by_keyboard(page, table)
        number = table.view["hand_number"]
        table.play_until(lambda view: view["hand_number"] > number)
        summary = page.get_by_test_id("summary")
        expect(summary).to_be_visible(timeout=15_000)
        page.get_by_test_id("summary-close").focus()
        page.keyboard.press("Enter")
        expect(summary).to_be_hidden()
        page.wait_for_function(
            "() => document.activeElement && document.activeElement !== document.body",
            timeout=5_000,
        )
        inside = page.evaluate("document.activeElement.closest('#me, #prompt') !== null")
        assert inside, page.evaluate("document.activeElement.outerHTML.slice(0, 120)")
        page.context.close()
