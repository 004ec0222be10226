"""Chief, vice and its tie-breaks, the no-vice cases (rules C11, C14, C15; T9, edges 4-6)."""

from __future__ import annotations

import engine

from .helpers import cards, passes, run_auction, stack

A, B, C, D, E = range(5)


def test_t9_vice_tie_broken_by_numbers_high_to_low() -> None:
    fixed = {
        A: cards("P0", "P2", "P3", "P4", "P5"),
        B: cards("R8", "R6", "Y6", "G1"),
        C: cards("Y8", "G6", "Bl5", "Bl4"),
    }
    script = [
        (A, fixed[A][:1]), (B, fixed[B][:2]), (C, fixed[C][:3]), *passes(D, E),
        (A, fixed[A][1:4]), (B, fixed[B][2:]), (C, fixed[C][3:]), *passes(D, E),
        (A, fixed[A][4:]), *passes(B, C, D, E, A),
    ]  # fmt: skip
    state = run_auction(engine.deal_from(stack(5, fixed), dealer=A), script)
    assert state.counts[:3] == [5, 4, 4]
    assert (state.chief, state.vice) == (A, B)  # 8-6-6-1 beats 8-6-5-4
    assert state.phase == "vice_trump"


def test_t9_identical_numbers_mean_no_vice() -> None:
    fixed = {A: cards("P0", "P2", "P3"), B: cards("R9", "G5"), C: cards("Bl9", "Y5")}
    script = [
        (A, fixed[A][:1]), (B, fixed[B]), (C, fixed[C]), *passes(D, E),
        (A, fixed[A][1:]), *passes(B, C, D, E, A),
    ]  # fmt: skip
    state = run_auction(engine.deal_from(stack(5, fixed), dealer=A), script)
    assert (state.chief, state.vice) == (A, None)
    assert state.phase == "chief_trump" and state.to_move == A
    assert engine.to_json(engine.view(state, None).trumps) == {"vice": None, "chief": None}


def test_edge_4_chief_alone_has_no_vice_and_any_partner() -> None:
    fixed = {A: cards("G7")}
    state = run_auction(
        engine.deal_from(stack(5, fixed), 0), [(A, fixed[A]), *passes(B, C, D, E, A)]
    )
    assert (state.chief, state.vice, state.bid) == (A, None, 1)
    prompt = engine.to_json(engine.legal_prompt(state))
    assert prompt == {"type": "trump", "role": "chief", "options": ["green", "7", "none"]}
    state = engine.apply(state, A, engine.Trump(engine.TrumpKind.NONE))
    assert engine.legal_prompt(state) == engine.PartnerPrompt((B, C, D, E))


def test_edge_6_three_players_no_vice_no_partner() -> None:
    colours = (0, 1, 2)
    fixed = {0: cards("R5", "R6"), 1: cards("Y5")}
    hands = stack(3, fixed, colours)
    script = [(0, fixed[0][:1]), (1, fixed[1]), (2, None), (0, fixed[0][1:]), *passes(1, 2, 0)]
    state = run_auction(engine.deal_from(hands, 0), script)
    assert (state.chief, state.vice) == (0, None)
    state = engine.apply(state, 0, engine.Trump(engine.TrumpKind.RED))
    assert state.phase == "play" and state.to_move == 0 and state.partner is None
