"""engine.review_summary: a game's reviewed decisions, per player, by the stated thresholds."""

from __future__ import annotations

import pytest

from engine.review import HandReview
from engine.review_summary import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    Costly,
    Loss,
    Severity,
    losses,
    severity,
    summarize,
)


@pytest.mark.parametrize(
    ("loss", "kind"),
    [
        (0.0, None),
        (0.5, None),
        (1.99, None),
        (2.0, Severity.INACCURACY),
        (4.99, Severity.INACCURACY),
        (5.0, Severity.MISTAKE),
        (9.99, Severity.MISTAKE),
        (10.0, Severity.BLUNDER),
        (64.0, Severity.BLUNDER),
    ],
)
def test_a_loss_falls_in_one_class_by_its_threshold(loss: float, kind: Severity | None) -> None:
    assert severity(loss) == kind


def test_the_thresholds_grow() -> None:
    assert 0.5 < INACCURACY < MISTAKE < BLUNDER  # above the review's noise floor


def test_a_game_is_counted_per_player() -> None:
    reviewed = {
        1: [Loss(1, 0, 0, 0.0), Loss(1, 1, 1, 2.5), Loss(1, 5, 0, 11.0), Loss(1, 6, 1, 0.3)],
        3: [Loss(3, 2, 1, 5.0), Loss(3, 4, 0, 2.0), Loss(3, 8, 1, 11.0), Loss(3, 9, 1, 4.0)],
    }
    game = summarize(3, reviewed, largest=2)
    assert game.hands == (1, 3)
    anna, ben, cleo = game.seats
    assert (anna.decisions, anna.inaccuracies, anna.mistakes, anna.blunders) == (3, 1, 0, 1)
    assert (ben.decisions, ben.inaccuracies, ben.mistakes, ben.blunders) == (5, 2, 1, 1)
    assert anna.loss == 13.0 and ben.loss == 22.8
    assert anna.largest == (
        Costly(1, 5, 0, 11.0, Severity.BLUNDER),
        Costly(3, 4, 0, 2.0, Severity.INACCURACY),
    )
    assert [(c.hand, c.move) for c in ben.largest] == [(3, 8), (3, 2)]  # the costliest two
    assert cleo.decisions == 0 and cleo.largest == () and cleo.loss == 0.0


def test_equal_losses_are_listed_in_game_order() -> None:
    reviewed = {2: [Loss(2, 7, 0, 6.0)], 1: [Loss(1, 9, 0, 6.0), Loss(1, 3, 0, 6.0)]}
    game = summarize(1, reviewed)
    assert [(c.hand, c.move) for c in game.seats[0].largest] == [(1, 3), (1, 9), (2, 7)]


def test_no_reviewed_hand_is_an_empty_summary() -> None:
    game = summarize(4, {})
    assert game.hands == () and len(game.seats) == 4
    assert all(s.decisions == 0 and s.largest == () for s in game.seats)


def test_a_hand_review_gives_its_losses() -> None:
    assert losses(4, HandReview("classic", 4, 1, ())) == []
