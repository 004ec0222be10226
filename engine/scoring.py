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

>>> from engine.enums import TrumpKind
>>> from engine.variants import CLASSIC
>>> stalemate_scores([3, 1, 3, 3, 1], provocateur=3)
(15, 0, 15, -30, 0)
>>> r = played_scores(CLASSIC, bid=4, chief=3, partner=0, chief_trump=TrumpKind.RED,
...                   card_points=[9, 10, 10, 20, 11])
>>> r.team_points, r.shortfall, r.bonus
(29, 2, (0, 10, 10, -20, 10))
>>> from engine.variants import REVISED
>>> r = revised_scores(REVISED, bid=7, crown=1, partner=3, crown_trump=TrumpKind.YELLOW,
...                    shield=2, shield_bid=6, shield_trump=TrumpKind.ONE,
...                    card_points=[11, 38, 6, 5])
>>> r.winning_team, r.total, r.winners
(<Role.CROWN: 'crown'>, (11, 118, 6, 85), (1, 3))
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import filterfalse
from operator import add
from typing import NamedTuple

from engine.enums import Outcome, Role, TrumpKind
from engine.state import HandState
from engine.variants import ClassicRules, RevisedRules


class Scores(NamedTuple):
    """What a hand played to the end scores (C26-C29; revised R8, R12).  ``team`` is the
    chief's (Crown's) team, ``winners`` the seats that receive a bonus (classic: the team
    when it meets its goal; revised: the winning team).  ``level`` and ``shortfall`` are
    classic (C29), ``winning_team`` and the per-seat ``bid_bonus``/``trump_bonus`` revised.

    An internal record that every search rollout builds and nobody serializes (the public
    one is :class:`~engine.results.HandResult`): a named tuple is about 3x cheaper to build
    than a frozen dataclass."""

    team: tuple[int, ...]
    opponents: tuple[int, ...]
    winners: tuple[int, ...]
    team_goal: int
    team_points: int
    success: bool
    card_points: tuple[int, ...]
    bonus: tuple[int, ...]
    total: tuple[int, ...]
    level: int | None = None
    shortfall: int | None = None
    winning_team: Role | None = None
    bid_bonus: tuple[int, ...] | None = None
    trump_bonus: tuple[int, ...] | None = None


def stalemate_scores(counts: Sequence[int], provocateur: int) -> tuple[int, ...]:
    """C13: -10 per card for the provocateur, +5 per card for the other tied players."""
    top = max(counts)
    return tuple(
        [
            (-10 * top if s == provocateur else 5 * top) if count == top else 0
            for s, count in enumerate(counts)
        ]
    )


# Scoring runs at the end of every search rollout: the helpers below build the per-seat
# tuples with C-level loops (map, filterfalse, list repetition) rather than comprehensions.
def _sides(players: int, chief: int, partner: int | None) -> tuple[tuple[int, ...], ...]:
    """The chief's (Crown's) team and everyone else, each in seat order."""
    if partner is None:
        team: tuple[int, ...] = (chief,)
    else:
        team = (chief, partner) if chief < partner else (partner, chief)
    return team, tuple(filterfalse(team.__contains__, range(players)))


def _per_seat(players: int, values: dict[int, int], others: int = 0) -> tuple[int, ...]:
    """Per seat: its entry in ``values``, else ``others``."""
    out = [others] * players
    for seat, value in values.items():
        out[seat] = value
    return tuple(out)


def _totals(card_points: Sequence[int], bonus: Sequence[int]) -> tuple[int, ...]:
    return tuple(map(add, card_points, bonus))


def played_scores(
    rules: ClassicRules,
    *,
    bid: int,
    chief: int,
    partner: int | None,
    chief_trump: TrumpKind,
    card_points: Sequence[int],
) -> Scores:
    """C26-C29 for a hand played to the end: goal, success, bonus or penalty, totals."""
    players = len(card_points)
    team, opponents = _sides(players, chief, partner)
    goal = rules.goal(players, bid)
    team_points = sum(map(card_points.__getitem__, team))
    level = rules.achieved_level(players, team_points)  # the highest bid these points meet
    shortfall = max(bid - level, 0)  # level >= bid exactly when team_points >= goal
    if shortfall == 0:  # C28: the bonus for chief and partner
        bonus = _per_seat(players, dict.fromkeys(team, rules.bonus(bid, chief_trump.bonus_class)))
    else:  # C29: the chief pays 10 per missing level, every opponent gets 5, the partner 0
        penalties = {**dict.fromkeys(team, 0), chief: -10 * shortfall}
        bonus = _per_seat(players, penalties, others=5 * shortfall)
    return Scores(
        team=team,
        opponents=opponents,
        winners=team if shortfall == 0 else (),
        team_goal=goal,
        team_points=team_points,
        success=shortfall == 0,
        card_points=tuple(card_points),
        bonus=bonus,
        total=_totals(card_points, bonus),
        level=level,
        shortfall=shortfall,
    )


def revised_scores(
    rules: RevisedRules,
    *,
    bid: int,
    crown: int,
    partner: int | None,
    crown_trump: TrumpKind,
    shield: int | None,
    shield_bid: int | None,
    shield_trump: TrumpKind | None,
    card_points: Sequence[int],
) -> Scores:
    """R8, R12: card points for all; the winning team's members each get its leader's bid
    bonus (Crown x 10, Shield x 5) and its leader's trump-token bonus; no penalties.  With
    no Shield (R6) a failed Crown team means no bonus for anyone."""
    players = len(card_points)
    team, opponents = _sides(players, crown, partner)
    goal = rules.goal(players, bid)
    team_points = sum(map(card_points.__getitem__, team))
    success = team_points >= goal
    winners: tuple[int, ...] = ()
    winning_team, bid_reward, trump_reward = None, 0, 0
    if success:
        winning_team, winners = Role.CROWN, team
        bid_reward = rules.crown_multiplier * bid
        trump_reward = rules.trump_bonus(crown_trump.bonus_class)
    elif shield is not None and shield_bid is not None and shield_trump is not None:
        winning_team, winners = Role.SHIELD, opponents
        bid_reward = rules.shield_multiplier * shield_bid
        trump_reward = rules.trump_bonus(shield_trump.bonus_class)
    bid_bonus = _per_seat(players, dict.fromkeys(winners, bid_reward))
    trump_bonus = _per_seat(players, dict.fromkeys(winners, trump_reward))
    bonus = _totals(bid_bonus, trump_bonus)
    return Scores(
        team=team,
        opponents=opponents,
        winners=winners,
        team_goal=goal,
        team_points=team_points,
        success=success,
        card_points=tuple(card_points),
        bonus=bonus,
        total=_totals(card_points, bonus),
        winning_team=winning_team,
        bid_bonus=bid_bonus,
        trump_bonus=trump_bonus,
    )


def score_hand(state: HandState) -> Scores | None:
    """The scores of a hand played to the end (classic or revised), else ``None``."""
    if state.outcome != Outcome.PLAYED:
        return None
    chief, chief_kind, rules = state.chief, state.chief_kind, state.rules
    assert chief is not None and chief_kind is not None
    bid, partner, points = state.counts[chief], state.partner, state.points_won
    trump = TrumpKind.from_code(chief_kind)
    if isinstance(rules, ClassicRules):
        return played_scores(
            rules, bid=bid, chief=chief, partner=partner, chief_trump=trump, card_points=points
        )
    shield, shield_kind = state.vice, state.vice_kind  # R6: there may be no Shield
    return revised_scores(
        rules,
        bid=bid,
        crown=chief,
        partner=partner,
        crown_trump=trump,
        shield=shield,
        shield_bid=None if shield is None else state.counts[shield],
        shield_trump=None if shield_kind is None else TrumpKind.from_code(shield_kind),
        card_points=points,
    )


def hand_totals(state: HandState) -> tuple[int, ...]:
    """Every seat's score for a finished hand: card points and bonus or penalty, the Eklat
    scores, or nothing (all passed, a revised redeal).  The search bot's rollouts read
    this, which skips building a whole :class:`~engine.results.HandResult`."""
    scores = score_hand(state)
    if scores is not None:
        return scores.total
    if state.outcome == Outcome.STALEMATE:
        assert state.provocateur is not None
        return stalemate_scores(state.counts, state.provocateur)
    return (0,) * state.players
