"""Branching a finished hand: the same deal at one moment of its play, to play on from there.

A branch point is a deal and a prefix of the hand's action log: ``step`` actions of ``moves``
(``0``: the deal itself, "play this deal again"). :func:`branch` checks it and returns the
moves to replay and the state they lead to; a new table deals the same cards (the same seed by
the same dealer) and replays those moves through :func:`engine.apply`, so the branch can never
disagree with the hand it came from. Only a moment at which someone is still to move can be
branched: the end of the hand is refused (:class:`NoSuchStep`).

Nothing here reveals a card: the new table's seats see what :func:`engine.view` shows them,
like any table's (the original hand's other cards are not shown because the hand is over).

>>> import random, engine
>>> dealt = engine.deal(4, dealer=1, rng=random.Random(3))
>>> seat = dealt.to_move
>>> moves = [(seat, engine.Pass())]
>>> point = branch(dealt, moves, 1)
>>> point.state.to_move != seat, len(point.moves)
(True, 1)
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Action
from engine.legality import apply
from engine.records import record
from engine.state import HandState

Move = tuple[int, Action]  # (seat, action), as the hand's log has them


class NoSuchStep(ValueError):
    """A branch point outside the hand: a negative step, one beyond its log, or its end. Not
    an :class:`~engine.errors.IllegalAction` (no action was tried): its ``code`` is for the
    HTTP answer that refuses the branch."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.code = "no_such_step"  # set here: a class attribute of a compiled class is not
        self.message = message  # an instance's (mypyc)


@record
class BranchPoint:
    """Where a branch starts: the moves replayed from the deal and the state after them
    (someone is to move)."""

    step: int
    moves: tuple[Move, ...]
    state: HandState

    @property
    def to_move(self) -> int:
        seat = self.state.to_move
        assert seat is not None  # a branch point is never the end of a hand
        return seat


def branch(dealt: HandState, moves: Sequence[Move], step: int) -> BranchPoint:
    """The hand dealt as ``dealt`` and logged as ``moves``, after its first ``step`` moves.

    Raises:
        NoSuchStep: ``step`` is not a moment of the hand at which someone is to move.
        engine.IllegalAction: the log does not replay (it is not this deal's).
    """
    if not 0 <= step <= len(moves):
        raise NoSuchStep(f"the hand has {len(moves)} steps, not {step}")
    state = dealt
    for seat, action in moves[:step]:
        state = apply(state, seat, action)
    if state.is_over or state.to_move is None:
        raise NoSuchStep(f"the hand is over after step {step}: nobody is to move")
    return BranchPoint(step, tuple(moves[:step]), state)
