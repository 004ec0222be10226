"""One notation of a card and a move, the engine's (issue 37): the hand files, the lessons'
scripts and the client's typed commands all spell cards and moves as ``engine/notation.py``
does, and nothing else spells them.

- every card and every kind of move round-trips through the engine's notation;
- the lesson files are that notation, read with the engine's parser (``app/lesson/script.py``
  has no parser and no card table of its own);
- ``static/js/protocol.js`` holds the engine's words (``NOTATION``, from
  ``tools/gen_protocol_js.py``), and ``static/js/commands.js`` types no card, colour letter,
  trump word or move word itself.

The browser half (``commands.js`` reading every card and every kind of move written by the
engine) is ``tests/browser/test_notation_js.py``.
"""

from __future__ import annotations

import ast
import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

import engine
from app.lesson import script
from engine import notation
from tests.engine.test_notation import random_game

REPO = Path(__file__).resolve().parents[2]
JS = REPO / "static" / "js"


def sample_moves() -> list[notation.Move]:
    """Moves of every kind, from seeded random hands of both editions (the revised one for
    three has the discard)."""
    moves = []
    for players, variant in ((3, "revised"), (4, "classic"), (6, "classic"), (5, "revised")):
        _, hands = random_game(players, variant, players)
        moves += [move for hand in hands for move in notation.moves_of(hand)]
    return moves


def test_every_card_and_every_kind_of_move_round_trips() -> None:
    for card in range(len(engine.CARDS)):
        name = notation.card_name(card)
        assert notation.card_id(name) == notation.card_id(name.lower()) == card
    moves = sample_moves()
    assert {type(move.action) for move in moves} == set(engine.ACTION_TYPES)
    for move in moves:
        text = notation.move_text(move)
        assert notation.parse_move(text) == move, text
        assert text.split()[1] == move.action.type
    trumps = [notation.Move(0, engine.Trump(kind)) for kind in engine.TrumpKind]
    assert [notation.parse_move(notation.move_text(m)) for m in trumps] == trumps


def test_a_moves_line_is_the_hand_files_line_with_the_moves_word() -> None:
    _, hands = random_game(4, "classic", 3)
    hand = next(h for h in hands if h.outcome == engine.Outcome.PLAYED)
    text = notation.export_hand(hand, players=["A", "B", "C", "D"], event="E", date="2026.01.02")
    auction = text.split("[Auction]\n", 1)[1].split("\n[", 1)[0].splitlines()
    bids = [m for m in notation.moves_of(hand) if isinstance(m.action, engine.Bid | engine.Pass)]
    for line, move in zip(auction, bids, strict=True):
        seat, word, *rest = notation.move_text(move).split()
        assert line.split() == ([seat, *rest] if rest else [seat, word])


@pytest.mark.parametrize("text", ["", "1", "1 dance", "1 pass R1", "1 play", "9 pass", "1 bid Q5"])
def test_a_line_that_is_no_move_is_refused(text: str) -> None:
    with pytest.raises(notation.NotationError):
        notation.parse_move(text, players=4)


@pytest.mark.parametrize("name", script.LESSONS)
def test_the_lessons_are_written_in_the_engines_notation(name: str) -> None:
    """Reading a lesson with the engine's parser and writing it back with the engine gives
    the file's own words, card for card and move for move."""
    lesson = script.load(name)
    with (script.LESSONS_DIR / f"{name}.toml").open("rb") as file:
        data = tomllib.load(file)
    cards = [" ".join(map(notation.card_name, hand)) for hand in lesson.hands]
    assert cards == data["hands"]
    kitty = " ".join(map(notation.card_name, lesson.kitty)) if lesson.kitty else None
    assert kitty == data.get("kitty")
    for step, raw in zip(lesson.steps, data["steps"], strict=True):
        moves = [*([step.move] if step.move else []), *step.then, *(r.move for r in step.refuse)]
        written = [
            raw.get("move"),
            *raw.get("then", []),
            *(r["move"] for r in raw.get("refuse", [])),
        ]
        assert [notation.move_text(move) for move in moves] == [w for w in written if w], step.id


def test_the_lesson_package_has_no_notation_of_its_own() -> None:
    """No card table, letter table or parser in app/lesson: it imports the engine's."""
    letters = set(notation.COLOUR_LETTERS.values())
    for path in sorted((REPO / "app" / "lesson").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        strings = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)}
        assert not {s for s in strings if isinstance(s, str) and s.upper() in letters}, path
        names = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        assert not names & {"card_id", "card_name", "parse_move", "_action"}, path
    source = (REPO / "app" / "lesson" / "script.py").read_text(encoding="utf-8")
    assert "from engine.notation import" in source


def protocol_js_notation() -> dict[str, Any]:
    source = (JS / "protocol.js").read_text(encoding="utf-8")
    found = re.search(r"export const NOTATION = Object\.freeze\((.*?)\);\n", source, re.DOTALL)
    assert found, "protocol.js: no NOTATION"
    words: dict[str, Any] = json.loads(found.group(1))
    return words


def test_the_clients_words_are_the_engines() -> None:
    words = protocol_js_notation()
    assert words["cards"] == [notation.card_name(card) for card in range(len(engine.CARDS))]
    assert words["letters"] == {str(c): letter for c, letter in notation.COLOUR_LETTERS.items()}
    assert words["twin_mark"] == notation.TWIN_MARK
    assert words["moves"] == list(notation.MOVE_WORDS)
    assert words["trumps"] == [str(kind) for kind in engine.TrumpKind]
    # The move words are the actions' own types, so the client sends what it reads.
    for word in words["moves"]:
        fields: dict[str, Any] = {"cards": [0], "card": 0, "trump": "red", "seat": 1}
        assert engine.action_from_json({"type": word, **fields}).type == word


def script_code(path: Path) -> str:
    """A script without its comments (they may quote examples: "play g7")."""
    source = path.read_text(encoding="utf-8")
    return re.sub(r"^\s*//.*$|\s//\s.*$", "", source, flags=re.MULTILINE)


def quoted(code: str) -> set[str]:
    return set(re.findall(r"""["'`]([^"'`\n]*)["'`]""", code))


def test_commands_js_types_no_card_colour_trump_or_move_word_itself() -> None:
    code = script_code(JS / "commands.js")
    assert re.search(r'import \{[^}]*\bNOTATION\b[^}]*\} from "\./protocol\.js"', code)
    strings = {s.lower() for s in quoted(code)}
    words = protocol_js_notation()
    cards = {name.lower() for name in words["cards"]} | {name.lower() for name in words["letters"]}
    letters = {letter.lower() for letter in words["letters"].values()}
    assert not strings & cards, "a card or a colour typed in commands.js"
    assert not strings & letters, "a colour letter typed in commands.js"
    assert not strings & {kind for kind in words["trumps"] if not kind.isdigit()}
    # No table keyed by colour letters, no character class of them.
    assert not re.search(r"\b[rygbpRYGBP]\s*:\s*[\"'\[]", code)
    assert not re.search(r"\[[rygbpRYGBP]{3,}\]", code)
    # The lists of words a person may type hold the other words only: the notation's move
    # words come from protocol.js.
    lists = re.findall(r"\[([^\[\]]*)\]", code)
    typed = {word for items in lists for word in re.findall(r'"([^"]*)"', items)}
    assert not typed & set(words["moves"]), "a move word of the notation typed in commands.js"
