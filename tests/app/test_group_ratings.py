"""Group ratings (app/groups/ratings.py): one hand worked out by the Plackett-Luce formulas
(Weng & Lin 2011, Algorithm 4, as openskill implements it), and which hands rate at all."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

import engine
from app.groups import ratings

MU, SIGMA, BETA, TAU, KAPPA = 25.0, 25 / 3, 25 / 6, 25 / 300, 1e-4


def two_teams_by_hand(
    winners: list[tuple[float, float]], losers: list[tuple[float, float]]
) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """Plackett-Luce for two teams, written out: team strength = sum of mu, team variance =
    sum of sigma² (after adding tau² to every player's variance); c² = both variances + 2 β².
    With p = exp(μW/c) / (exp(μW/c) + exp(μL/c)), the winners get Ω = σW²/c · (1 − p), the
    losers −σL²/c · (1 − p), both Δ = γ σ²/c² · p (1 − p) with γ = σ_team / c; each player
    takes its share σ_i²/σ_team² of them."""
    sides = [[(m, math.sqrt(s * s + TAU * TAU)) for m, s in side] for side in (winners, losers)]
    mu_w, mu_l = (sum(m for m, _ in side) for side in sides)
    var_w, var_l = (sum(s * s for _, s in side) for side in sides)
    c = math.sqrt(var_w + var_l + 2 * BETA * BETA)
    p = math.exp(mu_w / c) / (math.exp(mu_w / c) + math.exp(mu_l / c))
    out = []
    for side, var, sign in ((sides[0], var_w, 1), (sides[1], var_l, -1)):
        omega = sign * var / c * (1 - p)
        delta = math.sqrt(var) / c * var / c**2 * p * (1 - p)
        out.append(
            [
                (m + s * s / var * omega, s * math.sqrt(max(1 - s * s / var * delta, KAPPA)))
                for m, s in side
            ]
        )
    return out[0], out[1]


def played(chief: int, partner: int | None, players: int, success: bool) -> engine.HandResult:
    team = tuple(sorted({chief, partner} - {None}))
    return engine.HandResult(
        kind=engine.Outcome.PLAYED, chief=chief, partner=partner, success=success,
        total=(0,) * players, team=team,
        opponents=tuple(s for s in range(players) if s not in team),
    )  # fmt: skip


def test_first_hand_matches_the_formulas() -> None:
    """Anna and Ben (chief and partner) make their bid against Cleo, Dan and Eve: all five
    start at mu 25, sigma 25/3."""
    result = played(chief=0, partner=1, players=5, success=True)
    keys = ("anna", "ben", "cleo", "dan", "eve")
    rates, matches = ratings.rate([ratings.RatedHand(None, (1, 1), keys, result)])
    fresh = (MU, SIGMA)
    won, lost = two_teams_by_hand([fresh, fresh], [fresh, fresh, fresh])
    assert matches == 1
    for key, (mu, sigma) in zip(keys, won + lost, strict=True):
        assert rates[key].mu == pytest.approx(mu, abs=1e-9)
        assert rates[key].sigma == pytest.approx(sigma, abs=1e-9)
    assert rates["anna"].mu > MU > rates["cleo"].mu
    assert rates["anna"].ordinal == pytest.approx(rates["anna"].mu - 3 * rates["anna"].sigma)


def test_a_failed_bid_lets_the_others_win_and_hands_go_in_finish_order() -> None:
    """Two hands, listed out of order: the one that finished first is rated first; in the
    second, Anna alone (a 3-player chief) misses her goal."""
    t0 = datetime(2026, 11, 25, 20, 0, tzinfo=UTC)
    keys = ("anna", "ben", "cleo")
    first = ratings.RatedHand(t0, (1, 1), keys, played(1, None, 3, success=True))
    second = ratings.RatedHand(t0 + timedelta(minutes=5), (1, 2), keys, played(0, None, 3, False))
    rates, matches = ratings.rate([second, first])
    assert matches == 2
    won, lost = two_teams_by_hand([(MU, SIGMA)], [(MU, SIGMA), (MU, SIGMA)])  # Ben's hand
    after_first = {"ben": won[0], "anna": lost[0], "cleo": lost[1]}
    won2, lost2 = two_teams_by_hand(
        [after_first["ben"], after_first["cleo"]], [after_first["anna"]]
    )
    for key, (mu, sigma) in {"ben": won2[0], "cleo": won2[1], "anna": lost2[0]}.items():
        assert rates[key].mu == pytest.approx(mu, abs=1e-9)
        assert rates[key].sigma == pytest.approx(sigma, abs=1e-9)
    assert [index for index, _ in rates["anna"].history] == [1, 2]


def test_eklats_all_pass_and_redeals_rate_nobody() -> None:
    keys = ("anna", "ben", "cleo", "dan")
    hands = [
        engine.HandResult(kind=kind, total=(0, 0, 0, 0))
        for kind in (engine.Outcome.STALEMATE, engine.Outcome.ALL_PASSED, engine.Outcome.REDEAL)
    ]
    rates, matches = ratings.rate(
        ratings.RatedHand(None, (1, n), keys, r) for n, r in enumerate(hands, 1)
    )
    assert (rates, matches) == ({}, 0)
