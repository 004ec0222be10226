"""Scoring a finished hand (rules C13, C26-C29), as pure functions of plain values.

* Eklat (stalemate): the provocateur loses 10 per card of the tied top bid, every other tied
  player wins 5 per card, everyone else 0; no card points.
* All passed: nothing for anyone.
* Played: every seat scores its card points.  The chief's team (chief + partner) meets the
  goal with ``team points >= goal(bid)``: chief and partner each get the bonus
  ``min(100, 10 * (bid + k))`` by the chief's trump.  Otherwise the shortfall ``d`` is the bid
  minus the highest bid the team's points would have met: chief ``-10 d``, partner 0, every
  opponent ``+5 d``.

>>> from engine.variants import CLASSIC
>>> stalemate_scores([3, 1, 3, 3, 1], provocateur=3)
[15, 0, 15, -30, 0]
>>> r = played_scores(CLASSIC, bid=4, chief=3, partner=0, chief_trump="red",
...                   card_points=[9, 10, 10, 20, 11])
>>> r["team_points"], r["shortfall"], r["bonus"]
(29, 2, [0, 10, 10, -20, 10])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.state import ALL_PASSED, PLAYED, STALEMATE, HandState
from engine.trumps import kind_to_str
from engine.variants import ClassicRules


def trump_class(trump: str) -> str:
    """C28: the bonus class of the chief's trump (``"red"``, ``"7"``, ``"none"``, ...)."""
    if trump == "none":
        return "none"
    if not trump.isdigit():
        return "colour"
    return "one_or_seven" if trump in ("1", "7") else "number"


def stalemate_scores(counts: Sequence[int], provocateur: int) -> list[int]:
    """C13: -10 per card for the provocateur, +5 per card for the other tied players."""
    top = max(counts)
    return [
        (-10 * top if s == provocateur else 5 * top) if count == top else 0
        for s, count in enumerate(counts)
    ]


def played_scores(
    rules: ClassicRules,
    *,
    bid: int,
    chief: int,
    partner: int | None,
    chief_trump: str,
    card_points: Sequence[int],
) -> dict[str, Any]:
    """C26-C29 for a hand played to the end: goal, success, bonus or penalty, totals."""
    players = len(card_points)
    team = {chief} if partner is None else {chief, partner}
    goal = rules.goal(players, bid)
    team_points = sum(card_points[s] for s in team)
    shortfall = 0 if team_points >= goal else bid - rules.achieved_level(players, team_points)
    if shortfall == 0:
        reward = rules.bonus(bid, trump_class(chief_trump))
        bonus = [reward if s in team else 0 for s in range(players)]
    else:
        bonus = [
            -10 * shortfall if s == chief else 0 if s in team else 5 * shortfall
            for s in range(players)
        ]
    return {
        "team_goal": goal,
        "team_points": team_points,
        "success": shortfall == 0,
        "shortfall": shortfall,
        "card_points": list(card_points),
        "bonus": bonus,
        "total": [p + b for p, b in zip(card_points, bonus, strict=True)],
    }


def hand_result(state: HandState) -> dict[str, Any]:
    """The JSON-ready result of a finished hand (see ``engine.result``)."""
    n, outcome = state.players, state.outcome
    result: dict[str, Any] = {
        "kind": outcome,
        "chief": state.chief,
        "vice": state.vice,
        "partner": state.partner,
        "bid": state.bid,
        "bids": list(state.counts),
        "vice_trump": kind_to_str(state.vice_kind) if state.vice_kind is not None else None,
        "chief_trump": kind_to_str(state.chief_kind) if state.chief_kind is not None else None,
        "team_goal": None,
        "team_points": None,
        "success": None,
        "shortfall": None,
        "provocateur": state.provocateur,
        "tied": [],
        "card_points": [0] * n,
        "bonus": [0] * n,
        "total": [0] * n,
    }
    if state.vice is None:
        result["vice_trump"] = None
    if outcome == STALEMATE:
        assert state.provocateur is not None
        top = max(state.counts)
        scores = stalemate_scores(state.counts, state.provocateur)
        result.update(bid=top, tied=[s for s in range(n) if state.counts[s] == top])
        result.update(bonus=scores, total=list(scores))
    elif outcome == PLAYED:
        assert state.chief is not None and result["chief_trump"] is not None
        result.update(
            played_scores(
                state.rules,
                bid=state.counts[state.chief],
                chief=state.chief,
                partner=state.partner,
                chief_trump=result["chief_trump"],
                card_points=state.points_won,
            )
        )
    else:
        assert outcome == ALL_PASSED
    return result
