"""OpenSkill ratings of a group's players (docs/groups.md).

One Plackett-Luce model with openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300).
Every hand played to the end is one match between two teams, the chief's (Crown's) team and
the others (unequal sizes: 1 or 2 against 1 to 5), ranked by the engine's result: the team
wins when ``result.success``, else the others win. Hands are rated in the order they finished
(across all tables of the group). Eklat, all-pass hands and revised redeals rate nobody: they
are not a contest between two teams (an Eklat's penalty is already on the score sheet).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from openskill.models import PlackettLuce, PlackettLuceRating

import engine

MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class RatedHand:
    """One hand to rate: who sat where (player keys per seat) and the engine's result."""

    at: datetime | None
    order: tuple[int, int]  # (table id, hand number): the tie-break of equal times
    keys: tuple[str, ...]
    result: engine.HandResult


@dataclass(slots=True)
class Rating:
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    history: list[tuple[int, float]] = field(default_factory=list)  # (match index, ordinal)

    @property
    def ordinal(self) -> float:
        """mu - 3 sigma: a rating the player very probably deserves at least."""
        return self.mu - 3 * self.sigma


def teams_of(result: engine.HandResult) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """(the chief's team, the others) with the winners first, or None for a hand that rates
    nobody (not played to the end)."""
    if result.kind != engine.Outcome.PLAYED or not result.team or not result.opponents:
        return None
    if result.success:
        return result.team, result.opponents
    return result.opponents, result.team


def in_finish_order(hands: Iterable[RatedHand]) -> list[RatedHand]:
    """The hands in the order they finished (by table and number where no time is known)."""
    return sorted(hands, key=lambda h: (h.at is None, h.at or datetime.min, h.order))


def rate(
    hands: Iterable[RatedHand], start: Mapping[str, Rating] | None = None
) -> tuple[dict[str, Rating], int]:
    """Every player's rating after ``hands`` (rated in finish order), and how many hands
    counted. A player's first hand starts from ``start``'s rating for them (a season's
    ratings, :func:`season_start`), else from a newcomer's."""
    ratings: dict[str, Rating] = {}
    matches = 0
    for hand in in_finish_order(hands):
        teams = teams_of(hand.result)
        if teams is None:
            continue
        matches += 1
        winners, losers = ([hand.keys[s] for s in team] for team in teams)
        update(ratings, winners, losers, matches, start or {})
    return ratings, matches


def season_start(all_time: Mapping[str, Rating]) -> dict[str, Rating]:
    """A season's first ratings from the all-time ratings at its start (docs/groups.md): each
    player keeps their all-time mu, and their sigma is a newcomer's again (25/3), so that the
    season starts from what the group knows of everyone and still moves as fast as a new
    player's rating."""
    return {key: Rating(rating.mu, MODEL.sigma) for key, rating in all_time.items()}


def update(
    ratings: dict[str, Rating],
    winners: Sequence[str],
    losers: Sequence[str],
    index: int,
    start: Mapping[str, Rating] | None = None,
) -> None:
    """One match: ``winners`` ranked above ``losers``; the new ratings recorded at ``index``."""
    for key in (*winners, *losers):
        if key not in ratings:
            first = (start or {}).get(key)
            ratings[key] = Rating() if first is None else Rating(first.mu, first.sigma)
            if first is not None:
                ratings[key].history.append((0, ratings[key].ordinal))
    current = [[_model_rating(ratings, key) for key in side] for side in (winners, losers)]
    new = MODEL.rate(current, ranks=[0, 1])
    for side, rated in zip((winners, losers), new, strict=True):
        for key, value in zip(side, rated, strict=True):
            rating = ratings[key]
            rating.mu, rating.sigma = value.mu, value.sigma
            rating.history.append((index, rating.ordinal))


def _model_rating(ratings: dict[str, Rating], key: str) -> PlackettLuceRating:
    rating = ratings.setdefault(key, Rating())
    return MODEL.rating(mu=rating.mu, sigma=rating.sigma)
