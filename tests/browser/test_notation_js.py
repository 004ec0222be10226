"""The command line reads the engine's notation (issue 37): every card and every kind of move,
written by ``engine.notation.move_text`` without its seat, is read by ``static/js/commands.js``
as the very action the engine means (``engine.action_to_json``), in upper and lower case, on an
English and a German page.

The Python half (the notation's words in ``protocol.js``, no table of its own in
``commands.js``) is ``tests/app/test_one_notation.py``.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser

import engine
from engine import notation
from tests.app.test_one_notation import sample_moves
from tests.browser.conftest import Server

pytestmark = pytest.mark.browser

SEATS = [{"name": name} for name in ("Anna", "Ben", "Cleo", "Dan", "Eve", "Finn")]


def view_for(move: notation.Move) -> dict[str, Any]:
    """The smallest view in which ``move`` is legal for the page's seat: its cards in hand and
    a prompt that allows it."""
    action = move.action
    cards = [
        *getattr(action, "cards", ()),
        *([action.card] if isinstance(action, engine.Play) else []),
    ]
    hand = [engine.to_json(engine.CARDS[card]) for card in cards]
    prompts: dict[type, dict[str, Any]] = {
        engine.Pass: {"type": "bid", "max_cards": 1, "can_pass": True},
        engine.Bid: {"type": "bid", "max_cards": len(cards), "can_pass": True},
        engine.Discard: {"type": "discard", "cards": cards, "count": len(cards)},
        engine.Trump: {"type": "trump", "options": [str(kind) for kind in engine.TrumpKind]},
        engine.Partner: {"type": "partner", "options": list(range(6))},
        engine.Play: {"type": "play", "cards": cards, "must_follow": None},
    }
    prompt = prompts[type(action)]
    return {"seat": 0, "to_move": 0, "players": 6, "seats": SEATS, "hand": hand, "prompt": prompt}


def cases() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(typed command, view, the action the engine means): every card played, every trump
    named, and the moves of random hands (every ninth card played)."""
    moves = [notation.Move(0, engine.Play(card)) for card in range(len(engine.CARDS))]
    moves += [notation.Move(0, engine.Trump(kind)) for kind in engine.TrumpKind]
    sample = sample_moves()
    moves += [
        m for i, m in enumerate(sample) if not isinstance(m.action, engine.Play) or i % 9 == 0
    ]
    found = {}
    for move in moves:
        typed = notation.move_text(move).split(" ", 1)[1]  # the seat is the page's own
        action = engine.action_to_json(move.action)
        for text in (typed, typed.lower()):
            found[text] = (text, view_for(move), action)
    return list(found.values())


@pytest.mark.parametrize(("locale", "lang"), [("en-GB", "en"), ("de-DE", "de")])
def test_the_command_line_reads_every_card_and_move_the_engine_writes(
    browser: Browser, server: Server, locale: str, lang: str
) -> None:
    every = cases()
    assert {case[2]["type"] for case in every} == set(notation.MOVE_WORDS)
    page = browser.new_context(locale=locale).new_page()
    page.goto(f"{server.base_url}/?lang={lang}")
    read = page.evaluate(
        """async (cases) => {
            const { readCommand } = await import("/static/js/commands.js");
            return cases.map(([typed, view]) => readCommand(typed, view));
        }""",
        [[typed, view] for typed, view, _ in every],
    )
    wrong = [
        (typed, got)
        for (typed, _, action), got in zip(every, read, strict=True)
        if got != {"action": action}
    ]
    assert wrong == []
    page.context.close()
