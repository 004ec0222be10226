"""check / is_legal / apply on typed actions: the same verdict three ways, and actions built
in Python with mistyped fields are refused, never half-applied."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine import Bid, Discard, Partner, Pass, Play, Trump, TrumpKind

from .helpers import run_auction
from .randomplay import fingerprint, random_action
from .test_auction import T1_SCRIPT, t1_deal


def verdict(state: engine.HandState, seat: int | None, action: Any) -> str | None:
    try:
        engine.check(state, seat, action)
    except engine.IllegalAction as refused:
        return refused.code
    return None


def test_check_is_legal_and_apply_agree_along_random_hands() -> None:
    rng = random.Random(12)
    for players in (3, 4, 5, 6):
        state = engine.deal(players, 0, rng, "revised" if players % 2 else "classic")
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            for candidate in (Pass(), Play(state.hands[seat][0] if state.hands[seat] else 0)):
                code = verdict(state, seat, candidate)
                assert engine.is_legal(state, seat, candidate) == (code is None)
                if code is not None:
                    with pytest.raises(engine.IllegalAction) as refused:
                        engine.apply(state, seat, candidate)
                    assert refused.value.code == code
            action = random_action(state, rng)
            assert verdict(state, seat, action) is None
            before = fingerprint(state)
            state = engine.apply(state, seat, action)
            assert fingerprint(state) != before


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ("pass", "bad_action"),  # not an action object at all
        ({"type": "pass"}, "bad_action"),  # JSON goes through action_from_json first
        (None, "bad_action"),
        (Bid((True,)), "bad_action"),  # True is never card 1
        (Bid(None), "bad_action"),  # type: ignore[arg-type]
        (Bid(7), "bad_action"),  # type: ignore[arg-type]
        (Play(True), "wrong_phase"),  # the phase is judged before the action's fields
    ],
)
def test_mistyped_actions_are_bad_actions(action: Any, code: str) -> None:
    state = t1_deal()
    assert verdict(state, 0, action) == code
    assert not engine.is_legal(state, 0, action)


def test_mistyped_fields_in_every_phase() -> None:
    state = run_auction(t1_deal(), T1_SCRIPT)  # C, the vice, names a trump
    assert verdict(state, 2, Trump("red")) is None  # type: ignore[arg-type]  # a plain str
    assert verdict(state, 2, Trump(7)) == "trump_not_allowed"  # type: ignore[arg-type]
    assert verdict(state, 2, Trump(["red"])) == "trump_not_allowed"  # type: ignore[arg-type]
    state = engine.apply(state, 2, Trump(TrumpKind.RED))
    state = engine.apply(state, 3, Trump(TrumpKind.GREEN))
    assert verdict(state, 3, Partner("1")) == "bad_action"  # type: ignore[arg-type]
    assert verdict(state, 3, Partner(True)) == "bad_action"
    state = engine.apply(state, 3, Partner(1))
    assert verdict(state, 3, Play(1.0)) == "bad_action"  # type: ignore[arg-type]
    assert verdict(state, 3, Play(True)) == "bad_action"
    assert verdict(state, 3, Discard((1, 2, 3))) == "wrong_phase"


def test_after_the_kind_of_object_the_end_of_the_hand_is_judged_first() -> None:
    state = run_auction(t1_deal(), [(s, None) for s in (0, 1, 2, 3, 4)])
    assert state.is_over
    assert verdict(state, 0, Pass()) == "hand_over"
    assert verdict(state, None, Play(3)) == "hand_over"
    assert verdict(state, 0, "not an action") == "bad_action"
