"""The result of a finished hand: one record for every variant and every way a hand ends.

Keys that do not apply are ``None``: ``level`` and ``shortfall`` are classic (C29),
``winning_team``, ``shield_bid``, ``bid_bonus``, ``trump_bonus``, ``kitty`` and
``discarded`` revised (R3, R12).  ``team`` (the chief's or Crown's team), ``opponents`` and
``winners`` (the seats that received a bonus) are set for hands played to the end, so that
nothing outside the engine derives teams.

>>> import random, engine
>>> hand = engine.deal(4, dealer=1, rng=random.Random(9))
>>> for seat in (1, 2, 3, 0):
...     hand = engine.apply(hand, seat, engine.Pass())
>>> res = result(hand)
>>> res.kind, res.total, res.team, res.winning_team
(<Outcome.ALL_PASSED: 'all_passed'>, (0, 0, 0, 0), (), None)
"""

from __future__ import annotations

from engine.enums import Outcome, Role, TrumpKind
from engine.records import record
from engine.scoring import score_hand, stalemate_scores
from engine.state import HandState
from engine.variants import RevisedRules


@record(kw_only=True)
class HandResult:
    """A finished hand: roles, bids, trumps, goal, and per seat the card points, the bonus
    (bonus, penalty or Eklat score) and the ``total`` this hand adds to the sheet.

    Everything but ``kind`` and ``total`` has a default, so that a result written down
    elsewhere (the rulebook's examples) can be recorded with :func:`engine.record_result`."""

    variant: str = "classic"
    kind: Outcome
    chief: int | None = None  # revised: the Crown
    vice: int | None = None  # revised: the Shield
    partner: int | None = None
    bid: int | None = None  # the chief's bid; an Eklat: the tied top count (C13)
    bids: tuple[int, ...] = ()
    vice_trump: TrumpKind | None = None
    chief_trump: TrumpKind | None = None
    team_goal: int | None = None
    team_points: int | None = None
    success: bool | None = None
    level: int | None = None  # C29: the highest bid the team's points would have met
    shortfall: int | None = None  # C29: the ``d`` of the failure penalty
    provocateur: int | None = None  # C13
    tied: tuple[int, ...] = ()  # C13: the seats tied at the top
    card_points: tuple[int, ...] = ()
    bonus: tuple[int, ...] = ()
    total: tuple[int, ...]
    winning_team: Role | None = None  # R12: CROWN, SHIELD, or None (nobody won)
    shield_bid: int | None = None
    bid_bonus: tuple[int, ...] | None = None
    trump_bonus: tuple[int, ...] | None = None
    kitty: tuple[int, ...] | None = None  # R3: the undealt cards (3 players), else ()
    discarded: tuple[int, ...] | None = None  # R3: the Crown's discards
    team: tuple[int, ...] = ()
    opponents: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()


def result(state: HandState) -> HandResult | None:
    """The hand's result, or ``None`` while it is still being played."""
    return hand_result(state) if state.is_over else None


def hand_result(state: HandState) -> HandResult:
    """The result of a finished hand (C13, C26-C29; R6, R12)."""
    assert state.outcome is not None, "the hand is not over"
    n, counts, vice_kind, chief_kind = (
        state.players,
        state.counts,
        state.vice_kind,
        state.chief_kind,
    )
    revised = isinstance(state.rules, RevisedRules)
    zeros = (0,) * n
    scores = score_hand(state)
    bid, eklat = state.bid, zeros
    tied: tuple[int, ...] = ()
    if state.outcome == Outcome.STALEMATE:  # C13: the bid is the tied top count
        assert state.provocateur is not None
        bid = max(counts)
        tied = tuple(s for s in range(n) if counts[s] == bid)
        eklat = stalemate_scores(counts, state.provocateur)
    no_bonus = zeros if revised else None  # revised keys: zeros in a redeal, else absent
    return HandResult(
        variant=state.rules.name,
        kind=state.outcome,
        chief=state.chief,
        vice=state.vice,
        partner=state.partner,
        bid=bid,
        bids=tuple(counts),
        vice_trump=None if vice_kind is None or state.vice is None else _kind(vice_kind),
        chief_trump=None if chief_kind is None else _kind(chief_kind),
        team_goal=scores.team_goal if scores else None,
        team_points=scores.team_points if scores else None,
        success=scores.success if scores else None,
        level=scores.level if scores else None,
        shortfall=scores.shortfall if scores else None,
        provocateur=state.provocateur,
        tied=tied,
        card_points=scores.card_points if scores else zeros,
        bonus=scores.bonus if scores else eklat,
        total=scores.total if scores else eklat,
        winning_team=scores.winning_team if scores else None,
        shield_bid=counts[state.vice] if revised and state.vice is not None else None,
        bid_bonus=scores.bid_bonus if scores else no_bonus,
        trump_bonus=scores.trump_bonus if scores else no_bonus,
        kitty=tuple(state.kitty) if revised else None,
        discarded=tuple(state.discarded) if revised else None,
        team=scores.team if scores else (),
        opponents=scores.opponents if scores else (),
        winners=scores.winners if scores else (),
    )


_kind = TrumpKind.from_code
