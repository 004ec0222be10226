"""Reading a lesson file: the deal, the steps, and the compact move notation.

Moves are written as in ``"bid g9 y7"``, ``"trump 7"``, ``"trump red"``, ``"partner 3"``,
``"play b7'"``, ``"discard r1 r2 y0"`` and ``"pass"``; a bot's move starts with its seat
(``"2: pass"``).  A card is its colour's letter (r, y, g, b, p) and its number; a trailing
``'`` names the second of the twin 1s or 7s.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache

import engine
from app import resources
from engine.cards import CARDS_PER_COLOUR, SLOT_NUMBERS

LESSONS_DIR = resources.path("lessons")
LESSONS = tuple(sorted(path.stem for path in LESSONS_DIR.glob("*.toml")))
LEARNER = 0
_COLOUR_LETTERS = {colour.value[0]: index for index, colour in enumerate(engine.COLOURS)}


@dataclass(frozen=True, slots=True)
class Refusal:
    """A wrong move the step explains: the engine must refuse it with ``code``."""

    move: str
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
    move: str | None
    then: tuple[str, ...]
    refuse: tuple[Refusal, ...]
    expect: dict[str, int]


@dataclass(frozen=True, slots=True)
class Lesson:
    name: str
    title: str
    variant: str
    dealer: int
    names: tuple[str, ...]  # the bots' names, seat 1 onwards
    hands: tuple[tuple[int, ...], ...]
    kitty: tuple[int, ...] | None
    steps: tuple[Step, ...]


def card_id(name: str) -> int:
    """``"g9"`` -> the green 9's id; ``"y7'"`` -> the second yellow 7."""
    twin = name.endswith("'")
    colour, number = _COLOUR_LETTERS[name[0]], int(name[1:].rstrip("'"))
    slots = [s for s, n in enumerate(SLOT_NUMBERS) if n == number]
    return colour * CARDS_PER_COLOUR + slots[1 if twin else 0]


def card_name(card: int) -> str:
    """The inverse of :func:`card_id`."""
    colour, slot = divmod(card, CARDS_PER_COLOUR)
    number = SLOT_NUMBERS[slot]
    twin = "'" if slot > 0 and SLOT_NUMBERS[slot - 1] == number else ""
    return f"{engine.COLOURS[colour].value[0]}{number}{twin}"


def parse_move(text: str) -> tuple[int, engine.Action]:
    """``"2: bid g9"`` -> (2, Bid); without a seat the move is the learner's."""
    seat = LEARNER
    if ":" in text:
        head, text = text.split(":", 1)
        seat = int(head)
    kind, *args = text.split()
    return seat, _action(kind, args)


def _action(kind: str, args: list[str]) -> engine.Action:
    if kind == "pass":
        return engine.Pass()
    if kind == "bid":
        return engine.Bid(tuple(card_id(a) for a in args))
    if kind == "discard":
        return engine.Discard(tuple(card_id(a) for a in args))
    if kind == "play":
        return engine.Play(card_id(args[0]))
    if kind == "trump":
        return engine.Trump(engine.TrumpKind(args[0]))
    if kind == "partner":
        return engine.Partner(int(args[0]))
    raise ValueError(f"unknown move {kind!r}")


@cache
def load(name: str) -> Lesson:
    """The lesson ``name`` (one of :data:`LESSONS`); ``KeyError`` for another name."""
    if name not in LESSONS:
        raise KeyError(name)
    with (LESSONS_DIR / f"{name}.toml").open("rb") as file:
        data = tomllib.load(file)
    hands = tuple(tuple(card_id(c) for c in hand.split()) for hand in data["hands"])
    kitty = data.get("kitty")
    return Lesson(
        name=name,
        title=data["title"],
        variant=data["variant"],
        dealer=data["dealer"],
        names=tuple(data["names"]),
        hands=hands,
        kitty=tuple(card_id(c) for c in kitty.split()) if kitty else None,
        steps=tuple(_step(s) for s in data["steps"]),
    )


def _step(data: dict[str, object]) -> Step:
    refuse = data.get("refuse", [])
    then = data.get("then", [])
    expect = data.get("expect", {})
    assert isinstance(refuse, list) and isinstance(then, list) and isinstance(expect, dict)
    move = data.get("move")
    return Step(
        id=str(data["id"]),
        text=str(data["text"]),
        target=str(data.get("target", "")),
        move=str(move) if move is not None else None,
        then=tuple(str(t) for t in then),
        refuse=tuple(Refusal(str(r["move"]), str(r["code"])) for r in refuse),
        expect={str(k): int(v) for k, v in expect.items()},
    )
