"""Rule sets.  The parts of Mü that differ between editions live here, behind one small
interface, so that the 2024 revised edition plugs in beside the classic.

:class:`Edition` holds what every edition defines as data (names, deal sizes, flags the
state machine reads); :class:`ClassicRules` and :class:`RevisedRules` add their goal and
bonus tables.

Classic tables (rules C2, C6, C27, C28):

>>> CLASSIC.goal(5, 4), CLASSIC.goal(4, 15), CLASSIC.goal(6, 10), CLASSIC.goal(3, 12)
(33, 58, 56, 34)
>>> CLASSIC.bonus(4, TrumpClass.COLOUR), CLASSIC.bonus(4, TrumpClass.ONE_OR_SEVEN)
(40, 50)
>>> CLASSIC.bonus(8, TrumpClass.NONE), CLASSIC.hand_size(3), CLASSIC.removed_colour_count(3)
(100, 12, 2)

Revised tables (rules R3, R7, R8, R12; the numbers come from :data:`REVISED_VALUES`, which
is **unverified**):

>>> REVISED.goal(4, 7), REVISED.goal(3, 15), REVISED.hand_size(3), REVISED.kitty_size(3)
(42, 44, 15, 3)
>>> REVISED.trump_bonus(TrumpClass.COLOUR), REVISED.trump_bonus(TrumpClass.NONE)
(10, 40)
"""

from __future__ import annotations

from engine.enums import Role, TrumpClass, Variant
from engine.records import record

PLAYER_COUNTS = (3, 4, 5, 6)

# C28: the bonus class k of the chief's trump, B = min(100, 10 * (bid + k)).
TRUMP_CLASS_OFFSET = {
    TrumpClass.COLOUR: 0, TrumpClass.ONE_OR_SEVEN: 1, TrumpClass.NUMBER: 2, TrumpClass.NONE: 3
}  # fmt: skip

# C27: the team goal base + step * bid per player count (closed forms of the rulebook table).
CLASSIC_GOALS = {3: (10, 2), 4: (28, 2), 5: (21, 3), 6: (16, 4)}


@record
class EndCondition:
    """How long a game lasts when the table does not say: a target score (the game ends
    after the hand in which a total strictly exceeds it) or a number of hands."""

    target_score: int | None = None
    hands: int | None = None


@record
class Roles:
    """What an edition calls the roles held in the ``chief`` and ``vice`` fields."""

    chief: Role
    vice: Role


@record
class Edition:
    """What every edition defines (each subclass gives every field its default).

    ``hand_sizes`` and the 3-player deck (``removed_colours_3``, ``kitty_3``) are per player
    count (C2; R2, R3); ``suggested_hands`` is the length a table form proposes for a game
    of a fixed number of hands; the three flags are what the state machine reads; ``penalties``
    says how a failed chief team is scored (classic C29: the chief pays; revised R12: the
    other team wins instead)."""

    name: Variant
    roles: Roles
    default_end: EndCondition
    suggested_hands: int
    hand_sizes: tuple[int, int, int, int]  # 3, 4, 5, 6 players
    removed_colours_3: int
    kitty_3: int
    chief_may_copy_vice_trump: bool
    roles_move: bool
    vice_may_decline: bool
    penalties: bool

    def hand_size(self, players: int) -> int:
        return self.hand_sizes[players - 3]

    def removed_colour_count(self, players: int) -> int:
        """C2, R3: three players play without whole colours."""
        return self.removed_colours_3 if players == 3 else 0

    def kitty_size(self, players: int) -> int:
        """R3: the cards left undealt (the kitty); the classic deals every card."""
        return self.kitty_3 if players == 3 else 0

    def points_in_play(self, players: int) -> int:
        """C1: 12 card points per colour in the deck."""
        return 12 * (5 - self.removed_colour_count(players))


@record
class ClassicRules(Edition):
    """Mü as published in 1995 (rulebooks 000/001 as resolved by RULES.md section 1)."""

    name: Variant = Variant.CLASSIC
    roles: Roles = Roles(Role.CHIEF, Role.VICE)
    default_end: EndCondition = EndCondition(target_score=200)  # C31
    suggested_hands: int = 6
    hand_sizes: tuple[int, int, int, int] = (12, 15, 12, 10)  # C2
    removed_colours_3: int = 2  # C2
    kitty_3: int = 0
    chief_may_copy_vice_trump: bool = False  # C18: an engine decision, see docs/rules.md
    roles_move: bool = False  # classic: chief and vice are settled once, after the auction
    vice_may_decline: bool = False  # C17: the vice must name a trump
    penalties: bool = True  # C29
    bonus_cap: int = 100

    def auction_cap(self, counts: list[int]) -> int:
        """C6 "small steps": after this turn a seat may show at most one card more than the
        highest display on the table (its own included) at the start of the turn."""
        return max(counts) + 1

    def goal(self, players: int, bid: int) -> int:
        """C27: the team goal for a chief's bid (closed forms of the rulebook's table)."""
        base, step = CLASSIC_GOALS[players]
        return base + step * bid

    def achieved_level(self, players: int, points: int) -> int:
        """C29: the highest bid whose goal ``points`` would have met (0 if none): the goal
        ``base + step * bid`` is at most ``points`` up to ``(points - base) // step``."""
        base, step = CLASSIC_GOALS[players]
        return max(0, min(self.hand_size(players), (points - base) // step))

    def bonus(self, bid: int, trump_class: TrumpClass) -> int:
        """C28: the bonus chief and partner each receive when the goal is met."""
        return min(self.bonus_cap, 10 * (bid + TRUMP_CLASS_OFFSET[trump_class]))


@record
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

    def trump_bonus(self, trump_class: TrumpClass) -> int:
        """The token value for a trump class."""
        return {
            TrumpClass.COLOUR: self.bonus_colour,
            TrumpClass.ONE_OR_SEVEN: self.bonus_one_or_seven,
            TrumpClass.NUMBER: self.bonus_other_number,
            TrumpClass.NONE: self.bonus_no_trump,
        }[trump_class]

    def goal(self, players: int, bid: int) -> int:
        """The Crown team's goal ``base + step * bid``."""
        base, step = self.goals[players - 3]
        return base + step * bid


REVISED_VALUES = RevisedValues()


@record
class RevisedRules(Edition):
    """The 2024 HeidelBÄR revised edition, Crown and Shield (seed 004, RULES.md section 2).

    Differences from the classic that the state machine reads from here: no small-steps cap
    (R4), Crown and Shield move with every placement and ties never take over (R5, so no
    Eklat), nobody showing a card means a redeal (R6), 3 players remove one colour and play
    with a 3-card kitty (R3), the Shield may name no trump (R9), bonuses instead of
    penalties (R12), and a game of 4 hands (R14).  The unverified numbers live in
    ``values`` (:class:`RevisedValues`).
    """

    name: Variant = Variant.REVISED
    roles: Roles = Roles(Role.CROWN, Role.SHIELD)
    default_end: EndCondition = EndCondition(hands=4)  # R14: "3-4 hands"; RULES.md: 4
    suggested_hands: int = 4
    hand_sizes: tuple[int, int, int, int] = (15, 15, 12, 10)  # R2, R3
    removed_colours_3: int = 1  # R3: 48 cards
    kitty_3: int = 3  # R3: the last 3 cards, taken by the Crown
    chief_may_copy_vice_trump: bool = False  # RULES.md defaults: "no trump" excepted
    roles_move: bool = True  # R5
    vice_may_decline: bool = True  # R9: "Either player can also choose no-trump"
    penalties: bool = False  # R12: "no penalties"; the Shield's team wins instead
    values: RevisedValues = REVISED_VALUES
    crown_multiplier: int = 10  # R7
    shield_multiplier: int = 5  # R7

    def auction_cap(self, counts: list[int]) -> int:
        """R4: "reveal any number of cards": no small-steps cap (no hand exceeds 60)."""
        return 60

    def goal(self, players: int, bid: int) -> int:
        """R8: the Crown team's goal for the Crown's bid (unverified table)."""
        return self.values.goal(players, bid)

    def trump_bonus(self, trump_class: TrumpClass) -> int:
        """R12.3: the trump-token bonus of a leader's trump (unverified table)."""
        return self.values.trump_bonus(trump_class)


Rules = ClassicRules | RevisedRules

CLASSIC = ClassicRules()
REVISED = RevisedRules()
VARIANTS: dict[str, Rules] = {rules.name: rules for rules in (CLASSIC, REVISED)}
DEFAULT_VARIANT = CLASSIC.name


def get_variant(name: str) -> Rules:
    """The rule set called ``name``; ``ValueError`` if there is none."""
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown rules variant {name!r}; known: {sorted(VARIANTS)}") from None


def check_players(players: int) -> None:
    if players not in PLAYER_COUNTS:
        raise ValueError(f"Mü is played by 3 to 6 players, not {players}")
