"""Card play (rules C20-C25): following suit with trumps as one suit, number trumps leaving
their colour, the trump order with double trumps, "first played wins".  T10, T11, edges 3,
11-13.  The scenarios are set up directly in the play phase (white-box); whole hands through
the public API are covered by test_random_play.py and the T1 flow in test_choices.py."""

from __future__ import annotations

import pytest

import engine
from engine.enums import TrumpKind
from engine.state import PLAY, HandState
from engine.trumps import NO_TRUMP, trick_rank, trick_winner, trump_table

from .helpers import card, cards, play, stack


def in_play(
    players: int,
    fixed: dict[int, list[int]],
    *,
    vice: str | None,
    chief: str,
    leader: int = 0,
    displays: dict[int, list[int]] | None = None,
) -> HandState:
    """A hand in the play phase with ``leader`` to lead (seat 0 is the chief)."""
    state = engine.deal_from(stack(players, fixed), dealer=players - 1)
    for seat, shown in (displays or {}).items():
        for c in shown:
            state.hands[seat].remove(c)
            state.displays[seat].append(c)
    state.chief, state.vice = 0, (1 if vice else None)
    state.vice_kind = TrumpKind(vice).code if vice else None
    state.chief_kind = TrumpKind(chief).code
    state.table = trump_table(state.vice_kind if vice else NO_TRUMP, state.chief_kind)
    state.phase_id, state.to_move = PLAY, leader
    return state


def winner_of_last_trick(state: HandState) -> int:
    return state.tricks[-1][2]


def test_t10_double_trumps_then_number_trumps_then_vice_colour() -> None:
    table = trump_table(TrumpKind.RED.code, TrumpKind.SEVEN.code)
    r7, r7b, y7, b7 = card("R7"), card("R7", 1), card("Y7"), card("Bl7")
    order = [r7, y7, card("R9"), card("R8"), card("R0")]
    ranks = [table.rank[c] for c in order]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == len(ranks)
    assert table.rank[r7] == table.rank[r7b] and table.rank[y7] == table.rank[b7]
    assert trick_winner(table, [y7, r7, b7, r7b, card("R9")]) == 1  # earlier double wins
    assert trick_winner(table, [card("R9"), y7, b7]) == 1  # chief over vice; first 7 wins
    assert table.suit[r7] == table.suit[y7] == table.suit[card("R0")]  # one trump suit


def test_t10_chief_colour_zero_beats_every_vice_trump() -> None:
    table = trump_table(TrumpKind.RED.code, TrumpKind.GREEN.code)
    assert trick_winner(table, [card("R9"), card("G0")]) == 1  # "Grün über Rot"


def test_t11_number_trump_leaves_its_colour() -> None:
    no_other_red = cards("R6", "Y3", "Y4", "Y5", "G2", "G3", "G4", "G5", "Bl2", "Bl3")
    fixed = {0: cards("R5", "Y2"), 1: no_other_red, 2: cards("R9")}
    state = in_play(6, fixed, vice=None, chief="6")
    state = play(state, "R5")
    legal = state.legal_plays(1)
    assert set(legal) == set(state.playable(1))  # void in red: the red 6 is a trump
    state = play(state, "R6", "R9")
    assert engine.legal_prompt(state) is not None
    state = play(state, *list(state.legal_plays(3)[:1]))
    state = play(state, state.legal_plays(4)[0], state.legal_plays(5)[0])
    assert winner_of_last_trick(state) == 1


def test_edge_13_number_trump_lead_must_be_followed_by_any_trump() -> None:
    fixed = {0: cards("Y6"), 1: cards("R2", "Y3", "Y4")}
    state = in_play(6, fixed, vice="red", chief="6")
    state = play(state, "Y6")
    prompt = engine.legal_prompt(state)
    assert isinstance(prompt, engine.PlayPrompt) and prompt.must_follow == "trump"
    assert card("R2") in prompt.cards and card("Y3") not in prompt.cards
    with pytest.raises(engine.MustFollowSuit) as refused:
        play(state, "Y3")
    assert refused.value.code == "must_follow_suit"


def test_follow_suit_counts_the_display() -> None:
    only_green_shown = cards("G2", "Y3", "Y4", "Y5", "Y0", "Bl2", "Bl3", "Bl4", "Bl5", "Bl0")
    fixed = {0: cards("G5"), 1: only_green_shown}
    state = in_play(6, fixed, vice=None, chief="none", displays={1: cards("G2")})
    state = play(state, "G5")
    assert state.legal_plays(1) == cards("G2")
    state = play(state, "G2")
    assert card("G2") not in state.displays[1]
    assert engine.view(state, 2).displays[1] == ()


def test_edge_11_no_trumps_highest_of_led_colour_wins() -> None:
    fixed = {0: cards("R3"), 1: cards("Y9"), 2: cards("R5"), 3: cards("R4")}
    state = in_play(4, fixed, vice=None, chief="none")
    state = play(state, "R3", "Y9", "R5", "R4")
    assert winner_of_last_trick(state) == 2 and state.to_move == 2
    assert state.tricks[-1][3] == 3  # R3, R5 and R4 are worth 1 each, Y9 nothing


def test_twin_cards_first_played_wins() -> None:
    fixed = {0: [card("R1")], 1: [card("R1", 1)], 2: cards("R0"), 3: cards("Y9")}
    state = in_play(4, fixed, vice=None, chief="none")
    state = play(state, card("R1"), card("R1", 1), "R0", "Y9")
    assert winner_of_last_trick(state) == 0


def test_card_not_yours_and_wrong_turn_in_play() -> None:
    state = in_play(4, {0: cards("R3"), 1: cards("Y9")}, vice=None, chief="none")
    with pytest.raises(engine.CardNotYours):
        play(state, "Y9")
    with pytest.raises(engine.NotYourTurn):
        engine.apply(state, 1, engine.Play(card("Y9")))
    with pytest.raises(engine.WrongPhase):
        engine.apply(state, 0, engine.Pass())


def test_hand_ends_after_all_cards_and_winner_leads() -> None:
    state = in_play(6, {}, vice=None, chief="red")
    while state.phase != "over":
        assert state.to_move is not None
        state = engine.apply(state, state.to_move, engine.Play(state.legal_plays(state.to_move)[0]))
        if state.trick == [] and state.phase == "play":
            assert state.to_move == state.tricks[-1][2]
    assert len(state.tricks) == 10 and sum(state.points_won) == 60
    assert engine.apply  # the finished hand refuses everything:
    with pytest.raises(engine.HandOver):
        engine.apply(state, 0, engine.Pass())


def test_led_rank_tables_agree_with_trick_rank_for_every_configuration() -> None:
    kinds = range(16)
    for vice in kinds:
        for chief in kinds:
            if vice == chief and vice != NO_TRUMP:
                continue
            table = trump_table(vice, chief)
            for led in range(6):
                assert table.by_led[led] == tuple(trick_rank(table, c, led) for c in range(60))
