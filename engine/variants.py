"""Rule sets.  The parts of Mü that differ between editions live here, behind one small
interface, so that the 2024 revised edition plugs in beside the classic.

Classic tables (rules C2, C6, C27, C28):

>>> CLASSIC.goal(5, 4), CLASSIC.goal(4, 15), CLASSIC.goal(6, 10), CLASSIC.goal(3, 12)
(33, 58, 56, 34)
>>> CLASSIC.bonus(4, "colour"), CLASSIC.bonus(4, "one_or_seven"), CLASSIC.bonus(8, "none")
(40, 50, 100)

Revised tables (rules R3, R7, R8, R12; the numbers come from :data:`REVISED_VALUES`, which
is **unverified**):

>>> REVISED.goal(4, 7), REVISED.goal(3, 15), REVISED.hand_size(3), REVISED.kitty_size(3)
(42, 44, 15, 3)
>>> REVISED.trump_bonus("colour"), REVISED.trump_bonus("none")
(10, 40)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

HAND_SIZES = {3: 12, 4: 15, 5: 12, 6: 10}
PLAYER_COUNTS = tuple(HAND_SIZES)

# C28: the bonus class k of the chief's trump, B = min(100, 10 * (bid + k)).
TRUMP_CLASS_OFFSET = {"colour": 0, "one_or_seven": 1, "number": 2, "none": 3}

# C27: the team goal base + step * bid per player count (closed forms of the rulebook table).
CLASSIC_GOALS = {3: (10, 2), 4: (28, 2), 5: (21, 3), 6: (16, 4)}


@dataclass(frozen=True, slots=True)
class EndCondition:
    """How long a game lasts when the table does not say: a target score (the game ends
    after the hand in which a total strictly exceeds it) or a number of hands."""

    target_score: int | None = None
    hands: int | None = None


@dataclass(frozen=True, slots=True)
class ClassicRules:
    """Mü as published in 1995 (rulebooks 000/001 as resolved by RULES.md section 1)."""

    name: str = "classic"
    bonus_cap: int = 100
    chief_may_copy_vice_trump: bool = False  # C18: an engine decision, see docs/rules.md
    roles_move: bool = False  # classic: chief and vice are settled once, after the auction
    vice_may_decline: bool = False  # C17: the vice must name a trump
    role_names: tuple[str, str] = ("chief", "vice")
    default_end: EndCondition = EndCondition(target_score=200)  # C31

    def roles(self) -> dict[str, str]:
        """What views call the two roles: ``{"chief": ..., "vice": ...}``."""
        return {"chief": self.role_names[0], "vice": self.role_names[1]}

    def hand_size(self, players: int) -> int:
        return HAND_SIZES[players]

    def removed_colour_count(self, players: int) -> int:
        """C2: three players play without two whole colours."""
        return 2 if players == 3 else 0

    def kitty_size(self, players: int) -> int:
        """Classic deals every card: no kitty."""
        return 0

    def auction_cap(self, counts: list[int]) -> int:
        """C6 "small steps": after this turn a seat may show at most one card more than the
        highest display on the table (its own included) at the start of the turn."""
        return max(counts) + 1

    def goal(self, players: int, bid: int) -> int:
        """C27: the team goal for a chief's bid (closed forms of the rulebook's table)."""
        base, step = CLASSIC_GOALS[players]
        return base + step * bid

    def achieved_level(self, players: int, points: int) -> int:
        """C29: the highest bid whose goal ``points`` would have met (0 if none)."""
        level = 0
        for bid in range(1, self.hand_size(players) + 1):
            if self.goal(players, bid) <= points:
                level = bid
        return level

    def bonus(self, bid: int, trump_class: str) -> int:
        """C28: the bonus chief and partner each receive when the goal is met."""
        return min(self.bonus_cap, 10 * (bid + TRUMP_CLASS_OFFSET[trump_class]))

    def summary(self, players: int) -> dict[str, Any]:
        """The numbers a table plays by, for a rules card: goal and bonus per bid (C27, C28)."""
        bids = range(1, self.hand_size(players) + 1)
        return {
            **_summary_head(self, players),
            "bonus": {cls: [self.bonus(b, cls) for b in bids] for cls in TRUMP_CLASS_OFFSET},
            "unverified": [],
        }


@dataclass(frozen=True, slots=True)
class RevisedValues:
    """The numbers the 2024 revised rulebook (seed 004) prints only on its tokens, which the
    project could not read.  **Unverified**: these are RULES.md's binding defaults, kept in
    this one table so that the publisher's real values can replace them in one place.

    * ``bonus_*``: the trump-token bonus by the class of the leader's trump (R12; 004
      shows only "no-trump ... 40" and one token of 10): colour 10, number 1 or 7 20,
      any other number 30, no trump 40.
    * ``goals``: for 3, 4, 5, 6 players, the Crown team's goal ``base + step * bid`` (R8;
      4-6 players take the classic table C27, which matches 004's one example, 4 players
      bid 7 -> 42; 3 players play for 48 points: 14 + 2 x bid).
    """

    bonus_colour: int = 10
    bonus_one_or_seven: int = 20
    bonus_other_number: int = 30
    bonus_no_trump: int = 40
    goals: tuple[tuple[int, int], ...] = ((14, 2), (28, 2), (21, 3), (16, 4))  # 3..6 players

    def trump_bonus(self, trump_class: str) -> int:
        """The token value for a trump class (``"colour"``, ``"one_or_seven"``, ...)."""
        return {
            "colour": self.bonus_colour,
            "one_or_seven": self.bonus_one_or_seven,
            "number": self.bonus_other_number,
            "none": self.bonus_no_trump,
        }[trump_class]

    def goal(self, players: int, bid: int) -> int:
        """The Crown team's goal ``base + step * bid``."""
        base, step = self.goals[players - 3]
        return base + step * bid


REVISED_VALUES = RevisedValues()
REVISED_HAND_SIZES = {3: 15, 4: 15, 5: 12, 6: 10}  # R2, R3


@dataclass(frozen=True, slots=True)
class RevisedRules:
    """The 2024 HeidelBÄR revised edition, Crown and Shield (seed 004, RULES.md section 2).

    Differences from the classic that the state machine reads from here: no small-steps cap
    (R4), Crown and Shield move with every placement and ties never take over (R5, so no
    Eklat), nobody showing a card means a redeal (R6), 3 players remove one colour and play
    with a 3-card kitty (R3), the Shield may name no trump (R9), bonuses instead of
    penalties (R12), and a game of 4 hands (R14).  The unverified numbers live in
    ``values`` (:class:`RevisedValues`).
    """

    name: str = "revised"
    values: RevisedValues = REVISED_VALUES
    chief_may_copy_vice_trump: bool = False  # RULES.md defaults: "no trump" excepted
    roles_move: bool = True  # R5
    vice_may_decline: bool = True  # R9: "Either player can also choose no-trump"
    role_names: tuple[str, str] = ("crown", "shield")
    default_end: EndCondition = EndCondition(hands=4)  # R14: "3-4 hands"; RULES.md: 4
    crown_multiplier: int = 10  # R7
    shield_multiplier: int = 5  # R7

    def roles(self) -> dict[str, str]:
        """What views call the two roles: ``{"chief": ..., "vice": ...}``."""
        return {"chief": self.role_names[0], "vice": self.role_names[1]}

    def hand_size(self, players: int) -> int:
        return REVISED_HAND_SIZES[players]

    def removed_colour_count(self, players: int) -> int:
        """R3: three players play without one whole colour (48 cards)."""
        return 1 if players == 3 else 0

    def kitty_size(self, players: int) -> int:
        """R3: with three players the last 3 cards form the kitty, taken by the Crown."""
        return 3 if players == 3 else 0

    def auction_cap(self, counts: list[int]) -> int:
        """R4: "reveal any number of cards": no small-steps cap (no hand exceeds 60)."""
        return 60

    def goal(self, players: int, bid: int) -> int:
        """R8: the Crown team's goal for the Crown's bid (unverified table)."""
        return self.values.goal(players, bid)

    def trump_bonus(self, trump_class: str) -> int:
        """R12.3: the trump-token bonus of a leader's trump (unverified table)."""
        return self.values.trump_bonus(trump_class)

    def summary(self, players: int) -> dict[str, Any]:
        """The numbers a table plays by (R7, R8, R12), naming the ones the rulebook does not
        print (``unverified``), so that every client can say so."""
        return {
            **_summary_head(self, players),
            "multipliers": {"crown": self.crown_multiplier, "shield": self.shield_multiplier},
            "trump_bonus": {cls: self.trump_bonus(cls) for cls in TRUMP_CLASS_OFFSET},
            "unverified": ["goals", "trump_bonus"],
        }


Rules = ClassicRules | RevisedRules

CLASSIC = ClassicRules()
REVISED = RevisedRules()
VARIANTS: dict[str, Rules] = {"classic": CLASSIC, "revised": REVISED}


def _summary_head(rules: Rules, players: int) -> dict[str, Any]:
    """What every rule set's summary starts with: the points in play and the goal per bid."""
    bids = range(1, rules.hand_size(players) + 1)
    return {
        "variant": rules.name,
        "players": players,
        "points": 12 * (5 - rules.removed_colour_count(players)),
        "goals": [rules.goal(players, b) for b in bids],
    }


def rules_summary(variant: str, players: int) -> dict[str, Any]:
    """The goal and bonus tables of ``variant`` for ``players``, and which values are
    unverified (JSON-ready; the server puts it in the table's info for the rules card).

    >>> rules_summary("classic", 5)["goals"][:4]
    [24, 27, 30, 33]
    >>> rules_summary("revised", 3)["unverified"]
    ['goals', 'trump_bonus']
    """
    check_players(players)
    return get_variant(variant).summary(players)


def get_variant(name: str) -> Rules:
    """The rule set called ``name``; ``ValueError`` if there is none."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError(f"unknown rules variant {name!r}; known: {sorted(VARIANTS)}") from None


def check_players(players: int) -> None:
    if players not in HAND_SIZES:
        raise ValueError(f"Mü is played by 3 to 6 players, not {players}")
