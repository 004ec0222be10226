"""Scoring a finished hand (rules C13, C26-C29; revised R6, R12), as pure functions of
plain values.

* Eklat (stalemate): the provocateur loses 10 per card of the tied top bid, every other tied
  player wins 5 per card, everyone else 0; no card points.
* All passed: nothing for anyone.
* Played: every seat scores its card points.  The chief's team (chief + partner) meets the
  goal with ``team points >= goal(bid)``: chief and partner each get the bonus
  ``min(100, 10 * (bid + k))`` by the chief's trump.  Otherwise the shortfall ``d`` is the bid
  minus the highest bid the team's points would have met: chief ``-10 d``, partner 0, every
  opponent ``+5 d``.
* Revised (R12): every seat scores its card points (the Crown's kitty discards included).
  If the Crown team reaches the goal it wins, otherwise the Shield team does (if there is a
  Shield, R6).  Every member of the winning team gets its leader's bid x 10 (Crown) or x 5
  (Shield) plus the trump-token bonus of its leader's trump.  No penalties.  Nobody showing
  a card: a redeal, nothing for anyone.

>>> from engine.variants import CLASSIC
>>> stalemate_scores([3, 1, 3, 3, 1], provocateur=3)
[15, 0, 15, -30, 0]
>>> r = played_scores(CLASSIC, bid=4, chief=3, partner=0, chief_trump="red",
...                   card_points=[9, 10, 10, 20, 11])
>>> r["team_points"], r["shortfall"], r["bonus"]
(29, 2, [0, 10, 10, -20, 10])
>>> from engine.variants import REVISED
>>> r = revised_scores(REVISED, bid=7, crown=1, partner=3, crown_trump="yellow",
...                    shield=2, shield_bid=6, shield_trump="1", card_points=[11, 38, 6, 5])
>>> r["winning_team"], r["total"]
('crown', [11, 118, 6, 85])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.state import ALL_PASSED, PLAYED, REDEAL, STALEMATE, HandState
from engine.trumps import kind_to_str
from engine.variants import ClassicRules, RevisedRules


def trump_class(trump: str) -> str:
    """C28, R12: the bonus class of the chief's (a leader's) trump (``"red"``, ``"7"``,
    ``"none"``, ...)."""
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
    level = rules.achieved_level(players, team_points)  # the highest bid these points meet
    shortfall = max(bid - level, 0)  # level >= bid exactly when team_points >= goal
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
        "level": level,
        "shortfall": shortfall,
        "card_points": list(card_points),
        "bonus": bonus,
        "total": [p + b for p, b in zip(card_points, bonus, strict=True)],
    }


def revised_scores(
    rules: RevisedRules,
    *,
    bid: int,
    crown: int,
    partner: int | None,
    crown_trump: str,
    shield: int | None,
    shield_bid: int | None,
    shield_trump: str | None,
    card_points: Sequence[int],
) -> dict[str, Any]:
    """R8, R12: card points for all; the winning team's members each get its leader's bid
    bonus (Crown x 10, Shield x 5) and its leader's trump-token bonus; no penalties.  With
    no Shield (R6) a failed Crown team means no bonus for anyone."""
    players = len(card_points)
    crown_team = {crown} if partner is None else {crown, partner}
    goal = rules.goal(players, bid)
    team_points = sum(card_points[s] for s in crown_team)
    success = team_points >= goal
    winners: set[int] = set()
    winning_team, bid_reward, trump_reward = None, 0, 0
    if success:
        winning_team, winners = "crown", crown_team
        bid_reward = rules.crown_multiplier * bid
        trump_reward = rules.trump_bonus(trump_class(crown_trump))
    elif shield is not None and shield_bid is not None and shield_trump is not None:
        winning_team, winners = "shield", set(range(players)) - crown_team
        bid_reward = rules.shield_multiplier * shield_bid
        trump_reward = rules.trump_bonus(trump_class(shield_trump))
    bid_bonus = [bid_reward if s in winners else 0 for s in range(players)]
    trump_bonus = [trump_reward if s in winners else 0 for s in range(players)]
    bonus = [b + t for b, t in zip(bid_bonus, trump_bonus, strict=True)]
    return {
        "team_goal": goal,
        "team_points": team_points,
        "success": success,
        "winning_team": winning_team,
        "shield_bid": shield_bid,
        "bid_bonus": bid_bonus,
        "trump_bonus": trump_bonus,
        "card_points": list(card_points),
        "bonus": bonus,
        "total": [p + b for p, b in zip(card_points, bonus, strict=True)],
    }


def hand_result(state: HandState) -> dict[str, Any]:
    """The JSON-ready result of a finished hand (see ``engine.result``)."""
    result = _blank_result(state)
    rules = state.rules
    if isinstance(rules, RevisedRules):
        result.update(_revised_result(state, rules, result["chief_trump"], result["vice_trump"]))
    elif state.outcome == STALEMATE:
        result.update(_stalemate_result(state))
    elif state.outcome == PLAYED:
        assert state.chief is not None and result["chief_trump"] is not None
        result.update(
            played_scores(
                rules,
                bid=state.counts[state.chief],
                chief=state.chief,
                partner=state.partner,
                chief_trump=result["chief_trump"],
                card_points=state.points_won,
            )
        )
    else:
        assert state.outcome == ALL_PASSED
    return result


def _blank_result(state: HandState) -> dict[str, Any]:
    """The result of a hand in which nothing is scored; the roles as far as they exist."""
    n, vice_kind, chief_kind = state.players, state.vice_kind, state.chief_kind
    return {
        "variant": state.rules.name,
        "kind": state.outcome,
        "chief": state.chief,
        "vice": state.vice,
        "partner": state.partner,
        "bid": state.bid,
        "bids": list(state.counts),
        "vice_trump": None if vice_kind is None or state.vice is None else kind_to_str(vice_kind),
        "chief_trump": None if chief_kind is None else kind_to_str(chief_kind),
        "team_goal": None,
        "team_points": None,
        "success": None,
        "level": None,
        "shortfall": None,
        "provocateur": state.provocateur,
        "tied": [],
        "card_points": [0] * n,
        "bonus": [0] * n,
        "total": [0] * n,
    }


def _stalemate_result(state: HandState) -> dict[str, Any]:
    """C13: the Eklat scores; the bid is the tied top count."""
    assert state.provocateur is not None
    top = max(state.counts)
    scores = stalemate_scores(state.counts, state.provocateur)
    tied = [s for s in range(state.players) if state.counts[s] == top]
    return {"bid": top, "tied": tied, "bonus": scores, "total": list(scores)}


def _revised_result(
    state: HandState, rules: RevisedRules, crown_trump: str | None, shield_trump: str | None
) -> dict[str, Any]:
    """R3, R6, R12: the revised keys; scores unless the hand is a redeal (nobody showed)."""
    n, crown, shield = state.players, state.chief, state.vice
    extra: dict[str, Any] = {
        "winning_team": None,
        "shield_bid": None if shield is None else state.counts[shield],
        "bid_bonus": [0] * n,
        "trump_bonus": [0] * n,
        "kitty": list(state.kitty),
        "discarded": list(state.discarded),
    }
    if state.outcome == PLAYED:
        assert crown is not None and crown_trump is not None
        extra |= revised_scores(
            rules,
            bid=state.counts[crown],
            crown=crown,
            partner=state.partner,
            crown_trump=crown_trump,
            shield=shield,
            shield_bid=extra["shield_bid"],
            shield_trump=shield_trump,
            card_points=state.points_won,
        )
    else:
        assert state.outcome == REDEAL
    return extra
