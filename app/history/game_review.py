"""The score sheet's review of the game: per player, how many decisions of the reviewed hands
cost how much, and the costliest ones, each a link to its moment on the hand page.

The counting is the engine's (``engine.review_summary``: its thresholds, its classes); this
module reads the stored reviews of the table's finished hands (one query, ``reviews.results``;
no review is started from here) and says the result. Only finished hands count: a stored
review of any other hand number is ignored, so nothing of a hand in progress is shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.history import review_page
from app.history.i18n import Text
from app.history.service import TableHistory
from app.history.words import N_
from engine.review_summary import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    Costly,
    Loss,
    SeatSummary,
    Severity,
    summarize,
)

_SEVERITY = {
    Severity.INACCURACY: N_("inaccuracy"),
    Severity.MISTAKE: N_("mistake"),
    Severity.BLUNDER: N_("blunder"),
}


@dataclass(frozen=True, slots=True)
class Largest:
    """One of a player's costliest decisions: where, how bad, and the hand page's sentence."""

    hand: int
    move: int
    severity: str  # "inaccuracy" | "mistake" | "blunder"
    label: str  # the severity in the page's language
    text: str  # "Trick 4: leading the green 7 cost Anna ~12 points; the red 1 was better."
    url: str  # the hand page at the decision's replay step, the review's moment in view


@dataclass(frozen=True, slots=True)
class PlayerReview:
    seat: int
    name: str
    decisions: int
    inaccuracies: int
    mistakes: int
    blunders: int
    largest: list[Largest]


@dataclass(frozen=True, slots=True)
class GameReview:
    reviewed: int  # finished hands with a stored review
    finished: int  # finished hands
    players: list[PlayerReview]
    thresholds: dict[str, str]  # the classes' thresholds as written: {"inaccuracy": "2", ...}


def moment_url(base: str, hand: int, move: int, seat: int) -> str:
    """The hand page at the decision's replay step (step ``n`` shows the ``n``-th action), from
    the deciding seat, scrolled to the decision's moment in the review."""
    return f"{base}/hands/{hand}?step={move + 1}&seat={seat}#moment-{move}"


def build(
    history: TableHistory,
    stored: Mapping[int, dict[str, Any]],
    base: str,
    t: Text,
    viewer: int | None = None,
) -> GameReview | None:
    """The game's review from the stored reviews (hand number -> result), or ``None`` before
    the first hand is over."""
    if not history.hands:
        return None
    finished = {record.number for record in history.hands}
    mine = {n: result for n, result in stored.items() if n in finished}
    losses = {
        n: [Loss(n, int(d["move"]), int(d["seat"]), float(d["loss"])) for d in r["decisions"]]
        for n, r in mine.items()
    }
    summary = summarize(history.players, losses)
    players = [_player(history, s, mine, base, t, viewer) for s in summary.seats]
    thresholds = {"inaccuracy": f"{INACCURACY:g}", "mistake": f"{MISTAKE:g}"}
    thresholds["blunder"] = f"{BLUNDER:g}"
    return GameReview(len(mine), len(finished), players, thresholds)


def _player(
    history: TableHistory,
    summary: SeatSummary,
    stored: Mapping[int, dict[str, Any]],
    base: str,
    t: Text,
    viewer: int | None,
) -> PlayerReview:
    largest = [_largest(history, c, stored[c.hand], base, t, viewer) for c in summary.largest]
    return PlayerReview(
        summary.seat,
        history.names[summary.seat],
        summary.decisions,
        summary.inaccuracies,
        summary.mistakes,
        summary.blunders,
        largest,
    )


def _largest(
    history: TableHistory,
    costly: Costly,
    result: dict[str, Any],
    base: str,
    t: Text,
    viewer: int | None,
) -> Largest:
    record = history.hand(costly.hand)
    assert record is not None  # only finished hands are summed up
    raw = next(d for d in result["decisions"] if int(d["move"]) == costly.move)
    decision = review_page.read_decision(raw, history.names, t)
    text = review_page.told(decision, record, history.names, t, yours=costly.seat == viewer)
    return Largest(
        hand=costly.hand,
        move=costly.move,
        severity=str(costly.severity),
        label=t(_SEVERITY[costly.severity]),
        text=text,
        url=moment_url(base, costly.hand, costly.move, costly.seat),
    )
