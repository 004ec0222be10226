"""Auction (rules C4-C13): small steps, underbids, re-entry, the end, Eklat and all-pass.
Test vectors T1-T3 of RULES.md and edge cases 1, 7, 8, 9, 19."""

from __future__ import annotations

import pytest

import engine
from engine.state import HandState

from .helpers import apply_json, card, cards, passes, run_auction, stack

A, B, C, D, E = range(5)

T1_HANDS = {
    A: cards("R6", "R2", "R9"),
    B: cards("Bl9"),
    C: cards("Y8", "G9", "R5"),
    D: cards("G1", "Bl1", "G8", "G7"),
    E: cards("R8"),
}
T1_SCRIPT = [
    (A, cards("R6")), (B, None), (C, cards("Y8")), (D, cards("G1", "Bl1")), (E, None),
    (A, cards("R2")), (B, cards("Bl9")), (C, cards("G9", "R5")), (D, None), (E, cards("R8")),
    (A, cards("R9")), (B, None), (C, None), (D, cards("G8", "G7")),
    *passes(E, A, B, C, D),
]  # fmt: skip


def t1_deal() -> HandState:
    return engine.deal_from(stack(5, T1_HANDS), dealer=A)


def max_cards(state: HandState) -> int:
    prompt = engine.legal_prompt(state)
    assert isinstance(prompt, engine.BidPrompt)
    return prompt.max_cards


def test_t1_limits_follow_small_steps() -> None:
    state = t1_deal()
    limits = {}
    for step, (seat, shown) in enumerate(T1_SCRIPT, start=1):
        limits[step] = state.counts[seat] + max_cards(state)  # the largest total allowed
        state = run_auction(state, [(seat, shown)])
    assert (limits[1], limits[4], limits[5], limits[8], limits[14]) == (1, 2, 3, 3, 4)


def test_t1_auction_ends_after_five_passes_with_chief_and_vice() -> None:
    state = run_auction(t1_deal(), T1_SCRIPT[:-1])
    assert state.phase == "auction" and state.to_move == D
    state = run_auction(state, T1_SCRIPT[-1:])
    assert state.counts == [3, 1, 3, 4, 1]
    assert (state.chief, state.bid, state.vice) == (D, 4, C)
    assert state.phase == "vice_trump" and state.to_move == C
    view = engine.view(state, C)
    assert view.team_goal == 33 and view.bid == 4


def test_t1_dealer_opens_with_exactly_one_card() -> None:
    state = t1_deal()
    assert state.to_move == A and max_cards(state) == 1
    with pytest.raises(engine.TooManyCards):
        engine.apply(state, A, engine.Bid(tuple(cards("R6", "R2"))))


def test_small_steps_refuses_more_than_one_over_the_highest() -> None:
    state = run_auction(t1_deal(), T1_SCRIPT[:3])
    with pytest.raises(engine.TooManyCards) as refused:
        engine.apply(state, D, engine.Bid(tuple(cards("G1", "Bl1", "G8"))))
    assert refused.value.code == "too_many_cards"
    assert state.counts[D] == 0 and len(state.hands[D]) == 12  # unchanged


def test_t2_eklat_scores_and_provocateur() -> None:
    script = [*T1_SCRIPT[:13], (D, cards("G8")), *passes(E, A, B, C, D)]
    state = run_auction(t1_deal(), script)
    assert state.phase == "over"
    result = engine.result(state)
    assert result is not None
    assert result.kind == "stalemate"
    assert result.tied == (A, C, D) and result.provocateur == D
    assert result.total == (15, 0, 15, -30, 0)
    assert result.card_points == (0, 0, 0, 0, 0)


def test_t3_all_pass() -> None:
    state = run_auction(t1_deal(), passes(A, B, C, D, E))
    result = engine.result(state)
    assert result is not None and result.kind == "all_passed"
    assert result.total == (0,) * 5


def test_passing_player_may_re_enter_and_underbid() -> None:
    state = run_auction(t1_deal(), T1_SCRIPT[:7])  # Beate passed at step 2, places at 7
    assert state.counts[B] == 1
    state = run_auction(state, T1_SCRIPT[7:10])  # Emma underbids 1 card against 3
    assert state.counts[E] == 1 and state.phase == "auction"


def test_edge_7_everyone_tied() -> None:
    openers = ("R6", "Bl9", "Y8", "G1", "R8")
    script = [(seat, [card(name)]) for seat, name in enumerate(openers)]
    state = run_auction(t1_deal(), [*script, *passes(A, B, C, D, E)])
    result = engine.result(state)
    assert result is not None and result.provocateur == E
    assert result.total == (5, 5, 5, 5, -10)


def test_edge_8_provocateur_is_the_tied_player_who_placed_last() -> None:
    hands = stack(5, {A: cards("R6", "R2"), B: cards("Bl9", "Y8"), C: cards("G9")})
    script = [
        (A, cards("R6")), (B, cards("Bl9", "Y8")), *passes(C, D, E),
        (A, cards("R2")), (B, None), (C, cards("G9")), *passes(D, E, A, B, C),
    ]  # fmt: skip
    state = run_auction(engine.deal_from(hands, dealer=A), script)
    result = engine.result(state)
    assert result is not None and result.tied == (A, B)
    assert result.provocateur == A  # Conny's later underbid does not matter
    assert result.total == (-20, 10, 0, 0, 0)


def test_edge_1_empty_hand_can_only_pass() -> None:
    state = engine.deal(3, 0, __import__("random").Random(5))
    while state.hands[2]:
        seat = state.to_move
        assert seat is not None
        k = max_cards(state)
        state = engine.apply(state, seat, engine.Bid(tuple(state.hands[seat][:k])))
    while state.to_move != 2:
        state = engine.apply(state, state.to_move, engine.Pass())
    assert max_cards(state) == 0 and state.legal_actions() == [60]
    with pytest.raises(engine.CardNotYours):
        engine.apply(state, 2, engine.Bid((state.displays[2][0],)))
    engine.apply(state, 2, engine.Pass())


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"type": "bid", "cards": []}, "no_cards"),
        ({"type": "bid", "cards": [card("Bl9")]}, "card_not_yours"),
        ({"type": "bid", "cards": "R6"}, "bad_action"),
        ({"type": "bid", "cards": [card("R6"), card("R6")]}, "bad_action"),
        ({"type": "play", "card": card("R6")}, "wrong_phase"),
        ({"type": "trump", "trump": "red"}, "wrong_phase"),
        ({"type": "partner", "seat": 1}, "wrong_phase"),
        ({"type": "dance"}, "bad_action"),
        ("pass", "bad_action"),
    ],
)
def test_edge_19_illegal_auction_actions(action: object, code: str) -> None:
    state = t1_deal()
    with pytest.raises(engine.IllegalAction) as refused:
        apply_json(state, A, action)
    assert refused.value.code == code
    assert state.counts == [0] * 5 and state.to_move == A and not state.auction_log


def test_displayed_card_cannot_be_shown_again() -> None:
    state = run_auction(t1_deal(), T1_SCRIPT[:5])
    with pytest.raises(engine.CardNotYours):
        engine.apply(state, A, engine.Bid(tuple(cards("R6"))))


def test_wrong_seat_is_refused() -> None:
    with pytest.raises(engine.NotYourTurn) as refused:
        engine.apply(t1_deal(), B, engine.Pass())
    assert refused.value.code == "not_your_turn"
