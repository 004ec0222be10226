"""Trump and partner choices (rules C16-C19; T1's options, edges 10 and 16)."""

from __future__ import annotations

import pytest

import engine
from engine.state import HandState

from .helpers import apply_json, run_auction
from .test_auction import T1_SCRIPT, t1_deal

A, B, C, D, E = range(5)
T = engine.TrumpKind


def after_t1() -> HandState:
    return run_auction(t1_deal(), T1_SCRIPT)


def test_t1_vice_options_are_own_colours_and_numbers_never_none() -> None:
    prompt = engine.legal_prompt(after_t1())
    assert isinstance(prompt, engine.TrumpPrompt) and prompt.role == "vice"
    assert set(prompt.options) == {"yellow", "green", "red", "9", "8", "5"}
    with pytest.raises(engine.TrumpNotAllowed):
        engine.apply(after_t1(), C, engine.Trump(T.NONE))


@pytest.mark.parametrize("vice_pick", ["green", "8", "red"])
def test_t1_chief_options_exclude_the_vice_trump(vice_pick: str) -> None:
    state = engine.apply(after_t1(), C, engine.Trump(T(vice_pick)))
    prompt = engine.legal_prompt(state)
    assert isinstance(prompt, engine.TrumpPrompt)
    assert prompt.role == "chief" and state.to_move == D
    expected = {"green", "blue", "1", "7", "8", "none"} - {vice_pick}
    assert set(prompt.options) == expected
    if vice_pick in ("green", "8"):
        with pytest.raises(engine.TrumpNotAllowed) as refused:
            engine.apply(state, D, engine.Trump(T(vice_pick)))
        assert refused.value.code == "trump_not_allowed"


@pytest.mark.parametrize("bad", ["blue", "purple", "7", "1", "x", 7, None, "10", ""])
def test_trump_outside_the_display_is_refused(bad: object) -> None:
    with pytest.raises(engine.TrumpNotAllowed):
        apply_json(after_t1(), C, {"type": "trump", "trump": bad})


def test_t1_partner_options_and_refusals() -> None:
    state = engine.apply(after_t1(), C, engine.Trump(T.RED))
    state = engine.apply(state, D, engine.Trump(T.GREEN))
    prompt = engine.legal_prompt(state)
    assert engine.to_json(prompt) == {"type": "partner", "options": [A, B, E]}
    for bad in (C, D, 7, -1):
        with pytest.raises(engine.PartnerNotAllowed) as refused:
            engine.apply(state, D, engine.Partner(bad))
        assert refused.value.code == "partner_not_allowed"
    with pytest.raises(engine.BadAction):
        apply_json(state, D, {"type": "partner", "seat": "1"})
    state = engine.apply(state, D, engine.Partner(B))  # edge 16: B showed 1 card
    assert (state.partner, state.phase, state.to_move) == (B, "play", D)
    trumps = engine.view(state, None).trumps
    assert engine.to_json(trumps) == {"vice": "red", "chief": "green"}
