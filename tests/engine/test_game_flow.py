"""The game flow in engine.Game (C3, C30, C31; R6, R14): deal_next, play recording finished
hands, needs_deal, over, winners, last_result, hand_number, next_dealer, game_view."""

from __future__ import annotations

import random

import pytest

import engine
from engine import Pass

from .randomplay import random_action


def step(game: engine.Game, rng: random.Random) -> engine.Game:
    """One random legal action in the hand being played."""
    hand = game.hand
    assert hand is not None and not hand.is_over
    return engine.play(game, hand.to_move, random_action(hand, rng))


def check_invariants(game: engine.Game) -> None:
    opts, n = game.options, game.options.players
    assert len(game.rows) <= game.hand_number <= len(game.rows) + 1
    assert game.totals == tuple(sum(row.score[s] for row in game.rows) for s in range(n))
    if game.rows:
        assert game.rows[-1].totals == game.totals
        assert game.last_result is not None and game.rows[-1].score == game.last_result.total
    if opts.target_score is not None:
        assert game.over == any(t > opts.target_score for t in game.totals)
    else:
        assert game.over == (game.hands_played >= (opts.hands or 0))
    if game.over:
        assert game.next_dealer is None and not game.needs_deal
        assert game.winners and {game.totals[s] for s in game.winners} == {max(game.totals)}
    else:
        assert game.winners == ()
        assert game.next_dealer == (game.first_dealer + game.hand_number) % n
    in_play = game.hand is not None and not game.hand.is_over
    assert game.needs_deal == (not game.over and not in_play)
    assert [row.hand for row in game.rows] == list(range(1, len(game.rows) + 1))
    assert [row.dealer for row in game.rows] == [
        (game.first_dealer + i) % n for i in range(len(game.rows))
    ]


def test_a_classic_game_to_a_target_score() -> None:
    rng = random.Random(21)
    game = engine.new_game(engine.GameOptions(players=5, target_score=60), first_dealer=3)
    assert (game.hand_number, game.next_dealer, game.needs_deal) == (0, 3, True)
    assert game.hand is None and game.last_result is None and not game.over
    with pytest.raises(engine.HandOver):
        engine.play(game, 3, Pass())  # nothing dealt yet
    deals = 0
    while not game.over:
        check_invariants(game)
        if game.needs_deal:
            before = game.hand_number
            game = engine.deal_next(game, rng)
            deals += 1
            assert game.hand is not None and game.hand_number == before + 1 == deals
            assert game.hand.dealer == (3 + deals - 1) % 5
            with pytest.raises(ValueError):
                engine.deal_next(game, rng)  # a hand is being played
            nothing = engine.HandResult(kind=engine.Outcome.ALL_PASSED, total=(0,) * 5)
            with pytest.raises(ValueError):
                engine.record_result(game, nothing)
            continue
        rows = len(game.rows)
        game = step(game, rng)
        assert game.hand is not None
        if game.hand.is_over:  # recorded at once
            assert len(game.rows) == rows + 1
            assert game.last_result == engine.result(game.hand)
        else:
            assert len(game.rows) == rows
    check_invariants(game)
    assert len(game.rows) == deals > 1 and max(game.totals) > 60
    with pytest.raises(ValueError):
        engine.deal_next(game, rng)  # the game is over
    assert game.hand is not None and game.hand.is_over  # the last hand stays on show
    with pytest.raises(engine.HandOver):
        engine.play(game, 0, Pass())


def test_a_revised_game_of_fixed_hands_where_a_redeal_does_not_count() -> None:
    rng = random.Random(5)
    game = engine.new_game(engine.GameOptions(players=4, variant="revised", hands=2), 1)
    game = engine.deal_next(game, rng)
    for seat in (1, 2, 3, 0):  # nobody shows a card: a redeal (R6)
        game = engine.play(game, seat, Pass())
    check_invariants(game)
    assert game.last_result is not None and game.last_result.kind == "redeal"
    assert (game.hand_number, game.hands_played, game.next_dealer) == (1, 0, 2)
    assert game.needs_deal and not game.over
    while not game.over:
        game = engine.deal_next(game, rng) if game.needs_deal else step(game, rng)
        check_invariants(game)
    assert game.hands_played == 2 and len(game.rows) >= 3
    assert sum(row.kind != "redeal" for row in game.rows) == 2


def test_game_view_shows_the_hand_redacted_and_the_game_around_it() -> None:
    rng = random.Random(8)
    game = engine.new_game(engine.GameOptions(players=3), first_dealer=0)
    before = engine.game_view(game, 1)
    assert before.hand is None and before.hand_number == 0 and before.next_dealer == 0
    assert before.variant == "classic" and before.players == 3 and before.totals == (0, 0, 0)
    game = engine.deal_next(game, rng)
    assert game.hand is not None
    for seat in (None, 0, 1, 2):
        seen = engine.game_view(game, seat)
        assert seen.hand == engine.view(game.hand, seat)
        assert (seen.hand_number, seen.over, seen.winners, seen.last_result) == (1, False, (), None)
    data = engine.to_json(engine.game_view(game, 1))
    assert isinstance(data, dict) and data["hand"]["seat"] == 1 and data["next_dealer"] == 1


def test_record_result_writes_down_a_hand_played_elsewhere() -> None:
    game = engine.new_game(engine.GameOptions(players=3, hands=1), first_dealer=2)
    result = engine.HandResult(kind=engine.Outcome.PLAYED, total=(10, -20, 30))
    game = engine.record_result(game, result)
    assert game.over and game.winners == (2,) and game.last_result is result
    assert game.rows[0].dealer == 2 and game.rows[0].score == (10, -20, 30)
    assert game.hand is None and game.hand_number == 1
    with pytest.raises(ValueError):
        engine.record_result(game, result)  # over


def test_new_game_needs_a_real_dealer_seat() -> None:
    with pytest.raises(ValueError):
        engine.new_game(engine.GameOptions(players=4), first_dealer=4)
