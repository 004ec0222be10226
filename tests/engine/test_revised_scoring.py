"""Revised edition scoring and game length (rules R7, R8, R12, R14): T14, the Shield team's
win, no bonus without a Shield (edge 21), no-trump tokens (edge 24), the unverified table
(edge 25), and a game of four hands."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

import engine
from engine.enums import TrumpKind
from engine.scoring import Scores, revised_scores
from engine.variants import REVISED, REVISED_VALUES, RevisedRules, RevisedValues

from .randomplay import random_action

DOR, FR, ROL, SA = range(4)


def t14(card_points: list[int], rules: RevisedRules = REVISED, **kw: Any) -> Scores:
    values: dict[str, Any] = {
        "bid": 7, "crown": FR, "partner": SA, "crown_trump": "yellow", "shield": ROL,
        "shield_bid": 6, "shield_trump": "1", "card_points": card_points,
    }  # fmt: skip
    values |= kw
    for key in ("crown_trump", "shield_trump"):
        if isinstance(values[key], str):
            values[key] = TrumpKind(values[key])
    return revised_scores(rules, **values)


def test_t14_the_rulebooks_score_sheet() -> None:
    r = t14([11, 38, 6, 5])
    assert (r.team_goal, r.team_points, r.success) == (42, 43, True)
    assert r.winning_team == "crown"
    assert r.bid_bonus == (0, 70, 0, 70) and r.trump_bonus == (0, 10, 0, 10)
    assert r.total == (11, 118, 6, 85)


def test_the_shield_team_wins_when_the_crown_team_falls_short() -> None:
    r = t14([20, 30, 5, 5])  # Crown team 35 < 42
    assert (r.success, r.winning_team) == (False, "shield")
    assert r.bid_bonus == (30, 0, 30, 0)  # 6 x 5 to every Shield-team member
    assert r.trump_bonus == (20, 0, 20, 0)  # the Shield's trump "1"
    assert r.total == (70, 30, 55, 5)  # no penalty for anyone


def test_r8_goal_met_exactly_wins() -> None:
    assert t14([10, 37, 8, 5]).winning_team == "crown"


def test_edge_21_no_shield_no_shield_win_bonus() -> None:
    r = t14([20, 30, 5, 5], shield=None, shield_bid=None, shield_trump=None)
    assert (r.success, r.winning_team) == (False, None)
    assert r.bonus == (0, 0, 0, 0) and r.total == (20, 30, 5, 5)


@pytest.mark.parametrize(
    ("trump", "token"), [("red", 10), ("1", 20), ("7", 20), ("0", 30), ("5", 30), ("none", 40)]
)
def test_edge_24_25_trump_tokens_of_the_unverified_table(trump: str, token: int) -> None:
    crown_bonus = t14([11, 38, 6, 5], crown_trump=trump).trump_bonus
    shield_bonus = t14([30, 20, 5, 5], shield_trump=trump).trump_bonus
    assert crown_bonus is not None and crown_bonus[FR] == token
    assert shield_bonus is not None and shield_bonus[DOR] == token


def test_edge_25_unverified_goals_and_one_place_to_change_them() -> None:
    assert [REVISED.goal(3, b) for b in (1, 15)] == [16, 44]  # out of 48
    for players in (4, 5, 6):
        sizes = REVISED.hand_size(players)
        assert [REVISED.goal(players, b) for b in range(1, sizes + 1)] == [
            engine.variants.CLASSIC.goal(players, b) for b in range(1, sizes + 1)
        ]
    other = RevisedRules(values=replace(REVISED_VALUES, bonus_colour=15, goals=((1, 1),) * 4))
    r = t14([1, 5, 6, 40], rules=other)
    assert r.trump_bonus is not None
    assert (r.team_goal, r.winning_team, r.trump_bonus[FR]) == (8, "crown", 15)
    assert RevisedValues() == REVISED_VALUES


def options(**kw: Any) -> engine.GameOptions:
    return engine.GameOptions(players=4, variant="revised", **kw)


def test_r14_a_revised_game_lasts_four_hands_unless_told_otherwise() -> None:
    assert (options().hands, options().target_score) == (4, None)
    assert (options(hands=2).hands, options(target_score=300).target_score) == (2, 300)
    assert options(target_score=300).hands is None
    classic = engine.GameOptions(players=4)
    assert (classic.target_score, classic.hands) == (200, None)
    assert engine.GameOptions(players=3, variant="revised", removed_colours=("red",))
    # Both ends at once is refused (leaving both out is the variant's default, above).
    both = {"target_score": 300, "hands": 2}
    for bad in ({"removed_colours": ("red", "blue")}, both, {"hands": 0}):
        with pytest.raises(ValueError):
            engine.GameOptions(players=3, variant="revised", **bad)


def test_a_whole_revised_game_through_the_public_api() -> None:
    rng = random.Random(11)
    game = engine.new_game(options(), first_dealer=1)
    while not game.over:
        game = engine.deal_next(game, rng)
        while game.hand is not None and not game.hand.is_over:
            game = engine.play(game, game.hand.to_move, random_action(game.hand, rng))
    sheet = engine.scoresheet(game)
    assert sheet.variant == "revised" and sheet.roles.chief == "crown"
    played = [row for row in sheet.rows if row.kind == "played"]
    assert len(played) == 4 and game.hands_played == 4
    for row in played:
        keys = engine.to_json(row)
        assert isinstance(keys, dict)
        assert {"winning_team", "bid_bonus", "trump_bonus", "shield_bid"} <= keys.keys()
        assert row.bid_bonus is not None and row.trump_bonus is not None  # R12, every row
    assert [row.dealer for row in sheet.rows] == [(1 + i) % 4 for i in range(len(sheet.rows))]
    assert list(game.totals) == [sum(r.score[s] for r in sheet.rows) for s in range(4)]
    assert game.winners and all(game.totals[s] == max(game.totals) for s in game.winners)
