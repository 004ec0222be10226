"""Every number a server or a client needs to build forms and texts, from one place.

:func:`rules_catalog` lists the variants (names, roles, default game length, deal sizes per
player count), the player counts, the limits of a game's length, the colours and the 16
trump kinds; :func:`rules_summary` gives the goal and bonus tables one table plays by.  Both
are typed and JSON-ready through :func:`engine.to_json`, so no rule constant needs to be
typed again outside the engine.

>>> catalog = rules_catalog()
>>> [str(v.name) for v in catalog.variants], str(catalog.default_variant), catalog.player_counts
(['classic', 'revised'], 'classic', (3, 4, 5, 6))
>>> catalog.target_score, catalog.variants[1].default_end
(Limits(min=1, max=100000, default=200), EndCondition(target_score=None, hands=4))
>>> rules_summary("classic", 5).goals[:4]
(24, 27, 30, 33)
>>> rules_summary("revised", 3).unverified
('goals', 'trump_bonus')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from engine.enums import Colour, TrumpClass, TrumpKind, Variant
from engine.records import record
from engine.variants import (
    CLASSIC,
    DEFAULT_VARIANT,
    PLAYER_COUNTS,
    VARIANTS,
    ClassicRules,
    EndCondition,
    Roles,
    Rules,
    check_players,
    get_variant,
)

T = TypeVar("T")


@record
class Limits:
    """The accepted range of an option and the value a form suggests."""

    min: int
    max: int
    default: int


def _classic_target() -> int:
    target = CLASSIC.default_end.target_score
    assert target is not None  # C31: the classic game is played to a target score
    return target


# How long a game may be (C31's target score, or a fixed number of hands; R14).  A form
# suggests the classic defaults; a variant's own suggestion is in its VariantInfo.
TARGET_SCORE_LIMITS = Limits(1, 100_000, _classic_target())
HANDS_LIMITS = Limits(1, 1000, CLASSIC.suggested_hands)


@record
class DealSize:
    """One player count of a variant (C2; R2, R3)."""

    players: int
    hand_size: int
    removed_colours: int  # whole colours out of the deck
    kitty_size: int  # cards left undealt


@record
class VariantInfo:
    name: Variant
    roles: Roles
    default_end: EndCondition
    suggested_hands: int  # a fixed-length game's usual number of hands
    penalties: bool  # a failed chief team pays (classic C29), else the others win (R12)
    deals: tuple[DealSize, ...]


@record
class TrumpKindInfo:
    """A trump a player can name: a colour, a number, or neither (no trump)."""

    kind: TrumpKind
    colour: Colour | None
    number: int | None


@record
class RulesCatalog:
    variants: tuple[VariantInfo, ...]
    default_variant: Variant
    player_counts: tuple[int, ...]
    target_score: Limits
    hands: Limits
    colours: tuple[Colour, ...]
    trump_kinds: tuple[TrumpKindInfo, ...]

    def variant(self, name: str) -> VariantInfo:
        """The variant called ``name``; ``ValueError`` if there is none.

        >>> rules_catalog().variant("revised").penalties
        False
        """
        for info in self.variants:
            if info.name == name:
                return info
        raise ValueError(f"unknown rules variant {name!r}")


def _variant_info(rules: Rules) -> VariantInfo:
    deals = tuple(
        DealSize(n, rules.hand_size(n), rules.removed_colour_count(n), rules.kitty_size(n))
        for n in PLAYER_COUNTS
    )
    return VariantInfo(
        rules.name, rules.roles, rules.default_end, rules.suggested_hands, rules.penalties, deals
    )


_CATALOG = RulesCatalog(
    variants=tuple(_variant_info(rules) for rules in VARIANTS.values()),
    default_variant=DEFAULT_VARIANT,
    player_counts=PLAYER_COUNTS,
    target_score=TARGET_SCORE_LIMITS,
    hands=HANDS_LIMITS,
    colours=tuple(Colour),
    trump_kinds=tuple(TrumpKindInfo(kind, kind.colour, kind.number) for kind in TrumpKind),
)


def rules_catalog() -> RulesCatalog:
    """The rules' defaults and limits (the same immutable object every time)."""
    return _CATALOG


@dataclass(frozen=True)  # not slotted: slotted generic dataclasses fail in Python 3.11
class ByTrumpClass(Generic[T]):
    """One value per bonus class of a leader's trump (C28, R12)."""

    colour: T
    one_or_seven: T
    number: T
    none: T


@record
class Multipliers:
    """R7: points per bid card for the winning team (Crown's bid, or Shield's)."""

    crown: int
    shield: int


@record
class ClassicSummary:
    """C27, C28: the goal and the bonus of every bid (bids ``1..len(goals)``)."""

    variant: str
    players: int
    points: int
    goals: tuple[int, ...]
    bonus: ByTrumpClass[tuple[int, ...]]
    unverified: tuple[str, ...]


@record
class RevisedSummary:
    """R7, R8, R12, naming the values the rulebook does not print (``unverified``), so that
    every client can say so."""

    variant: str
    players: int
    points: int
    goals: tuple[int, ...]
    multipliers: Multipliers
    trump_bonus: ByTrumpClass[int]
    unverified: tuple[str, ...]


RulesSummary = ClassicSummary | RevisedSummary


def rules_summary(variant: str, players: int) -> RulesSummary:
    """The goal and bonus tables of ``variant`` for ``players`` (a table's rules card)."""
    check_players(players)
    rules = get_variant(variant)
    bids = range(1, rules.hand_size(players) + 1)
    goals = tuple(rules.goal(players, b) for b in bids)
    points = rules.points_in_play(players)
    if isinstance(rules, ClassicRules):
        # ByTrumpClass's fields are in TrumpClass's order.
        bonus = ByTrumpClass(*(tuple(rules.bonus(b, c) for b in bids) for c in TrumpClass))
        return ClassicSummary(rules.name, players, points, goals, bonus, ())
    multipliers = Multipliers(rules.crown_multiplier, rules.shield_multiplier)
    tokens = ByTrumpClass(*(rules.trump_bonus(c) for c in TrumpClass))
    return RevisedSummary(
        rules.name, players, points, goals, multipliers, tokens, ("goals", "trump_bonus")
    )
