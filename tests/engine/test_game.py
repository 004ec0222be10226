"""A game of several hands: the score sheet, dealer rotation and the end (C3, C30, C31; T6)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine.scoring import played_scores, stalemate_scores
from engine.variants import CLASSIC

from .helpers import passes, run_auction

A, B, C, D, E = range(5)


def stalemate_result(counts: list[int], provocateur: int) -> dict[str, Any]:
    scores = stalemate_scores(counts, provocateur)
    top = max(counts)
    return blank(kind="stalemate", bid=top, provocateur=provocateur, bonus=scores, total=scores,
                 tied=[s for s, c in enumerate(counts) if c == top])  # fmt: skip


def blank(**values: Any) -> dict[str, Any]:
    keys = ("chief", "vice", "partner", "vice_trump", "chief_trump", "team_goal", "team_points",
            "success", "shortfall", "provocateur")  # fmt: skip
    return {**dict.fromkeys(keys), "tied": [], "card_points": [0] * 5, **values}


def played_result(
    bid: int, chief: int, partner: int, trump: str, points: list[int]
) -> dict[str, Any]:
    scores = played_scores(
        CLASSIC, bid=bid, chief=chief, partner=partner, chief_trump=trump, card_points=points
    )
    return blank(kind="played", bid=bid, chief=chief, partner=partner, chief_trump=trump, **scores)


def test_t6_rulebook_example_9_score_sheet() -> None:
    game = engine.new_game(engine.GameOptions(players=5))
    game = engine.record_result(game, stalemate_result([4, 4, 1, 4, 0], provocateur=D))
    assert game.totals == (20, 20, 0, -40, 0)
    game = engine.record_result(game, played_result(5, C, D, "7", [11, 3, 22, 15, 9]))
    assert game.rows[-1]["bonus"] == [0, 0, 60, 60, 0]
    assert game.totals == (31, 23, 82, 35, 9)
    game = engine.record_result(game, played_result(4, C, A, "red", [19, 13, 5, 3, 20]))
    assert game.rows[-1]["bonus"] == [0, 15, -30, 15, 15]
    assert game.totals == (50, 51, 57, 53, 44)
    assert not game.over and game.winners == ()
    sheet = engine.scoresheet(game)
    assert [r["totals"] for r in sheet["rows"]] == [
        [20, 20, 0, -40, 0],
        [31, 23, 82, 35, 9],
        [50, 51, 57, 53, 44],
    ]
    assert [r["dealer"] for r in sheet["rows"]] == [0, 1, 2] and sheet["next_dealer"] == 3


def test_deal_rotates_left_after_every_kind_of_hand() -> None:
    game, rng = engine.new_game(engine.GameOptions(players=4), first_dealer=2), random.Random(3)
    hand = engine.start_hand(game, rng)
    assert hand.dealer == 2 and hand.to_move == 2
    hand = run_auction(hand, passes(2, 3, 0, 1))  # all pass (T3)
    game = engine.record_hand(game, hand)
    assert game.dealer == 3 and game.hand_number == 2 and game.totals == (0, 0, 0, 0)
    assert game.rows[0]["kind"] == "all_passed"


def test_game_ends_when_a_total_strictly_exceeds_the_target() -> None:
    game = engine.new_game(engine.GameOptions(players=5, target_score=40))
    game = engine.record_result(game, stalemate_result([4, 4, 1, 4, 0], provocateur=D))
    assert not game.over  # 20 is not > 40
    game = engine.record_result(game, stalemate_result([4, 4, 1, 0, 4], provocateur=E))
    assert game.totals == (40, 40, 0, -40, -40) and not game.over  # = target is not enough
    game = engine.record_result(game, stalemate_result([1, 1, 1, 0, 0], provocateur=C))
    assert game.over and game.winners == (A, B)  # joint winners on a tie
    with pytest.raises(ValueError):
        engine.start_hand(game, random.Random(1))


def test_game_of_fixed_hands() -> None:
    game = engine.new_game(engine.GameOptions(players=5, hands=2))
    assert game.options.target_score is None
    game = engine.record_result(game, stalemate_result([4, 4, 1, 4, 0], provocateur=D))
    game = engine.record_result(game, stalemate_result([0, 0, 1, 1, 0], provocateur=C))
    assert game.over and game.winners == (A, B)


BAD_OPTIONS = [
    {"players": 2},
    {"players": 5, "variant": "x"},
    {"players": 5, "hands": 0},
    {"players": 5, "target_score": None},
]


@pytest.mark.parametrize("bad", BAD_OPTIONS)
def test_bad_options(bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        engine.GameOptions(**bad)


def test_three_player_colours_are_random_and_recorded_or_fixed() -> None:
    seen = set()
    for seed in range(20):
        hand = engine.start_hand(
            engine.new_game(engine.GameOptions(players=3)), random.Random(seed)
        )
        seen.add(tuple(engine.view(hand, None)["colours"]))
        assert len(engine.deck(3)) == 36 and sum(len(h) for h in hand.hands) == 36
    assert len(seen) > 3
    fixed = engine.GameOptions(players=3, removed_colours=("red", "blue"))
    hand = engine.start_hand(engine.new_game(fixed), random.Random(1))
    assert engine.view(hand, 0)["colours"] == ["yellow", "green", "purple"]
