"""The lessons (issue 27) replayed through the engine: every intended move is legal where
the script puts it, every refused example is refused with the code the text explains, every
number a text states is the engine's, and no payload holds a card the learner may not see."""

from __future__ import annotations

import json
import string
from collections.abc import Iterator
from typing import Any

import pytest
from babel.messages.pofile import read_po
from fastapi import FastAPI
from fastapi.testclient import TestClient

import engine
from app.lesson import payload, replay, router, script, words
from app.protocol import messages
from app.protocol.present import Snapshot
from app.tables import live as live_mod
from app.tables.live import SeatInfo
from app.tables.options import TableOptions
from engine import notation

LESSONS = script.LESSONS
STEPS = [(name, i) for name in LESSONS for i in range(len(script.load(name).steps))]


def placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    app = FastAPI()
    app.include_router(router.router)
    with TestClient(app) as test_client:
        yield test_client


@pytest.mark.parametrize("name", LESSONS)
def test_every_scripted_move_is_legal_and_the_hand_ends(name: str) -> None:
    lesson = script.load(name)
    state = replay.start(lesson)
    for step in lesson.steps:
        if step.move is not None:
            seat, action = step.move.seat, step.move.action
            assert seat == script.LEARNER and state.to_move == seat, step.id
            engine.check(state, seat, action)  # raises if the intended move is illegal
        state = replay.after(state, step)
    assert state.is_over, "the lesson plays its hand to the end"
    assert engine.result(state) is not None


@pytest.mark.parametrize(("name", "index"), STEPS)
def test_refused_examples_get_the_code_the_text_explains(name: str, index: int) -> None:
    lesson = script.load(name)
    step = lesson.steps[index]
    state = replay.state_at(lesson, index)
    for refusal in step.refuse:
        seat, action = refusal.move.seat, refusal.move.action
        with pytest.raises(engine.IllegalAction) as refused:
            engine.check(state, seat, action)
        assert refused.value.code == refusal.code, (step.id, refusal.move)
        assert refusal.code in words.REFUSALS
        answer = payload.try_move(lesson, index, action, "en")
        assert answer == {
            "ok": False,
            "code": refusal.code,
            "why": words.refusal("en", refusal.code, lesson.variant, replay.facts(state)),
        }


@pytest.mark.parametrize(("name", "index"), STEPS)
def test_every_number_a_text_states_is_the_engines(name: str, index: int) -> None:
    lesson = script.load(name)
    step = lesson.steps[index]
    facts = replay.facts(replay.state_at(lesson, index))
    for key, stated in step.expect.items():
        assert facts.get(key) == stated, (step.id, key)
    for field in placeholders(step.text):
        assert field in facts, (step.id, field)
        assert field in step.expect, f"{step.id}: state the number {{{field}}} in `expect`"
    # Numbers in the prose are card numbers ("the green 9") or rules constants, never counts
    # that the engine decides: those are placeholders.
    for lang in ("en", "de"):
        assert "{" not in words.say(lang, step.text, facts)


@pytest.mark.parametrize("name", LESSONS)
def test_the_intended_move_is_accepted_and_others_are_explained(name: str) -> None:
    lesson = script.load(name)
    for index, step in enumerate(lesson.steps):
        if step.move is None:
            continue
        action = step.move.action
        assert payload.try_move(lesson, index, action, "de") == {"ok": True}
        state = replay.state_at(lesson, index)
        others = [a for a in _some_legal_actions(state) if not payload.same_move(a, action)]
        for other in others[:3]:
            answer = payload.try_move(lesson, index, other, "en")
            assert answer["ok"] is False and answer["code"] == words.OTHER_MOVE


def _some_legal_actions(state: engine.HandState) -> list[engine.Action]:
    prompt = engine.legal_prompt(state)
    if isinstance(prompt, engine.PlayPrompt):
        return [engine.Play(c) for c in prompt.cards]
    if isinstance(prompt, engine.TrumpPrompt):
        return [engine.Trump(t) for t in prompt.options]
    if isinstance(prompt, engine.PartnerPrompt):
        return [engine.Partner(s) for s in prompt.options]
    if isinstance(prompt, engine.DiscardPrompt):
        return [engine.Discard(prompt.cards[-prompt.count :])]
    return [engine.Pass()]


def _card_ids(value: Any) -> Iterator[int]:
    """Every card object ({"id", "color", "number", "points"}) in a JSON value."""
    if isinstance(value, dict):
        if {"id", "color", "number", "points"} <= value.keys():
            yield value["id"]
        for item in value.values():
            yield from _card_ids(item)
    elif isinstance(value, list):
        for item in value:
            yield from _card_ids(item)


@pytest.mark.parametrize(("name", "index"), STEPS)
def test_no_payload_holds_a_card_the_learner_may_not_see(
    client: TestClient, name: str, index: int
) -> None:
    lesson = script.load(name)
    state = replay.state_at(lesson, index)
    body = client.get(f"/api/lessons/{name}/steps/{index}?lang=en").json()
    if state.is_over:
        return  # the whole deal is public once the hand is over (engine.view)
    seen = engine.view(state, script.LEARNER)
    visible = {c.id for c in seen.hand}
    visible |= {c.id for display in seen.displays for c in display}
    visible |= {p.card.id for p in seen.trick}
    visible |= {p.card.id for t in seen.tricks for p in t.cards}
    if seen.kitty is not None:
        visible |= {c.id for c in seen.kitty.cards}
    if seen.discards is not None:
        visible |= {c.id for c in seen.discards.cards}
    assert set(_card_ids(body)) <= visible
    hidden = {c for seat, h in enumerate(state.hands) if seat != script.LEARNER for c in h}
    assert not hidden & set(_card_ids(body))
    # The intended move and the prompt name only the learner's own cards.
    own = set(state.hands[script.LEARNER]) | set(state.displays[script.LEARNER])
    for key in ("cards", "card"):
        move = body["move"] or {}
        ids = move.get(key, [])
        assert set(ids if isinstance(ids, list) else [ids]) <= own


def test_the_api_serves_steps_and_judges_moves(client: TestClient) -> None:
    first = client.get("/api/lessons/classic/steps/1?lang=de").json()
    assert first["move"] == {"type": "bid", "cards": [notation.card_id("G9")]}
    assert first["progress"] == f"Schritt 2 von {first['count']}"
    assert "1" in first["text"] and first["view"]["seats"][0]["name"] == "Neuling"
    wrong = client.post(
        "/api/lessons/classic/steps/1?lang=en",
        json={"action": {"type": "bid", "cards": [notation.card_id("G9"), notation.card_id("G8")]}},
    ).json()
    assert wrong["code"] == "too_many_cards" and "at most 1" in wrong["why"]
    nonsense = client.post("/api/lessons/classic/steps/1", json={"action": {"type": "x"}})
    assert nonsense.json()["code"] == "bad_action"
    assert client.get("/api/lessons/nope/steps/0").status_code == 404
    assert client.get("/api/lessons/classic/steps/99").status_code == 404
    last = len(script.load("classic").steps) - 1
    end = client.get(f"/api/lessons/classic/steps/{last}").json()
    assert end["last"] and end["sheet"]["rows"][0]["score"][0] == end["view"]["totals"][0]
    page = client.get("/learn/revised?lang=de")
    assert page.status_code == 200 and 'data-lesson="revised"' in page.text
    assert client.get("/learn/nope").status_code == 404


def live_view(players: int, variant: str) -> dict[str, Any]:
    """A live table's view frame for seat 0 just after the deal (app/protocol)."""
    options = TableOptions(players=players, variant=variant)
    live = live_mod.new_table(table_id=1, invite_code="x", options=options)
    for index in range(players):
        live = live_mod.seat(live, index, SeatInfo(f"P{index}", f"hash{index}"))
    snapshot = Snapshot(live_mod.deal(live, seed=7), (True,) * players)
    view: dict[str, Any] = json.loads(messages.view_text(snapshot, 0))["view"]
    return view


@pytest.mark.parametrize("name", LESSONS)
def test_the_lesson_view_has_the_keys_of_a_tables_view(client: TestClient, name: str) -> None:
    """The lesson draws its view with the live table's types: the same keys, the seats' too."""
    lesson = script.load(name)
    table = live_view(len(lesson.hands), lesson.variant)
    for index in (0, len(lesson.steps) - 1):
        view = client.get(f"/api/lessons/{name}/steps/{index}").json()["view"]
        assert set(view) == set(table)
        assert [set(seat) for seat in view["seats"]] == [set(seat) for seat in table["seats"]]
        assert view["version"] == index and view["hand_number"] == 1
        assert view["status"] == ("over" if index else "playing")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_lessons_catalog_is_complete(lang: str) -> None:
    path = words._CATALOGS / lang / "LC_MESSAGES" / "lessons.po"
    with path.open("rb") as file:
        catalog = read_po(file, locale=lang)
    texts = {m.id: m.string for m in catalog if m.id and m.string and not m.fuzzy}
    wanted = [*words.REFUSALS.values(), *words.REVISED_REFUSALS.values(), words.PROGRESS]
    for name in LESSONS:
        lesson = script.load(name)
        wanted += [lesson.title, *(step.text for step in lesson.steps)]
    for text in wanted:
        assert text in texts, text
        assert placeholders(texts[text]) == placeholders(text), text


TARGETS = {"hand", "prompt", "seats", "ranking", "goal", "trick", "sheet", "kitty"}


@pytest.mark.parametrize("name", LESSONS)
def test_every_step_points_at_something_on_the_page(name: str) -> None:
    lesson = script.load(name)
    for step in lesson.steps:
        seat = step.target.removeprefix("seat:")
        assert step.target in TARGETS or (seat.isdigit() and int(seat) < len(lesson.hands))


def test_the_rules_the_texts_state_in_words_are_the_engines() -> None:
    # "6 and 7 are worth 2, 1 and 9 nothing, the rest 1" (the classic lesson's first step).
    stated = {6: 2, 7: 2, 1: 0, 9: 0}
    assert all(card.points == stated.get(card.number, 1) for card in engine.CARDS)
    # "all four have passed one after the other": four passes end the classic auction.
    classic = script.load("classic")
    index = next(i for i, s in enumerate(classic.steps) if s.id == "end-auction")
    state = replay.after(replay.state_at(classic, index), classic.steps[index])
    assert state.phase != engine.Phase.AUCTION and len(classic.hands) == 4
    # Revised: "the leader's bid times ten plus the trump bonus".
    revised = script.load("revised")
    result = engine.result(replay.state_at(revised, len(revised.steps) - 1))
    assert result is not None and result.bid is not None and result.bid_bonus is not None
    assert result.trump_bonus is not None
    assert result.bid_bonus[0] == 10 * result.bid
    assert result.bonus[0] == result.bid_bonus[0] + result.trump_bonus[0]
