"""Scoring (rules C26-C29): T4, T5, T7, T8 and edges 14, 15."""

from __future__ import annotations

import pytest

from engine.enums import TrumpKind
from engine.scoring import Scores, played_scores, stalemate_scores
from engine.variants import CLASSIC

A, B, C, D, E = range(5)


def five(
    *, bid: int, chief: int, partner: int | None, chief_trump: str, card_points: list[int]
) -> Scores:
    return played_scores(
        CLASSIC,
        bid=bid,
        chief=chief,
        partner=partner,
        chief_trump=TrumpKind(chief_trump),
        card_points=card_points,
    )


@pytest.mark.parametrize(
    ("trump", "bonus"), [("red", 40), ("1", 50), ("7", 50), ("3", 60), ("none", 70)]
)
def test_t4_bonus_for_chief_and_partner(trump: str, bonus: int) -> None:
    r = five(bid=4, chief=D, partner=A, chief_trump=trump, card_points=[10, 5, 5, 30, 10])
    assert r.success and r.bonus == (bonus, 0, 0, bonus, 0)
    assert r.total == (10 + bonus, 5, 5, 30 + bonus, 10)


def test_t5_failure_penalty_level_two() -> None:
    r = five(bid=4, chief=D, partner=A, chief_trump="red", card_points=[9, 10, 11, 20, 10])
    assert (r.team_goal, r.team_points, r.level, r.shortfall) == (33, 29, 2, 2)
    assert r.bonus == (0, 10, 10, -20, 10)


def test_t5_variant_level_zero() -> None:
    r = five(bid=4, chief=D, partner=A, chief_trump="red", card_points=[3, 12, 12, 20, 13])
    assert r.shortfall == 4 and r.bonus == (0, 20, 20, -40, 20)


def test_t7_goal_and_level_function() -> None:
    assert CLASSIC.achieved_level(4, 31) == 1  # bid 4 in 4p -> d = 3
    assert (CLASSIC.goal(4, 15), CLASSIC.goal(5, 12), CLASSIC.goal(6, 10), CLASSIC.goal(3, 12)) == (
        58,
        57,
        56,
        34,
    )
    r = played_scores(
        CLASSIC, bid=3, chief=0, partner=None, chief_trump=TrumpKind.RED, card_points=[11, 12, 13]
    )
    assert r.shortfall == 3 and r.bonus == (-30, 15, 15)


def test_t7_goal_tables_match_rulebook() -> None:
    rows = {
        3: [12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34],
        4: [30, 32, 34, 36, 38, 40, 42, 44, 46, 48, 50, 52, 54, 56, 58],
        5: [24, 27, 30, 33, 36, 39, 42, 45, 48, 51, 54, 57],
        6: [20, 24, 28, 32, 36, 40, 44, 48, 52, 56],
    }
    for players, goals in rows.items():
        assert [CLASSIC.goal(players, b) for b in range(1, len(goals) + 1)] == goals
        assert len(goals) == CLASSIC.hand_size(players)


T8 = [
    (1, "red", 10), (1, "1", 20), (1, "7", 20), (1, "4", 30), (1, "none", 40), (7, "none", 100),
    (8, "none", 100), (9, "7", 100), (8, "5", 100), (10, "red", 100), (12, "red", 100),
    (5, "7", 60),
]  # fmt: skip


@pytest.mark.parametrize(("bid", "trump", "bonus"), T8)
def test_t8_bonus_function(bid: int, trump: str, bonus: int) -> None:
    assert CLASSIC.bonus(bid, TrumpKind(trump).bonus_class) == bonus


def test_edge_14_goal_met_exactly_is_success() -> None:
    r = five(bid=4, chief=D, partner=A, chief_trump="red", card_points=[13, 9, 9, 20, 9])
    assert r.team_points == 33 and r.success and r.bonus[D] == 40


def test_edge_15_zero_team_points() -> None:
    r = five(bid=5, chief=D, partner=A, chief_trump="red", card_points=[0, 20, 20, 0, 20])
    assert r.shortfall == 5 and r.bonus == (0, 25, 25, -50, 25)


def test_stalemate_scores() -> None:
    assert stalemate_scores([4, 4, 2, 4, 0], provocateur=D) == (20, 20, 0, -40, 0)


def test_c29_level_is_the_highest_bid_whose_goal_the_points_meet() -> None:
    """achieved_level's closed form against the rule's own words, for every score."""
    for players in (3, 4, 5, 6):
        bids = range(1, CLASSIC.hand_size(players) + 1)
        for points in range(-5, 70):
            met = [b for b in bids if CLASSIC.goal(players, b) <= points]
            assert CLASSIC.achieved_level(players, points) == max(met, default=0)
