"""engine.branch: the same deal at any moment of a finished hand, to play on from there."""

from __future__ import annotations

import random

import pytest

import engine
from engine.branch import NoSuchStep, branch
from engine.review import Move
from engine.state import HandState
from tests.engine.test_review import play_out


def played(players: int, seed: int, variant: str = "classic") -> tuple[HandState, list[Move]]:
    """A hand dealt from ``seed`` and played to its end by heuristic bots: its deal and log."""
    dealt = engine.deal(players, dealer=seed % players, rng=random.Random(seed), variant=variant)
    return dealt, play_out(dealt, seed)[1]


@pytest.mark.parametrize(("players", "variant"), [(3, "classic"), (5, "classic"), (4, "revised")])
def test_every_moment_but_the_end_can_be_branched_and_plays_on_to_the_same_end(
    players: int, variant: str
) -> None:
    for seed in range(4):
        dealt, moves = played(players, seed, variant)
        for step in range(len(moves)):
            point = branch(dealt, moves, step)
            assert point.step == step and point.moves == tuple(moves[:step])
            assert point.to_move == moves[step][0]  # the same seat is to move as then
            # Played on with the moves that were played, the branch ends as the hand did.
            state = point.state
            for seat, action in moves[step:]:
                state = engine.apply(state, seat, action)
            final = dealt
            for seat, action in moves:
                final = engine.apply(final, seat, action)
            assert engine.result(state) == engine.result(final)


def test_the_deal_itself_is_step_zero() -> None:
    dealt, moves = played(4, 7)
    point = branch(dealt, moves, 0)
    assert point.moves == () and point.state == dealt


@pytest.mark.parametrize("step", [-1, "end", "beyond"])
def test_a_moment_outside_the_hand_or_its_end_is_refused(step: int | str) -> None:
    dealt, moves = played(4, 11)
    at = {"end": len(moves), "beyond": len(moves) + 1}.get(str(step), step)
    assert isinstance(at, int)
    with pytest.raises(NoSuchStep) as refused:
        branch(dealt, moves, at)
    assert refused.value.code == "no_such_step"


def test_a_log_of_another_deal_is_refused_by_the_rules() -> None:
    dealt, moves = played(4, 1)
    other = engine.deal(4, dealer=1, rng=random.Random(99))
    with pytest.raises(engine.IllegalAction):
        branch(other, moves, len(moves) - 1)
