"""Rule sets.  The parts of Mü that differ between editions live here, behind one small
interface, so that a second rule set (the 2024 revised edition) plugs in beside the classic.

Classic tables (rules C2, C6, C27, C28):

>>> CLASSIC.goal(5, 4), CLASSIC.goal(4, 15), CLASSIC.goal(6, 10), CLASSIC.goal(3, 12)
(33, 58, 56, 34)
>>> CLASSIC.bonus(4, "colour"), CLASSIC.bonus(4, "one_or_seven"), CLASSIC.bonus(8, "none")
(40, 50, 100)
"""

from __future__ import annotations

from dataclasses import dataclass

HAND_SIZES = {3: 12, 4: 15, 5: 12, 6: 10}
PLAYER_COUNTS = tuple(HAND_SIZES)

# C28: the bonus class k of the chief's trump, B = min(100, 10 * (bid + k)).
TRUMP_CLASS_OFFSET = {"colour": 0, "one_or_seven": 1, "number": 2, "none": 3}


@dataclass(frozen=True, slots=True)
class ClassicRules:
    """Mü as published in 1995 (rulebooks 000/001 as resolved by RULES.md section 1)."""

    name: str = "classic"
    bonus_cap: int = 100
    chief_may_copy_vice_trump: bool = False  # C18: an engine decision, see docs/rules.md

    def hand_size(self, players: int) -> int:
        return HAND_SIZES[players]

    def removed_colour_count(self, players: int) -> int:
        """C2: three players play without two whole colours."""
        return 2 if players == 3 else 0

    def auction_cap(self, counts: list[int]) -> int:
        """C6 "small steps": after this turn a seat may show at most one card more than the
        highest display on the table (its own included) at the start of the turn."""
        return max(counts) + 1

    def goal(self, players: int, bid: int) -> int:
        """C27: the team goal for a chief's bid (closed forms of the rulebook's table)."""
        base, step = {3: (10, 2), 4: (28, 2), 5: (21, 3), 6: (16, 4)}[players]
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


CLASSIC = ClassicRules()
VARIANTS: dict[str, ClassicRules] = {"classic": CLASSIC}


def get_variant(name: str) -> ClassicRules:
    """The rule set called ``name``; ``ValueError`` if there is none."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError(f"unknown rules variant {name!r}; known: {sorted(VARIANTS)}") from None


def check_players(players: int) -> None:
    if players not in HAND_SIZES:
        raise ValueError(f"Mü is played by 3 to 6 players, not {players}")
