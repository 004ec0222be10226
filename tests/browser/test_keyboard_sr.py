"""Playing without a mouse and without seeing the screen (issue 29).

One browser holds seat 0 of a four-player table, bots the other seats. One test plays the whole
hand with the keyboard only (no click), the other in screen-reader mode through the command line
only. Both record what the live regions say (a MutationObserver installed before the page's
scripts) and check a sentence for every kind of event; both run axe-core. The announcements of the
hand are saved to artifacts/announcements-{en,de}.txt.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import REPO, Screenshots, Server
from tests.browser.driver import MY_TURN, version, wait_past
from tests.browser.scripted import ScriptedTable
from tests.browser.test_a11y import SIZES, assert_accessible

pytestmark = pytest.mark.browser

HAND_TIMEOUT_S = 90
ARTIFACTS = REPO / "artifacts"

# Every sentence the live regions say, in order, with whether it was the assertive one.
LISTEN = """
window.__heard = [];
new MutationObserver((records) => {
  for (const record of records) for (const node of record.addedNodes) {
    const region = node.parentElement;
    if (node.nodeType === 1 && region && /^announcer/.test(region.id)) {
      window.__heard.push({urgent: region.id === "announcer-turn", text: node.textContent});
    }
  }
}).observe(document, {childList: true, subtree: true});
"""


def _open(browser: Browser, server: Server, locale: str, query: str = "") -> tuple[Page, str]:
    """A four-player, one-hand table: Anna in seat 0 on the page, then bots in the other seats
    (so the page hears the deal)."""
    created = server.api("POST", "/api/tables", json={"players": 4, "hands": 1}).json()
    code = created["invite_code"]
    seat = server.api("POST", f"/api/tables/{code}/seats", json={"name": "Anna", "seat": 0})
    context = browser.new_context(viewport=SIZES["phone"], locale=locale, bypass_csp=True)
    context.add_init_script(LISTEN)
    page = context.new_page()
    page.goto(f"{server.base_url}/t/{code}{query}#rejoin={seat.json()['token']}")
    expect(page.locator("#waiting")).to_be_visible()
    bearer = {"Authorization": f"Bearer {created['host_token']}"}
    for other in (1, 2, 3):
        answer = server.api(
            "POST", f"/api/tables/{code}/bots", json={"seat": other}, headers=bearer
        )
        assert answer.status_code == 201, answer.text
    expect(page.get_by_test_id("board")).to_be_visible()
    return page, code


def _heard(page: Page) -> list[dict[str, object]]:
    return list(page.evaluate("window.__heard"))


SUMMARY_OPEN = "document.getElementById('summary').open"


def _my_turn(page: Page) -> bool:
    return bool(page.evaluate("document.body.classList.contains('my-turn')"))


def _until_my_turn_or_over(page: Page) -> bool:
    """Waits (in the page) for a decision of ours; False once the game is over."""
    page.wait_for_function(
        f"() => {SUMMARY_OPEN} || ({MY_TURN} && !document.querySelector('dialog[open]'))",
        timeout=HAND_TIMEOUT_S * 1000,
    )
    return not page.evaluate(SUMMARY_OPEN)


def _save(lang: str, heard: list[dict[str, object]]) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    lines = [("! " if item["urgent"] else "  ") + str(item["text"]) for item in heard]
    (ARTIFACTS / f"announcements-{lang}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _assert_said(heard: list[dict[str, object]], patterns: dict[str, str]) -> None:
    texts = [str(item["text"]) for item in heard]
    for kind, pattern in patterns.items():
        assert any(re.search(pattern, text) for text in texts), f"no {kind} sentence in {texts}"
    # Deduplicated: no sentence of the story twice in a row.
    polite = [str(item["text"]) for item in heard if not item["urgent"]]
    assert all(a != b for a, b in zip(polite, polite[1:], strict=False)), polite


ENGLISH = {
    "deal": r"^Hand 1: the cards are dealt\.$",
    "bid": r"^\w+ places \d+ cards?: (red|yellow|green|blue|purple) \d",
    "pass": r"^\w+ passes$",
    "roles": r"^\w+ is Chief with \d+ cards?, (\w+ is Vice|nobody is Vice)$",
    "trump": r"^(Vice|Chief)'s trump: ",
    "partner": r"^\w+ chooses \w+ as partner$",
    "play": r"^\w+ plays (red|yellow|green|blue|purple) \d$",
    "trick": r"^\w+ wins the trick, \d+ points?$",
    "result": r"^The hand is over\. .*Points this hand: Anna -?\d+",
    "game over": r"^Game over\. Winners?: ",
}
GERMAN = {
    "deal": r"^Spiel 1: Die Karten sind gegeben\.$",
    "bid": r"^\w+ legt \d+ Karten?: (Rot|Gelb|Grün|Blau|Lila) \d",
    "pass": r"^\w+ passt$",
    "roles": r"^\w+ ist Chef mit \d+ Karten?, (\w+ ist Vize|niemand ist Vize)$",
    "trump": r"^(Vize|Chef)-Trumpf: ",
    "partner": r"^\w+ wählt \w+ als Partner$",
    "play": r"^\w+ spielt (Rot|Gelb|Grün|Blau|Lila) \d$",
    "trick": r"^\w+ gewinnt den Stich, \d+ Punkte?$",
    "result": r"^Das Spiel ist vorbei\. .*Punkte in diesem Spiel: Anna -?\d+",
    "game over": r"^Partie vorbei\. Gewonnen ha(t|ben): ",
}


def test_a_whole_hand_with_the_keyboard_only(
    browser: Browser, server: Server, screenshots: Screenshots
) -> None:
    page, _code = _open(browser, server, "en-GB")
    bid = False
    checked_axe = False
    while _until_my_turn_or_over(page):
        kind = page.get_by_test_id("prompt").get_attribute("data-prompt-type") or "play"
        # The focus went to where the decision is: a card, or the prompt's first choice.
        page.wait_for_function(
            "() => document.activeElement?.matches('#me button.card, #prompt button')"
        )
        seen = version(page)
        if kind == "bid":
            if not bid and page.locator("#me .hand button.card").count():
                page.keyboard.press("Home")
                page.keyboard.press("ArrowRight")
                page.keyboard.press("Space")  # select the card under the focus
                expect(page.locator("#me .hand button.card.selected")).to_have_count(1)
                page.keyboard.press("b")  # place it
                bid = True
            else:
                page.keyboard.press("p")
        elif kind in ("trump", "partner"):
            page.keyboard.press("1")
        else:
            focused = page.evaluate("document.activeElement.getAttribute('aria-label')")
            assert re.search(r", \d+ points?, (trump, )?playable$", focused), focused
            if not checked_axe:
                screenshots.take(page, "keyboard-focus-390x844.png")
                _shortcuts_and_typing(page)
                assert_accessible(page, "keyboard play, your turn")
                checked_axe = True
            # Walk the hand with the arrows to the last usable card and play it with Enter.
            page.keyboard.press("End")
            for _ in range(20):
                if page.evaluate("document.activeElement.dataset.legal") == "true":
                    break
                page.keyboard.press("ArrowLeft")
            page.keyboard.press("Enter")
        wait_past(page, seen)
    heard = _heard(page)
    _save("en", heard)
    _assert_said(heard, ENGLISH)
    urgent = [str(item["text"]) for item in heard if item["urgent"]]
    assert any(t.startswith("Your turn: place cards or pass") for t in urgent), urgent
    assert any(t.startswith("Your turn: play a card") for t in urgent), urgent
    page.keyboard.press("Escape")
    assert checked_axe
    page.context.close()


def _shortcuts_and_typing(page: Page) -> None:
    """S, L, M and ? open their dialogs (Escape closes them); typing in the chat is no shortcut."""
    for key, testid in (("s", "sheet"), ("l", "look-back"), ("?", "help")):
        page.keyboard.press(key)
        expect(page.get_by_test_id(testid)).to_be_visible()
        if key == "?":
            expect(page.get_by_test_id("keys-help")).to_contain_text("Pass in the auction")
        page.keyboard.press("Escape")
        expect(page.get_by_test_id(testid)).to_be_hidden()
    page.keyboard.press("m")
    expect(page.get_by_test_id("chat")).to_be_visible()
    before = version(page)
    page.get_by_test_id("chat-input").focus()
    page.keyboard.type("plus")  # p, l, u, s: none of them may act while typing
    expect(page.get_by_test_id("sheet")).to_be_hidden()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("chat-lines")).to_contain_text("plus")
    assert version(page) == before
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("chat")).to_be_hidden()
    # The reactions are buttons too: focus one and press Enter; everyone hears it.
    page.locator("#reactions button").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => window.__heard.some((item) => item.text.startsWith('Anna reacts: '))"
    )
    page.keyboard.press("h")  # back to the hand
    page.wait_for_function("() => document.activeElement?.matches('#me button.card')")


LETTER = {"Rot": "r", "Gelb": "y", "Grün": "g", "Blau": "b", "Lila": "p"}


def _command(page: Page, text: str) -> str:
    """Types a command into the command line and returns what the panel answers."""
    line = page.get_by_test_id("sr-command")
    line.fill(text)
    line.press("Enter")
    return page.get_by_test_id("sr-output").inner_text()


def _my_cards(page: Page) -> list[tuple[str, bool]]:
    """Your cards as the `hand` command says them: ("g7", playable)."""
    answer = _command(page, "karten")
    listed = answer.split(":", 1)[1]
    cards = []
    for match in re.finditer(r"(Rot|Gelb|Grün|Blau|Lila) (\d)( \(spielbar\))?", listed):
        cards.append((LETTER[match.group(1)] + match.group(2), bool(match.group(3))))
    assert cards, answer
    return cards


def test_a_whole_hand_in_screen_reader_mode_through_commands(
    browser: Browser, server: Server
) -> None:
    page, _code = _open(browser, server, "de-DE", "?sr=1")
    expect(page.get_by_test_id("sr-panel")).to_be_visible()
    assert page.evaluate("localStorage.getItem('mu_sr')") == "1"
    bid = False
    errors_checked = False
    assert_accessible(page, "screen-reader mode")
    while _until_my_turn_or_over(page):
        kind = page.get_by_test_id("prompt").get_attribute("data-prompt-type") or "play"
        seen = version(page)
        # In screen-reader mode a decision brings the focus to the command line.
        page.wait_for_function("() => document.activeElement?.id === 'sr-command'")
        if kind == "bid":
            if not errors_checked:
                # Commands that are not legal say why, and send nothing.
                assert "Unbekannter Befehl" in _command(page, "tanzen")
                assert "Nicht jetzt" in _command(page, "spiele r1")
                assert "darfst nur 1 Karte" in _command(page, "biete p9 p8")
                assert "Farbe „x“ kenne ich nicht" in _command(page, "biete x5")
                where = _command(page, "wo")
                assert "Spiel 1" in where and "Anna" in where, where
                assert version(page) == seen
                errors_checked = True
            if not bid:
                card = _my_cards(page)[0][0]
                _command(page, f"biete {card}")
                bid = True
            else:
                _command(page, "passe")
        elif kind == "trump":
            assert "Auswahl" in _command(page, "trumpf 42")
            options = page.locator("#prompt button.option").first.get_attribute("data-option")
            _command(page, f"trumpf {'keiner' if options == 'none' else options}")
        elif kind == "partner":
            seat = page.locator("#prompt button.option").first.get_attribute("data-testid")
            _command(page, f"partner {int(str(seat).rsplit('-', 1)[1]) + 1}")
        else:
            cards = _my_cards(page)
            blocked = [card for card, playable in cards if not playable]
            if blocked:
                answer = _command(page, f"spiele {blocked[0]}")
                assert "nicht spielbar" in answer, answer
            playable = [card for card, ok in cards if ok]
            _command(page, f"spiele {playable[0]}")
        wait_past(page, seen)
    heard = _heard(page)
    _save("de", heard)
    _assert_said(heard, GERMAN)
    urgent = [str(item["text"]) for item in heard if item["urgent"]]
    assert any(t.startswith("Du bist dran: Karten legen oder passen") for t in urgent), urgent
    assert any(t.startswith("Du bist dran: spiele eine Karte") for t in urgent), urgent
    page.keyboard.press("Escape")
    assert_accessible(page, "screen-reader mode, end of the game")
    page.context.close()


def test_the_story_is_told_once_whatever_views_arrive(browser: Browser, server: Server) -> None:
    """events.js: a view that brings nothing new says nothing; views that skip versions (a client
    that fell behind) tell the same story; commands are read against the prompt."""
    with ScriptedTable(server, 4, hands=1) as table:
        views = [table.view]
        while not table.view["game_over"]:
            table.step()
            views.append(table.view)
    page = browser.new_context(locale="en-GB").new_page()
    page.goto(server.base_url + "/")
    result = page.evaluate(
        """async (views) => {
            const { newEvents } = await import("/static/js/events.js");
            const { readCommand } = await import("/static/js/commands.js");
            const tell = (list) => {
                let before = {phase: "waiting", hand_number: 0};
                const said = [];
                for (const view of list) { said.push(...newEvents(before, view)); before = view; }
                return said.map((event) => JSON.stringify(event));
            };
            const skipping = views.filter((view, i) => i % 3 === 0 || i === views.length - 1);
            const repeats = views.flatMap((view) => [
                ...newEvents(view, view),
                ...newEvents(view, {...view, seats: view.seats.map((s) => ({...s, bot: true}))}),
            ]);
            const waiting = views.find((view) => view.to_move !== 0 && !view.game_over);
            const playing = views.find((view) => view.prompt?.type === "play");
            // The seat's cards: in hand and on display (a bid's cards are played from there).
            const own = [...playing.hand, ...playing.displays[playing.seat]];
            const card = own.find((c) => !playing.prompt.cards.includes(c.id));
            const letter = {red: "r", yellow: "y", green: "g", blue: "b", purple: "p"};
            return {
                full: tell(views), skipping: tell(skipping), repeats: repeats.length,
                notYours: readCommand("play r1", waiting).error,
                unknown: readCommand("dance", playing).error,
                wrongPhase: readCommand("pass", playing).error,
                illegal: card
                    ? readCommand(`play ${letter[card.color]}${card.number}`, playing).error
                    : null,
                legal: readCommand("play " + (() => {
                    const c = own.find((c) => playing.prompt.cards.includes(c.id));
                    return letter[c.color] + c.number;
                })(), playing).action,
            };
        }""",
        views,
    )
    assert result["full"] == result["skipping"]
    kinds = [json.loads(event)["type"] for event in result["full"]]
    assert kinds[0] == "hand" and kinds[-2:] == ["result", "game_over"]
    assert {"bid", "pass", "roles", "trump", "partner", "play", "trick"} <= set(kinds)
    assert result["repeats"] == 0
    assert result["notYours"].startswith("It is not your turn: ")
    assert result["unknown"] == "Unknown command “dance”. Type help for the list."
    assert result["wrongPhase"] == "Not now: play a card."
    if result["illegal"]:
        assert re.match(
            r"^\w+ \d is not playable: you must (follow \w+|play a trump)\.$", result["illegal"]
        )
    assert result["legal"]["type"] == "play"
    page.context.close()


def test_the_revised_discard_is_told_and_read_as_a_command(
    browser: Browser, server: Server
) -> None:
    """Three players, revised edition: the Crown's discard is an event and a command."""
    with ScriptedTable(server, 3, hands=1, variant="revised") as table:
        views = [table.view]
        discarding = None
        while not table.view["game_over"]:
            mover = table.views[table.view["to_move"]]
            if mover["prompt"]["type"] == "discard":
                discarding = mover
            table.step()
            views.append(table.view)
    assert discarding is not None
    page = browser.new_context(locale="de-DE").new_page()
    page.goto(server.base_url + "/?lang=de")
    result = page.evaluate(
        """async ([views, view]) => {
            const { newEvents } = await import("/static/js/events.js");
            const { eventSentence } = await import("/static/js/speech.js");
            const { parseCards, readCommand } = await import("/static/js/commands.js");
            let before = {phase: "waiting", hand_number: 0};
            const said = [];
            for (const v of views) {
                said.push(...newEvents(before, v).map((e) => eventSentence(v, e)));
                before = v;
            }
            const letter = {red: "r", yellow: "y", green: "g", blue: "b", purple: "p"};
            const name = (id) => {
                const card = view.hand.find((c) => c.id === id);
                return letter[card.color] + card.number;
            };
            const ids = view.prompt.cards.slice(0, view.prompt.count);
            return {
                said,
                colours: parseCards("ge5 gr3 l1 g2 Rot 7").cards.map((card) => card.colour),
                ok: readCommand("ablegen " + ids.map(name).join(" "), view).action,
                short: readCommand("ablegen " + name(ids[0]), view).error,
            };
        }""",
        [views, discarding],
    )
    assert any(re.match(r"^\w+ ist Krone mit \d+ Karten?, ", line) for line in result["said"])
    assert any(
        re.match(r"^\w+ nimmt den Stock und legt \d+ Karten ab$", line) for line in result["said"]
    )
    # German starts of colour names work where no other colour shares them; g is green.
    assert result["colours"] == ["yellow", "green", "purple", "green", "red"]
    assert result["ok"]["type"] == "discard"
    assert len(result["ok"]["cards"]) == discarding["prompt"]["count"]
    assert result["short"].startswith("Lege genau")
    page.context.close()


def test_equal_cards_named_twice_are_both_taken(browser: Browser, server: Server) -> None:
    """The deck holds two of each 1 and 7: "ablegen r7 r7" discards both, "bid r7 r7" places
    both, and of two equal cards the one the move allows is played; naming a card more often
    than one holds it is refused."""
    page = browser.new_context(locale="de-DE").new_page()
    page.goto(server.base_url + "/?lang=de")
    result = page.evaluate(
        """async () => {
            const { readCommand } = await import("/static/js/commands.js");
            const hand = [
                {id: 8, color: "red", number: 7}, {id: 9, color: "red", number: 7},
                {id: 13, color: "yellow", number: 1},
            ];
            const base = {seat: 0, to_move: 0, hand, displays: {}};
            const discard = {...base, prompt: {type: "discard", cards: [8, 9, 13], count: 2}};
            const bid = {...base, prompt: {type: "bid", max_cards: 3, can_pass: true}};
            const play = {...base, prompt: {type: "play", cards: [9, 13], must_follow: null}};
            return {
                discard: readCommand("ablegen r7 r7", discard).action,
                bid: readCommand("bieten r7 r7 y1", bid).action,
                play: readCommand("spiele r7", play).action,
                thrice: readCommand("ablegen r7 r7 r7", discard).error,
                once: readCommand("bieten y1 y1", bid).error,
            };
        }"""
    )
    assert result["discard"] == {"type": "discard", "cards": [8, 9]}
    assert result["bid"] == {"type": "bid", "cards": [8, 9, 13]}
    assert result["play"] == {"type": "play", "card": 9}
    assert result["thrice"] == "Du hast Rot 7 öfter genannt, als du sie hast."
    assert result["once"] == "Du hast Gelb 1 öfter genannt, als du sie hast."
    page.context.close()
