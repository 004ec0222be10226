"""Scoring a finished hand (rules C13, C26-C29).

* Eklat (stalemate): the provocateur loses 10 per card of the tied top bid, every other tied
  player wins 5 per card, everyone else 0; no card points.
* All passed: nothing for anyone.
* Played: every seat scores its card points.  The chief's team (chief + partner) meets the
  goal with ``team points >= goal(bid)``: chief and partner each get the bonus
  ``min(100, 10 * (bid + k))`` by the chief's trump.  Otherwise the shortfall ``d`` is the bid
  minus the highest bid the team's points would have met: chief ``-10 d``, partner 0, every
  opponent ``+5 d``.
"""

from __future__ import annotations

from typing import Any

from engine.state import ALL_PASSED, PLAYED, STALEMATE, HandState
from engine.trumps import NO_TRUMP, NUMBER_BASE, kind_to_str


def trump_class(kind: int) -> str:
    """C28: the bonus class of the chief's trump."""
    if kind == NO_TRUMP:
        return "none"
    if kind < NUMBER_BASE:
        return "colour"
    return "one_or_seven" if kind - NUMBER_BASE in (1, 7) else "number"


def _stalemate_scores(state: HandState) -> list[int]:
    top = max(state.counts)
    return [
        (-10 * top if s == state.provocateur else 5 * top) if state.counts[s] == top else 0
        for s in range(state.players)
    ]


def _team(state: HandState) -> list[int]:
    return [s for s in (state.chief, state.partner) if s is not None]


def _played_bonus(state: HandState, bid: int, goal: int, team_points: int) -> list[int]:
    rules, team = state.rules, _team(state)
    if team_points >= goal:
        bonus = rules.bonus(bid, trump_class(state.chief_kind or 0))
        return [bonus if s in team else 0 for s in range(state.players)]
    shortfall = bid - rules.achieved_level(state.players, team_points)
    return [
        -10 * shortfall if s == state.chief else 0 if s in team else 5 * shortfall
        for s in range(state.players)
    ]


def _trump_name(kind: int | None) -> str | None:
    return None if kind is None else kind_to_str(kind)


def hand_result(state: HandState) -> dict[str, Any]:
    """The JSON-ready result of a finished hand (see ``engine.result``)."""
    n, outcome = state.players, state.outcome
    zero = [0] * n
    result: dict[str, Any] = {
        "kind": outcome,
        "chief": state.chief,
        "vice": state.vice,
        "partner": state.partner,
        "bid": state.bid,
        "bids": list(state.counts),
        "vice_trump": _trump_name(state.vice_kind) if state.vice is not None else None,
        "chief_trump": _trump_name(state.chief_kind),
        "team_goal": None,
        "team_points": None,
        "success": None,
        "shortfall": None,
        "provocateur": state.provocateur,
        "tied": [],
        "card_points": zero,
        "bonus": zero,
        "total": zero,
    }
    if outcome == STALEMATE:
        top = max(state.counts)
        result["tied"] = [s for s in range(n) if state.counts[s] == top]
        result["bid"] = top
        result["bonus"] = result["total"] = _stalemate_scores(state)
    elif outcome == PLAYED:
        _add_played(state, result)
    else:
        assert outcome == ALL_PASSED
    return result


def _add_played(state: HandState, result: dict[str, Any]) -> None:
    bid = state.bid or 0
    goal = state.rules.goal(state.players, bid)
    team_points = sum(state.points_won[s] for s in _team(state))
    bonus = _played_bonus(state, bid, goal, team_points)
    result.update(
        team_goal=goal,
        team_points=team_points,
        success=team_points >= goal,
        shortfall=0
        if team_points >= goal
        else bid - state.rules.achieved_level(state.players, team_points),
        card_points=list(state.points_won),
        bonus=bonus,
        total=[p + b for p, b in zip(state.points_won, bonus, strict=True)],
    )
