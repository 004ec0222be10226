"""A game's reviewed decisions summed up per player: how many cost how much, and the costliest.

A decision's ``loss`` (:class:`engine.review.DecisionReview`) is what the best alternative was
expected to score more for the seat in that hand, in Mü points.  Like a chess site's
inaccuracies, mistakes and blunders, a loss is put in one class by fixed thresholds, each
tied to a quantity of the rules (C26-C29):

* an **inaccuracy** costs at least :data:`INACCURACY` (2) points: more than the card points of
  any single card (0, 1 or 2);
* a **mistake** at least :data:`MISTAKE` (5): what an opponent gains per bid level the chief's
  team falls short (C29), half a level of bonus;
* a **blunder** at least :data:`BLUNDER` (10): a whole bid level of the bonus (C28) or of the
  chief's penalty (C29).

Smaller losses are not classed.  The review is an estimate over sampled deals (its noise
floor is about half a point), so one class is a rough size, not a verdict.

>>> losses = [Loss(1, 4, 0, 12.5), Loss(1, 9, 0, 2.0), Loss(2, 3, 1, 0.4), Loss(2, 7, 0, 6.0)]
>>> summary = summarize(2, {1: losses[:2], 2: losses[2:]})
>>> first = summary.seats[0]
>>> (first.decisions, first.inaccuracies, first.mistakes, first.blunders)
(3, 1, 1, 1)
>>> [(c.hand, c.move, c.severity.value) for c in first.largest]
[(1, 4, 'blunder'), (2, 7, 'mistake'), (1, 9, 'inaccuracy')]
>>> summary.seats[1].largest
()
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum

from engine.records import record
from engine.review import HandReview

INACCURACY = 2.0
MISTAKE = 5.0
BLUNDER = 10.0
LARGEST = 3  # the costliest decisions listed per player


class Severity(StrEnum):
    """How much a decision cost, by the thresholds above."""

    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


# The classes from the largest down, with their thresholds (points of expected score).
THRESHOLDS: tuple[tuple[Severity, float], ...] = (
    (Severity.BLUNDER, BLUNDER),
    (Severity.MISTAKE, MISTAKE),
    (Severity.INACCURACY, INACCURACY),
)


def severity(loss: float) -> Severity | None:
    """The class of a decision that lost ``loss`` points (``None``: under every threshold).

    >>> severity(1.99) is None, severity(2.0), severity(9.99), severity(10.0).value
    (True, <Severity.INACCURACY: 'inaccuracy'>, <Severity.MISTAKE: 'mistake'>, 'blunder')
    """
    for kind, threshold in THRESHOLDS:
        if loss >= threshold:
            return kind
    return None


@record
class Loss:
    """One reviewed decision of a game: its hand (1-based number), its index in the hand's
    action log, its seat and what it cost."""

    hand: int
    move: int
    seat: int
    loss: float


@record
class Costly:
    """A decision that cost at least an inaccuracy's threshold, with its class."""

    hand: int
    move: int
    seat: int
    loss: float
    severity: Severity


@record
class SeatSummary:
    """One player's reviewed decisions in a game: how many, how many of each class, the
    summed loss, and the costliest (:data:`LARGEST` at most, largest first; ties in game
    order)."""

    seat: int
    decisions: int
    inaccuracies: int
    mistakes: int
    blunders: int
    loss: float
    largest: tuple[Costly, ...]


@record
class GameSummary:
    """Every player's :class:`SeatSummary` over the reviewed hands of a game (``hands``: their
    numbers, in order)."""

    hands: tuple[int, ...]
    seats: tuple[SeatSummary, ...]


def losses(hand: int, review: HandReview) -> list[Loss]:
    """The decisions of a reviewed hand (number ``hand``) as :class:`Loss` records."""
    return [Loss(hand, d.move, d.seat, d.loss) for d in review.decisions]


def summarize(
    players: int, reviewed: Mapping[int, Iterable[Loss]], *, largest: int = LARGEST
) -> GameSummary:
    """Sum up the reviewed hands of a game (hand number -> its decisions' losses) per seat.

    Only what the reviews say is read; a hand not in ``reviewed`` (not reviewed yet, or in
    progress) counts for nothing."""
    hands = tuple(sorted(reviewed))
    mine: list[list[Loss]] = [[] for _ in range(players)]
    for hand in hands:
        for loss in reviewed[hand]:
            mine[loss.seat].append(loss)
    return GameSummary(hands, tuple(_seat(seat, mine[seat], largest) for seat in range(players)))


def _seat(seat: int, decisions: list[Loss], largest: int) -> SeatSummary:
    costly: list[Costly] = []
    counts = dict.fromkeys(Severity, 0)
    for d in decisions:
        kind = severity(d.loss)
        if kind is not None:
            costly.append(Costly(d.hand, d.move, d.seat, d.loss, kind))
            counts[kind] += 1
    costly.sort(key=lambda c: (-c.loss, c.hand, c.move))
    return SeatSummary(
        seat=seat,
        decisions=len(decisions),
        inaccuracies=counts[Severity.INACCURACY],
        mistakes=counts[Severity.MISTAKE],
        blunders=counts[Severity.BLUNDER],
        loss=round(sum(d.loss for d in decisions), 2),
        largest=tuple(costly[:largest]),
    )
