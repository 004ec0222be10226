"""The score sheet (rules C30; revised R13): one row per hand, in the paper sheet's terms.

A row holds the hand's bid and chief trump, card points, bonus or penalty (or Eklat scores),
this hand's ``score`` and the running ``totals`` (the sheet's "Saldo"), plus the roles.  The
revised keys (``winning_team``, ``shield_bid``, ``bid_bonus``, ``trump_bonus``, R12) are
``None`` in classic rows.
"""

from __future__ import annotations

import dataclasses

from engine.enums import Outcome, Role, TrumpKind
from engine.records import record
from engine.results import HandResult
from engine.variants import Roles


@record(kw_only=True)
class SheetRow:
    hand: int  # 1-based
    dealer: int
    kind: Outcome
    bid: int | None
    chief: int | None
    vice: int | None
    partner: int | None
    vice_trump: TrumpKind | None
    chief_trump: TrumpKind | None
    team_goal: int | None
    team_points: int | None
    success: bool | None
    level: int | None
    shortfall: int | None
    provocateur: int | None
    tied: tuple[int, ...]
    card_points: tuple[int, ...]
    bonus: tuple[int, ...]
    winning_team: Role | None
    shield_bid: int | None
    bid_bonus: tuple[int, ...] | None
    trump_bonus: tuple[int, ...] | None
    score: tuple[int, ...]  # this hand
    totals: tuple[int, ...]  # running, after this hand


# What a row takes over from the hand's result unchanged: every field both records have.
_FROM_RESULT = tuple(
    f.name for f in dataclasses.fields(SheetRow) if f.name in HandResult.__dataclass_fields__
)


def sheet_row(res: HandResult, hand: int, dealer: int, totals: tuple[int, ...]) -> SheetRow:
    """The row of hand number ``hand`` with result ``res``; ``totals`` after it."""
    taken = {name: getattr(res, name) for name in _FROM_RESULT}
    return SheetRow(hand=hand, dealer=dealer, score=res.total, totals=totals, **taken)


@record
class ScoreSheet:
    """The whole sheet: the game's options, its rows and totals, and how it ends."""

    players: int
    variant: str
    roles: Roles
    target_score: int | None
    hands: int | None
    rows: tuple[SheetRow, ...]
    totals: tuple[int, ...]
    over: bool
    winners: tuple[int, ...]
    next_dealer: int | None
