"""A game of several hands: the score sheet, dealer rotation and the end (C3, C30, C31; T6)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine.enums import Outcome, TrumpKind
from engine.scoring import played_scores, stalemate_scores
from engine.variants import CLASSIC

from .helpers import passes

A, B, C, D, E = range(5)


def stalemate_result(counts: list[int], provocateur: int) -> engine.HandResult:
    scores = stalemate_scores(counts, provocateur)
    top = max(counts)
    return engine.HandResult(
        kind=Outcome.STALEMATE, bid=top, provocateur=provocateur, bonus=scores, total=scores,
        tied=tuple(s for s, c in enumerate(counts) if c == top), card_points=(0,) * 5,
    )  # fmt: skip


def played_result(
    bid: int, chief: int, partner: int, trump: str, points: list[int]
) -> engine.HandResult:
    s = played_scores(
        CLASSIC,
        bid=bid,
        chief=chief,
        partner=partner,
        chief_trump=TrumpKind(trump),
        card_points=points,
    )
    return engine.HandResult(
        kind=Outcome.PLAYED, bid=bid, chief=chief, partner=partner, chief_trump=TrumpKind(trump),
        team_goal=s.team_goal, team_points=s.team_points, success=s.success, level=s.level,
        shortfall=s.shortfall, card_points=s.card_points, bonus=s.bonus, total=s.total,
        team=s.team, opponents=s.opponents, winners=s.winners,
    )  # fmt: skip


def auction(game: engine.Game, script: list[tuple[int, None]]) -> engine.Game:
    """Passes through the game, each by the seat the script names."""
    for seat, _ in script:
        game = engine.play(game, seat, engine.Pass())
    return game


def test_t6_rulebook_example_9_score_sheet() -> None:
    game = engine.new_game(engine.GameOptions(players=5))
    game = engine.record_result(game, stalemate_result([4, 4, 1, 4, 0], provocateur=D))
    assert game.totals == (20, 20, 0, -40, 0)
    game = engine.record_result(game, played_result(5, C, D, "7", [11, 3, 22, 15, 9]))
    assert game.rows[-1].bonus == (0, 0, 60, 60, 0)
    assert game.totals == (31, 23, 82, 35, 9)
    game = engine.record_result(game, played_result(4, C, A, "red", [19, 13, 5, 3, 20]))
    assert game.rows[-1].bonus == (0, 15, -30, 15, 15)
    assert game.totals == (50, 51, 57, 53, 44)
    assert not game.over and game.winners == ()
    sheet = engine.scoresheet(game)
    assert [r.totals for r in sheet.rows] == [
        (20, 20, 0, -40, 0),
        (31, 23, 82, 35, 9),
        (50, 51, 57, 53, 44),
    ]
    assert [r.dealer for r in sheet.rows] == [0, 1, 2] and sheet.next_dealer == 3


def test_deal_rotates_left_after_every_kind_of_hand() -> None:
    game, rng = engine.new_game(engine.GameOptions(players=4), first_dealer=2), random.Random(3)
    game = engine.deal_next(game, rng)
    hand = game.hand
    assert hand is not None and hand.dealer == 2 and hand.to_move == 2
    game = auction(game, passes(2, 3, 0, 1))  # all pass (T3)
    assert game.next_dealer == 3 and game.hand_number == 1 and game.totals == (0, 0, 0, 0)
    assert game.rows[0].kind == "all_passed"
    game = engine.deal_next(game, rng)  # the second hand, dealt by the left neighbour
    assert game.hand is not None and game.hand.dealer == 3 and game.hand_number == 2


def test_game_ends_when_a_total_strictly_exceeds_the_target() -> None:
    game = engine.new_game(engine.GameOptions(players=5, target_score=40))
    game = engine.record_result(game, stalemate_result([4, 4, 1, 4, 0], provocateur=D))
    assert not game.over  # 20 is not > 40
    game = engine.record_result(game, stalemate_result([4, 4, 1, 0, 4], provocateur=E))
    assert game.totals == (40, 40, 0, -40, -40) and not game.over  # = target is not enough
    game = engine.record_result(game, stalemate_result([1, 1, 1, 0, 0], provocateur=C))
    assert game.over and game.winners == (A, B)  # joint winners on a tie
    with pytest.raises(ValueError):
        engine.deal_next(game, random.Random(1))


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
    {"players": 5, "target_score": 0},
    # Both ends at once; (leaving both out means the variant's default end, see above).
    {"players": 5, "target_score": 200, "hands": 4},
]


@pytest.mark.parametrize("bad", BAD_OPTIONS)
def test_bad_options(bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        engine.GameOptions(**bad)


def test_three_player_colours_are_random_and_recorded_or_fixed() -> None:
    seen = set()
    for seed in range(20):
        game = engine.deal_next(engine.new_game(engine.GameOptions(players=3)), random.Random(seed))
        assert game.hand is not None
        seen.add(engine.view(game.hand, None).colours)
        assert len(engine.deck(3)) == 36 and sum(len(h) for h in game.hand.hands) == 36
    assert len(seen) > 3
    fixed = engine.GameOptions(players=3, removed_colours=("red", "blue"))
    hand = engine.deal_next(engine.new_game(fixed), random.Random(1)).hand
    assert hand is not None
    assert engine.view(hand, 0).colours == ("yellow", "green", "purple")
