"""Revised edition auction (rules R4-R6): no small steps, the Crown and the Shield moving with
every placement, no Eklat, a lone displayer, nobody displaying.  T12 of RULES.md and edge
cases 20-22."""

from __future__ import annotations

import random

import pytest

import engine
from engine.state import HandState

from .helpers import Step, apply_json, card, cards, passes, run_auction, stack

A, B, C, D, E = range(5)
FR, ROL, DOR, SA = range(4)  # the rulebook's Frank, Roland, Doris and Sabine, clockwise


def revised(players: int, fixed: dict[int, list[int]], dealer: int = 0) -> HandState:
    return engine.deal_from(stack(players, fixed), dealer, "revised")


def holders(state: HandState) -> tuple[int | None, int | None]:
    view = engine.view(state, None)
    assert (view.chief, view.vice) == (view.crown, view.shield)
    return view.crown, view.shield


def replay(state: HandState, script: list[Step]) -> list[tuple[int | None, int | None]]:
    """The (Crown, Shield) holders after every step of ``script``."""
    seen = []
    for step in script:
        state = run_auction(state, [step])
        seen.append(holders(state))
    return seen


T12_HANDS = {FR: cards("R6", "R2"), ROL: cards("Bl9"), DOR: cards("Y8", "G9", "R5")}


def test_t12_tokens_move_as_in_the_rulebook() -> None:
    state = revised(4, T12_HANDS, dealer=FR)
    script = [(FR, T12_HANDS[FR]), (ROL, T12_HANDS[ROL]), (DOR, T12_HANDS[DOR])]
    assert replay(state, script) == [(FR, None), (FR, ROL), (DOR, FR)]  # Roland holds nothing
    state = run_auction(state, [*script, *passes(SA, FR, ROL, DOR)])
    assert (state.chief, state.vice, state.bid) == (DOR, FR, 3)
    assert state.phase == "vice_trump" and state.to_move == FR  # the Shield names first (R9)
    view = engine.view(state, SA)
    assert engine.to_json(view.roles) == {"chief": "crown", "vice": "shield"}
    assert (view.bid, view.team_goal) == (3, 34)


def test_r4_no_small_steps_the_dealer_may_open_with_anything() -> None:
    state = revised(4, T12_HANDS, dealer=FR)
    prompt = engine.legal_prompt(state)
    assert engine.to_json(prompt) == {"type": "bid", "max_cards": 15, "can_pass": True}
    state = engine.apply(state, FR, engine.Bid(tuple(state.hands[FR][:15])))
    assert state.counts[FR] == 15 and engine.legal_prompt(state) == prompt


def test_live_holders_in_views_during_the_auction() -> None:
    state = revised(4, T12_HANDS, dealer=FR)
    view = engine.view(state, ROL)
    assert (view.crown, view.shield, view.auction_leader) == (None, None, None)
    state = run_auction(state, [(FR, T12_HANDS[FR]), (ROL, T12_HANDS[ROL])])
    view = engine.view(state, None)
    assert (view.crown, view.shield, view.auction_leader) == (FR, ROL, FR)
    assert view.phase == "auction" and view.kitty is None and view.discards is None


def test_classic_views_name_chief_and_vice() -> None:
    view = engine.view(engine.deal(5, 0, random.Random(1)), None)
    assert engine.to_json(view.roles) == {"chief": "chief", "vice": "vice"}
    assert view.crown is None and view.shield is None  # no Crown in the classic game


def test_r5_new_shields_and_a_shield_overtaking_the_crown() -> None:
    hands = {A: cards("R6", "R2", "R9"), B: cards("Bl9", "Bl8", "Bl7")}
    hands[C] = cards("Y8", "G9", "Y7", "G8")
    script: list[Step] = [
        (A, cards("R6", "R2", "R9")),  # first Crown
        (B, cards("Bl9")),  # first Shield: fewer than the Crown
        (C, cards("Y8", "G9")),  # new Shield: more than the Shield, not more than the Crown
        (D, None), (E, None), (A, None),
        (B, cards("Bl8", "Bl7")),  # new Shield: 3, as many as the Crown
        (C, cards("Y7", "G8")),  # the Shield-less C shows 4: new Crown, A drops to Shield
    ]  # fmt: skip
    assert replay(revised(5, hands), script) == [
        (A, None), (A, B), (A, C), (A, C), (A, C), (A, C), (A, B), (C, A),
    ]  # fmt: skip


def test_r5_the_shield_overtaking_the_crown_swaps_them() -> None:
    hands = {A: cards("R6", "R2"), B: cards("Bl9", "Bl8", "Bl7")}
    script = [(A, hands[A]), (B, cards("Bl9")), *passes(C, D, E, A), (B, cards("Bl8", "Bl7"))]
    assert replay(revised(5, hands), script)[-1] == (B, A)


def test_r5_old_crown_takes_the_shield_from_its_holder() -> None:
    hands = {A: cards("R6"), B: cards("Bl9"), C: cards("Y8", "G9")}
    script = [(A, hands[A]), (B, hands[B]), (C, hands[C])]
    assert replay(revised(5, hands), script) == [(A, None), (A, B), (C, A)]


def test_r5_the_crown_raising_itself_changes_nothing() -> None:
    hands = {A: cards("R6", "R2"), B: cards("Bl9")}
    script = [(A, cards("R6")), (B, hands[B]), *passes(C, D, E), (A, cards("R2"))]
    assert replay(revised(5, hands), script)[-1] == (A, B)


def test_edge_20_ties_never_take_over_and_no_eklat() -> None:
    hands = {A: cards("R6", "R2"), B: cards("Bl9", "Bl8"), C: cards("Y8", "G9")}
    script = [(A, hands[A]), (B, hands[B]), (C, hands[C]), *passes(D, E, A, B, C)]
    state = run_auction(revised(5, hands), script)
    assert state.counts == [2, 2, 2, 0, 0]
    assert (state.chief, state.vice) == (A, B)  # the Shield may equal the Crown
    assert state.phase == "vice_trump" and engine.result(state) is None


def test_edge_20_roles_come_from_the_order_of_placements_not_the_final_counts() -> None:
    hands = {A: cards("R6", "R2"), B: cards("Bl9", "Bl8"), C: cards("Y8", "G9")}
    script = [
        (A, cards("R6")), (B, hands[B]), (C, cards("Y8")), *passes(D, E),
        (A, cards("R2")), (B, None), (C, cards("G9")), *passes(D, E, A, B, C),
    ]  # fmt: skip
    state = run_auction(revised(5, hands), script)
    assert state.counts == [2, 2, 2, 0, 0]
    assert (state.chief, state.vice) == (B, A)


def test_edge_21_a_lone_displayer_is_Crown_without_Shield() -> None:
    hands = {A: cards("G7", "G5")}
    state = run_auction(revised(5, hands), [(A, hands[A]), *passes(B, C, D, E, A)])
    assert (state.chief, state.vice, state.bid) == (A, None, 2)
    prompt = engine.to_json(engine.legal_prompt(state))
    assert prompt == {"type": "trump", "role": "chief", "options": ["green", "5", "7", "none"]}
    state = engine.apply(state, A, engine.Trump(engine.TrumpKind.SEVEN))
    assert engine.to_json(engine.legal_prompt(state)) == {
        "type": "partner",
        "options": [B, C, D, E],
    }
    assert engine.to_json(engine.view(state, None).trumps) == {"vice": None, "chief": "7"}


def test_edge_22_nobody_displays_a_redeal() -> None:
    state = run_auction(revised(4, {}, dealer=2), passes(2, 3, 0, 1))
    assert state.phase == "over" and state.to_move is None
    result = engine.result(state)
    assert result is not None
    assert (result.kind, result.variant, result.winning_team) == ("redeal", "revised", None)
    assert result.total == result.bonus == result.card_points == (0,) * 4
    with pytest.raises(engine.HandOver):
        engine.apply(state, 2, engine.Pass())


def test_edge_22_the_game_records_a_redeal_and_deals_again_to_the_left() -> None:
    game = engine.new_game(engine.GameOptions(players=4, variant="revised", hands=1), 2)
    game = engine.deal_next(game, random.Random(4))
    for seat in (2, 3, 0, 1):
        game = engine.play(game, seat, engine.Pass())
    assert game.rows[0].kind == "redeal" and game.totals == (0, 0, 0, 0)
    assert game.next_dealer == 3 and game.hand_number == 1 and game.needs_deal
    assert not game.over and game.hands_played == 0  # a redeal is not one of the hands
    game = engine.deal_next(game, random.Random(5))
    assert game.hand is not None and game.hand.dealer == 3 and game.hand_number == 2


def test_illegal_auction_actions_keep_their_codes() -> None:
    state = revised(4, T12_HANDS, dealer=FR)
    for action, code in [
        ({"type": "bid", "cards": []}, "no_cards"),
        ({"type": "bid", "cards": [card("Bl9")]}, "card_not_yours"),
        ({"type": "discard", "cards": cards("R6", "R2")}, "wrong_phase"),
        ({"type": "trump", "trump": "red"}, "wrong_phase"),
    ]:
        with pytest.raises(engine.IllegalAction) as refused:
            apply_json(state, FR, action)
        assert refused.value.code == code
