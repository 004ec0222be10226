"""What the lesson page gets for one step: the learner's view (the engine's view of seat 0,
never another seat's hidden cards) in the shape of a table view, the step's sentence, what it
points at and the intended move."""

from __future__ import annotations

import dataclasses
from typing import Any

import orjson

import engine
from app.lesson import replay, words
from app.lesson.script import LEARNER, Lesson
from app.protocol import messages, recordjson
from app.protocol.present import SeatView, TableAround, TableNow


def table_view(lesson: Lesson, state: engine.HandState, version: int, lang: str) -> dict[str, Any]:
    """The learner's view as a table's view frame holds it: the engine's view of the learner
    and the table's keys, of the live table's own types (``TableNow``, ``TableAround``) and
    joined as the live frames are (``messages.shared_json``): a table of one hand, nothing to
    undo, no host's decisions."""
    hand = engine.view(state, LEARNER)
    result = hand.result
    now = TableNow(
        version=version, status="over" if result else "playing", hand_number=1, undoable_by=None
    )
    around = TableAround(
        seats=_seats(lesson, lang),
        totals=result.total if result else (0,) * state.players,
        last_result=result,
        game_over=False,
        winners=(),
    )
    fields = {field.name: getattr(hand, field.name) for field in dataclasses.fields(hand)}
    out: dict[str, Any] = orjson.loads(messages.shared_json(fields, now, recordjson.dumps(around)))
    return out


def _seats(lesson: Lesson, lang: str) -> tuple[SeatView, ...]:
    """The learner and the lesson's bots, everyone connected."""
    names = (words.say(lang, words.YOU, {}), *lesson.names)
    return tuple(
        SeatView(
            name=name,
            bot=seat != LEARNER,
            bot_level=None,
            connected=True,
            bot_playing=False,
            takeover_at=None,
        )
        for seat, name in enumerate(names)
    )


def step_payload(lesson: Lesson, index: int, lang: str) -> dict[str, Any]:
    """Step ``index`` of ``lesson`` in ``lang``."""
    step = lesson.steps[index]
    state = replay.state_at(lesson, index)
    facts = replay.facts(state)
    move = None
    if step.move is not None:
        move = engine.action_to_json(step.move.action)
    count = len(lesson.steps)
    return {
        "lesson": lesson.name,
        "title": words.say(lang, lesson.title, facts),
        "index": index,
        "count": count,
        "id": step.id,
        "progress": words.say(lang, words.PROGRESS, {"n": index + 1, "count": count}),
        "text": words.say(lang, step.text, facts),
        "target": step.target,
        "move": move,
        "last": index == count - 1,
        "view": table_view(lesson, state, index, lang),
        "sheet": sheet(lesson, state),
    }


def sheet(lesson: Lesson, state: engine.HandState) -> dict[str, Any] | None:
    """Once the hand is over, the score sheet of a game with this one hand."""
    result = engine.result(state)
    if result is None:
        return None
    options = engine.GameOptions(players=state.players, variant=lesson.variant)
    game = engine.record_result(engine.new_game(options, lesson.dealer), result)
    out = engine.to_json_object(engine.scoresheet(game))
    assert isinstance(out, dict)
    return out


def same_move(a: engine.Action, b: engine.Action) -> bool:
    """Equal moves; the cards of a bid or a discard in any order."""
    if isinstance(a, engine.Bid | engine.Discard) and type(a) is type(b):
        return sorted(a.cards) == sorted(b.cards)
    return a == b


def try_move(lesson: Lesson, index: int, action: engine.Action, lang: str) -> dict[str, Any]:
    """Whether ``action`` is the step's intended move; if not, the refusal code and why."""
    step = lesson.steps[index]
    state = replay.state_at(lesson, index)
    facts = replay.facts(state)
    try:
        engine.check(state, LEARNER, action)
        intended = step.move is not None and same_move(action, step.move.action)
        code = None if intended else words.OTHER_MOVE
    except engine.IllegalAction as refused:
        code = refused.code
    if code is None:
        return {"ok": True}
    return {"ok": False, "code": code, "why": words.refusal(lang, code, lesson.variant, facts)}
