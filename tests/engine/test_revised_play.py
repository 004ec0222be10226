"""Revised edition trumps, partner and tricks (rules R9-R11): the Shield names the minor trump
and may name no trump, the Crown the major (never the Shield's, except no trump), colour +
number is the super trump; the partner is anyone but the Shield.  T13 and edge case 24."""

from __future__ import annotations

import pytest

import engine
from engine.enums import TrumpKind
from engine.state import HandState
from engine.trumps import trick_winner, trump_table

from .helpers import card, cards, passes, play, run_auction, stack

T = TrumpKind

CROWN, P1, SHIELD, P3 = range(4)
# T13 needs: seats 0 and 1 hold every red card; seat 1 no yellow and no 1 (void in trump in
# trick 2); seats 2 and 3 no red; the Crown shows yellows, the Shield a blue 1.
T13_HANDS = {
    CROWN: cards("Y8", "Y9", "R5", "P1", "R0", "R2", "R3") + [card("R1"), card("R1", 1)],
    P1: cards("R9", "R4", "R6", "R8", "G4", "G0", "G2", "G3", "G5", "G6", "G8", "G9", "Bl0")
    + [card("R7"), card("R7", 1)],
    SHIELD: cards("Bl1", "Y1"),
    P3: cards("Y0", "Y3"),
}


def t13_auction() -> HandState:
    hands = {seat: list(cs) for seat, cs in T13_HANDS.items()}
    state = engine.deal_from(stack(4, hands), CROWN, "revised")
    script = [(CROWN, cards("Y8", "Y9")), (P1, None), (SHIELD, cards("Bl1")), *passes(P3, 0, 1, 2)]
    return run_auction(state, script)


def prompt_options(state: HandState) -> list[str]:
    prompt = engine.legal_prompt(state)
    assert isinstance(prompt, engine.TrumpPrompt)
    return list(prompt.options)


def test_r9_the_shield_names_first_and_may_name_no_trump() -> None:
    state = t13_auction()
    assert (state.chief, state.vice, state.phase, state.to_move) == (0, 2, "vice_trump", 2)
    assert prompt_options(state) == ["blue", "1", "none"]
    with pytest.raises(engine.TrumpNotAllowed):
        engine.apply(state, SHIELD, engine.Trump(T.YELLOW))


@pytest.mark.parametrize(
    ("minor", "major_options"),
    [("1", ["yellow", "8", "9", "none"]), ("blue", ["yellow", "8", "9", "none"])],
)
def test_r9_the_crown_names_the_major_trump(minor: str, major_options: list[str]) -> None:
    state = engine.apply(t13_auction(), SHIELD, engine.Trump(T(minor)))
    assert state.to_move == CROWN and prompt_options(state) == major_options


def test_the_crown_may_not_name_the_shields_trump() -> None:
    hands = {CROWN: cards("Y8", "G8"), SHIELD: cards("Y5")}
    state = engine.deal_from(stack(4, hands), CROWN, "revised")
    script = [(CROWN, hands[CROWN]), (P1, None), (SHIELD, hands[SHIELD]), *passes(3, 0, 1, 2)]
    state = engine.apply(run_auction(state, script), SHIELD, engine.Trump(T.YELLOW))
    assert prompt_options(state) == ["green", "8", "none"]
    with pytest.raises(engine.TrumpNotAllowed) as refused:
        engine.apply(state, CROWN, engine.Trump(T.YELLOW))
    assert refused.value.code == "trump_not_allowed"


def test_edge_24_both_leaders_name_no_trump() -> None:
    state = engine.apply(t13_auction(), SHIELD, engine.Trump(T.NONE))
    assert "none" in prompt_options(state)  # "no trump" may be named by both
    state = engine.apply(state, CROWN, engine.Trump(T.NONE))
    assert engine.to_json(engine.view(state, None).trumps) == {"vice": "none", "chief": "none"}
    assert not any(state.trumps().is_trump(c) for c in range(60))


def test_r10_the_partner_is_anyone_but_the_shield() -> None:
    state = engine.apply(t13_auction(), SHIELD, engine.Trump(T.ONE))
    state = engine.apply(state, CROWN, engine.Trump(T.YELLOW))
    assert engine.to_json(engine.legal_prompt(state)) == {"type": "partner", "options": [P1, P3]}
    with pytest.raises(engine.PartnerNotAllowed):
        engine.apply(state, CROWN, engine.Partner(SHIELD))


def test_t13_the_rulebooks_two_tricks() -> None:
    state = engine.apply(t13_auction(), SHIELD, engine.Trump(T.ONE))
    state = engine.apply(state, CROWN, engine.Trump(T.YELLOW))
    state = engine.apply(state, CROWN, engine.Partner(P3))
    assert state.to_move == CROWN  # R11: the Crown leads
    state = play(state, "R5", "R9", "Bl1", "Y0")  # red led; minor 1 and major 0 trump it
    assert state.tricks[-1][2] == P3 and state.to_move == P3
    state = play(state, "Y3", "P1")  # trump led: only trumps follow
    prompt = engine.legal_prompt(state)
    assert isinstance(prompt, engine.PlayPrompt)
    assert prompt.must_follow is None  # seat 1 is void in trumps
    state = play(state, "G4", "Y1")
    assert state.tricks[-1][2] == SHIELD  # the super trump (yellow 1) wins


def test_t13_super_trump_order() -> None:
    table = trump_table(TrumpKind.ONE.code, TrumpKind.YELLOW.code)
    order = [card("Y1"), card("Y9"), card("Y0"), card("P1")]
    assert trick_winner(table, [card("R5"), card("R9"), card("G1"), card("Y0")]) == 3
    assert trick_winner(table, [card("Y3"), card("G1"), card("G4"), card("Y1")]) == 3
    ranks = [table.rank[c] for c in order]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == 4
    assert table.rank[card("Y1")] == table.rank[card("Y1", 1)]  # twins: first played wins
