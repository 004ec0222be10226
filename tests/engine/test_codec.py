"""The JSON edge (engine/codec.py): every action survives its JSON form, action_from_json
refuses hostile input with IllegalAction subclasses only, and orjson writes exactly what
to_json gives (the server encodes views with orjson directly)."""

from __future__ import annotations

import enum
import itertools
import json
import math
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import Bid, Discard, Partner, Pass, Play, Trump, TrumpKind
from engine.state import HandState

from .randomplay import random_action

CASES = [(variant, players) for variant in ("classic", "revised") for players in (3, 4, 5, 6)]


def states(variant: str, players: int, seed: int, hands: int) -> Iterator[HandState]:
    """Every state of ``hands`` seeded random hands, the finished ones included."""
    rng = random.Random(seed)
    for _ in range(hands):
        state = engine.deal(players, rng.randrange(players), rng, variant)
        while not state.is_over:
            yield state
            state = engine.apply(state, state.to_move, random_action(state, rng))
        yield state


def legal_actions(state: HandState) -> Iterator[engine.Action]:
    """Every legal action of the seat to move, except that of the subsets of the hand a bid
    may show only a pass, every single card and, for every size, a run of cards and its
    reverse are taken, and of the revised discards every 37th choice."""
    prompt, seat = engine.legal_prompt(state), state.to_move
    assert prompt is not None and seat is not None
    if isinstance(prompt, engine.BidPrompt):
        hand = state.hands[seat]
        yield Pass()
        for k in range(1, prompt.max_cards + 1):
            yield Bid(tuple(hand[:k]))
            yield Bid(tuple(reversed(hand[-k:])))
        if prompt.max_cards:
            yield from (Bid((c,)) for c in hand)
    elif isinstance(prompt, engine.DiscardPrompt):
        combos = itertools.combinations(prompt.cards, prompt.count)
        yield from (Discard(c) for c in itertools.islice(combos, 0, None, 37))
    elif isinstance(prompt, engine.TrumpPrompt):
        yield from (Trump(kind) for kind in prompt.options)
    elif isinstance(prompt, engine.PartnerPrompt):
        yield from (Partner(seat) for seat in prompt.options)
    else:
        yield from (Play(card) for card in prompt.cards)


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_every_legal_action_survives_its_json_form(variant: str, players: int) -> None:
    seen: set[str] = set()
    for state in states(variant, players, seed=players, hands=6):
        if state.is_over:
            continue
        for action in legal_actions(state):
            assert engine.is_legal(state, state.to_move, action), action
            wire = engine.to_json(action)
            assert json.loads(json.dumps(wire)) == wire
            assert engine.action_from_json(wire) == action
            assert engine.action_from_json(json.loads(json.dumps(wire))) == action
            seen.add(action.type)
    assert seen >= {"pass", "bid", "trump", "play"}
    assert ("partner" in seen) == (players > 3)
    assert ("discard" in seen) == (variant == "revised" and players == 3)


def test_the_json_forms_of_the_actions() -> None:
    assert engine.to_json(Pass()) == {"type": "pass"}
    assert engine.to_json(Bid((12, 40))) == {"type": "bid", "cards": [12, 40]}
    assert engine.to_json(Discard((3, 9, 51))) == {"type": "discard", "cards": [3, 9, 51]}
    assert engine.to_json(Trump(TrumpKind.SEVEN)) == {"type": "trump", "trump": "7"}
    assert engine.to_json(Partner(2)) == {"type": "partner", "seat": 2}
    assert engine.to_json(Play(17)) == {"type": "play", "card": 17}
    assert Bid((40, 12)) != Bid((12, 40))  # the order is the display order


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ("pass", "bad_action"),
        (None, "bad_action"),
        ([], "bad_action"),
        ({}, "bad_action"),
        ({"type": "dance"}, "bad_action"),
        ({"type": ["pass"]}, "bad_action"),  # an unhashable type must not crash the lookup
        ({"type": "PASS"}, "bad_action"),
        ({"type": "bid"}, "bad_action"),
        ({"type": "bid", "cards": "R6"}, "bad_action"),
        ({"type": "bid", "cards": [1, 1]}, "bad_action"),
        ({"type": "bid", "cards": [True]}, "bad_action"),
        ({"type": "bid", "cards": [1.0]}, "bad_action"),
        ({"type": "bid", "cards": {"0": 1}}, "bad_action"),
        ({"type": "discard", "cards": None}, "bad_action"),
        ({"type": "partner", "seat": "1"}, "bad_action"),
        ({"type": "partner", "seat": False}, "bad_action"),
        ({"type": "play"}, "bad_action"),
        ({"type": "play", "card": math.nan}, "bad_action"),
        ({"type": "trump"}, "trump_not_allowed"),
        ({"type": "trump", "trump": 7}, "trump_not_allowed"),
        ({"type": "trump", "trump": "10"}, "trump_not_allowed"),
        ({"type": "trump", "trump": ["red"]}, "trump_not_allowed"),
        ({"type": "trump", "trump": "Red"}, "trump_not_allowed"),
    ],
)
def test_malformed_json_is_refused_with_a_code(payload: object, code: str) -> None:
    with pytest.raises(engine.IllegalAction) as refused:
        engine.action_from_json(payload)
    assert refused.value.code == code


def test_extra_keys_are_ignored_and_the_parsed_form_is_canonical() -> None:
    noisy = {"note": math.nan, "cards": [5, 3], "type": "bid", "seat": 9, "card": 1}
    action = engine.action_from_json(noisy)
    assert action == Bid((5, 3)) and engine.to_json(action) == {"type": "bid", "cards": [5, 3]}
    assert engine.action_from_json({"type": "discard", "cards": [4, 4, 4]}) == Discard((4, 4, 4))


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=12,
)
FIELDS = st.sampled_from(["type", "cards", "card", "seat", "trump"])
ACTION_LIKE = st.dictionaries(
    FIELDS,
    st.sampled_from(["pass", "bid", "discard", "trump", "partner", "play", "red", "7"])
    | st.integers(-3, 70)
    | st.lists(st.integers(-3, 70) | st.booleans(), max_size=5)
    | JSON_VALUES,
)


@settings(max_examples=400, deadline=None)
@given(payload=JSON_VALUES | ACTION_LIKE, seat=st.integers(-1, 5) | st.none())
def test_hostile_json_only_ever_raises_illegal_action(payload: Any, seat: int | None) -> None:
    """Arbitrary JSON values (and action-shaped ones) are parsed or refused with an
    IllegalAction subclass, never anything else; a parsed action is canonical, and applying
    it to a hand raises nothing but IllegalAction either."""
    try:
        action = engine.action_from_json(payload)
    except engine.IllegalAction as refused:
        assert refused.code in ("bad_action", "trump_not_allowed")
        return
    assert engine.action_from_json(engine.to_json(action)) == action
    hand = engine.deal(4, 0, random.Random(1))
    for state in (hand, engine.apply(hand, 0, Bid((hand.hands[0][0],)))):
        try:
            engine.apply(state, seat, action)
        except engine.IllegalAction:
            pass
        assert isinstance(engine.is_legal(state, seat, action), bool)


def orjson_round_trip(value: object) -> object:
    orjson = pytest.importorskip("orjson")  # in the dev venv; the engine never imports it
    return orjson.loads(orjson.dumps(value))


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_orjson_writes_exactly_the_json_form(variant: str, players: int) -> None:
    """What the server sends (orjson's native dataclass and enum support) is to_json."""
    checked = 0
    for state in states(variant, players, seed=100 + players, hands=3):
        for seat in [None, *range(players)]:
            view = engine.view(state, seat)
            assert orjson_round_trip(view) == engine.to_json(view)
            checked += 1
        prompt = engine.legal_prompt(state)
        assert orjson_round_trip(prompt) == engine.to_json(prompt)
        if not state.is_over:
            action = random_action(state, random.Random(checked))
            assert orjson_round_trip(action) == engine.to_json(action)
        else:
            result = engine.result(state)
            assert orjson_round_trip(result) == engine.to_json(result)
    assert checked > 100
    for value in (engine.rules_catalog(), engine.rules_summary(variant, players)):
        assert orjson_round_trip(value) == engine.to_json(value)


def test_orjson_writes_games_and_sheets_like_to_json() -> None:
    rng = random.Random(3)
    game = engine.new_game(engine.GameOptions(players=4, variant="revised", hands=2), 1)
    while not game.over:
        assert orjson_round_trip(engine.game_view(game, 2)) == engine.to_json(
            engine.game_view(game, 2)
        )
        if game.needs_deal:
            game = engine.deal_next(game, rng)
        else:
            assert game.hand is not None
            game = engine.play(game, game.hand.to_move, random_action(game.hand, rng))
    sheet = engine.scoresheet(game)
    assert orjson_round_trip(sheet) == engine.to_json(sheet)


def test_to_json_of_plain_values_and_refusals() -> None:
    assert engine.to_json({"a": (1, TrumpKind.NONE), "b": [None, True, 1.5]}) == {
        "a": [1, "none"],
        "b": [None, True, 1.5],
    }
    assert type(engine.to_json(engine.Colour.RED)) is str
    # An enum is its value; so is a combination of flags, which no member listing names.
    Seen = enum.Flag("Seen", ["HAND", "KITTY"])
    assert engine.to_json([Seen.HAND, Seen.HAND | Seen.KITTY]) == [1, 3]
    with pytest.raises(TypeError):
        engine.to_json(engine.deal(4, 0, random.Random(1)))  # a state never leaves as JSON


def test_a_card_is_a_fresh_dict_each_time_and_any_card_object_encodes() -> None:
    """The deck's cards are encoded once and copied: changing one copy changes no other; a
    card object that is not the deck's own is encoded field by field, the same way."""
    card = engine.CARDS[21]
    first = engine.to_json(card)
    assert first == {"id": 21, "color": "yellow", "number": 7, "points": 2}
    assert isinstance(first, dict)
    first["points"] = 99
    assert engine.to_json(card) == {"id": 21, "color": "yellow", "number": 7, "points": 2}
    assert engine.to_json(card) is not engine.to_json(card)
    other = engine.Card(21, engine.Colour.YELLOW, 7, 2)
    assert other is not card and engine.to_json(other) == engine.to_json(card)
