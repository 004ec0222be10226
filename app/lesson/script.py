"""Reading a lesson file: the deal and the steps.

Cards and moves are written in the engine's notation (``engine.notation``, docs/notation.md)
and read with its parser: a card is its colour's letter and its number, ``'`` marks the second
of the twin 1s or 7s (``"G9"``, ``"B7'"``); a move is its seat counted from 1 (the learner is
1), its word and what it names (``"1 bid G9 Y7"``, ``"2 pass"``, ``"1 trump 7"``,
``"1 partner 4"``, ``"1 play B7'"``, ``"1 discard R1 R2 Y0"``).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache

from app import resources
from engine.notation import Move, card_id, parse_move

LESSONS_DIR = resources.path("lessons")
LESSONS = tuple(sorted(path.stem for path in LESSONS_DIR.glob("*.toml")))
LEARNER = 0


@dataclass(frozen=True, slots=True)
class Refusal:
    """A wrong move the step explains: the engine must refuse it with ``code``."""

    move: Move
    code: str


@dataclass(frozen=True, slots=True)
class Step:
    """One step: ``text`` (English, the msgid; ``{name}`` placeholders are filled from the
    engine), ``target`` (which element it points at), ``move`` (the learner's intended move,
    or None: the learner reads and goes on), ``then`` (the scripted moves that follow),
    ``refuse`` (wrong moves it explains) and ``expect`` (the numbers the text states)."""

    id: str
    text: str
    target: str
    move: Move | None
    then: tuple[Move, ...]
    refuse: tuple[Refusal, ...]
    expect: dict[str, int]


@dataclass(frozen=True, slots=True)
class Lesson:
    name: str
    title: str
    variant: str
    dealer: int
    names: tuple[str, ...]  # the bots' names, in the seats after the learner's
    hands: tuple[tuple[int, ...], ...]
    kitty: tuple[int, ...] | None
    steps: tuple[Step, ...]


@cache
def load(name: str) -> Lesson:
    """The lesson ``name`` (one of :data:`LESSONS`); ``KeyError`` for another name."""
    if name not in LESSONS:
        raise KeyError(name)
    with (LESSONS_DIR / f"{name}.toml").open("rb") as file:
        data = tomllib.load(file)
    hands = tuple(_cards(hand) for hand in data["hands"])
    kitty = data.get("kitty")
    return Lesson(
        name=name,
        title=data["title"],
        variant=data["variant"],
        dealer=data["dealer"],
        names=tuple(data["names"]),
        hands=hands,
        kitty=_cards(kitty) if kitty else None,
        steps=tuple(_step(s, len(hands)) for s in data["steps"]),
    )


def _cards(text: str) -> tuple[int, ...]:
    return tuple(card_id(word) for word in text.split())


def _step(data: dict[str, object], players: int) -> Step:
    refuse = data.get("refuse", [])
    then = data.get("then", [])
    expect = data.get("expect", {})
    assert isinstance(refuse, list) and isinstance(then, list) and isinstance(expect, dict)
    move = data.get("move")
    return Step(
        id=str(data["id"]),
        text=str(data["text"]),
        target=str(data.get("target", "")),
        move=parse_move(str(move), players) if move is not None else None,
        then=tuple(parse_move(str(t), players) for t in then),
        refuse=tuple(Refusal(parse_move(str(r["move"]), players), str(r["code"])) for r in refuse),
        expect={str(k): int(v) for k, v in expect.items()},
    )
