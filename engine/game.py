"""A game: a series of hands with the running score sheet (rules C3, C30, C31; R13, R14).

The API is functional like the hand API; a :class:`GameState` is frozen::

    opts = GameOptions(players=5)                # classic: target 200
    opts = GameOptions(players=5, variant="revised")   # revised: 4 hands
    game = new_game(opts, first_dealer=0)
    while not game.over:
        hand = start_hand(game, rng)             # dealt by game.dealer
        ...                                      # engine.apply(...) until hand.phase == "over"
        game = record_hand(game, hand)           # appends a score-sheet row
    game.winners                                 # seats with the highest total (joint on ties)

After every hand (played, Eklat, all-pass, or a revised redeal) the deal passes to the left
neighbour.  The game ends after the hand in which some total strictly exceeds
``target_score``, or after ``hands`` hands when that is set instead.  Given neither, the
variant's default applies (classic: target 200; revised: 4 hands).  A revised redeal
(nobody showed a card, R6) is recorded on the sheet but does not use up one of the
``hands``: the rulebook deals again.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field, replace
from typing import Any

from engine.api import deal, result
from engine.cards import COLOURS
from engine.state import REDEAL, HandState
from engine.variants import check_players, get_variant


class _Default(enum.Enum):
    """Marks an option left out, so that the variant's default applies."""

    VARIANT = "the variant's default"


VARIANT_DEFAULT = _Default.VARIANT


@dataclass(frozen=True, slots=True, init=False)
class GameOptions:
    """How a table plays.  Exactly one end condition: ``target_score`` or ``hands``; give
    neither and the variant's default applies (classic C31: target 200; revised R14: 4
    hands).  ``removed_colours``: with 3 players, the colours left out of every hand (two
    classic, one revised); ``None`` draws them at random per hand."""

    players: int
    variant: str
    target_score: int | None
    hands: int | None
    removed_colours: tuple[str, ...] | None

    def __init__(
        self,
        players: int,
        variant: str = "classic",
        target_score: int | None | _Default = VARIANT_DEFAULT,
        hands: int | None = None,
        removed_colours: tuple[str, ...] | None = None,
    ) -> None:
        check_players(players)
        rules = get_variant(variant)
        if hands is None and target_score is VARIANT_DEFAULT:
            target_score, hands = rules.default_end.target_score, rules.default_end.hands
        if hands is not None:
            if hands < 1:
                raise ValueError("a game has at least one hand")
            target_score = None
        elif not isinstance(target_score, int) or target_score < 1:
            raise ValueError("give a positive target_score or a number of hands")
        if removed_colours is not None:
            removed_colours = tuple(removed_colours)
            if len(removed_colours) != rules.removed_colour_count(players) or not set(
                removed_colours
            ) <= set(COLOURS):
                count = rules.removed_colour_count(players)
                raise ValueError(f"{players} players ({variant}) remove {count} colours")
        for name, value in (
            ("players", players),
            ("variant", variant),
            ("target_score", target_score),
            ("hands", hands),
            ("removed_colours", removed_colours),
        ):
            object.__setattr__(self, name, value)


@dataclass(frozen=True, slots=True)
class GameState:
    """The score sheet so far; ``rows`` are JSON-ready dicts (see :func:`sheet_row`)."""

    options: GameOptions
    first_dealer: int = 0
    rows: tuple[dict[str, Any], ...] = ()
    totals: tuple[int, ...] = field(default=())

    @property
    def hand_number(self) -> int:
        """1-based number of the hand being played (or to be dealt next)."""
        return len(self.rows) + 1

    @property
    def dealer(self) -> int:
        return (self.first_dealer + len(self.rows)) % self.options.players

    @property
    def hands_played(self) -> int:
        """Hands that count towards ``options.hands``: every row but revised redeals."""
        return sum(1 for row in self.rows if row["kind"] != REDEAL)

    @property
    def over(self) -> bool:
        opts = self.options
        if opts.hands is not None:
            return self.hands_played >= opts.hands
        return any(t > (opts.target_score or 0) for t in self.totals)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats with the highest total once the game is over (several on a tie)."""
        if not self.over:
            return ()
        best = max(self.totals)
        return tuple(s for s, t in enumerate(self.totals) if t == best)


def new_game(options: GameOptions, first_dealer: int = 0) -> GameState:
    """A game with an empty score sheet."""
    if not 0 <= first_dealer < options.players:
        raise ValueError("no such dealer seat")
    return GameState(options, first_dealer, (), (0,) * options.players)


def start_hand(game: GameState, rng: random.Random) -> HandState:
    """Deal the game's next hand with ``rng``."""
    if game.over:
        raise ValueError("the game is over")
    opts = game.options
    return deal(opts.players, game.dealer, rng, opts.variant, opts.removed_colours)


_ROW_KEYS = (
    "kind", "bid", "chief", "vice", "partner", "vice_trump", "chief_trump", "team_goal",
    "team_points", "success", "level", "shortfall", "provocateur", "tied", "card_points", "bonus",
)  # fmt: skip
_REVISED_ROW_KEYS = ("winning_team", "shield_bid", "bid_bonus", "trump_bonus")  # R12


def record_result(game: GameState, res: dict[str, Any]) -> GameState:
    """The game after a hand with result ``res`` (an ``engine.result`` dict), dealt by
    ``game.dealer``: one more score-sheet row, in the paper sheet's terms (bid and chief
    trump, card points, bonus/penalty or Eklat scores, running total) plus the roles.

    Only ``total`` is required; a descriptive key the result lacks is recorded as null, so a
    sheet can also be rebuilt from results written down elsewhere (the rulebook's examples)."""
    if game.over:
        raise ValueError("the game is over")
    totals = tuple(t + s for t, s in zip(game.totals, res["total"], strict=True))
    row = {
        "hand": game.hand_number,
        "dealer": game.dealer,
        **{key: res.get(key) for key in _ROW_KEYS},
        **{key: res[key] for key in _REVISED_ROW_KEYS if key in res},
        "score": list(res["total"]),
        "totals": list(totals),
    }
    return replace(game, rows=(*game.rows, row), totals=totals)


def record_hand(game: GameState, hand: HandState) -> GameState:
    """The game after ``hand``, which must be over and dealt by ``game.dealer``."""
    if hand.players != game.options.players or hand.dealer != game.dealer:
        raise ValueError("this hand does not belong to this game")
    res = result(hand)
    if res is None:
        raise ValueError("the hand is not over yet")
    return record_result(game, res)


def scoresheet(game: GameState) -> dict[str, Any]:
    """The whole sheet as JSON: rows, totals, and the end of the game."""
    return {
        "players": game.options.players,
        "variant": game.options.variant,
        "roles": get_variant(game.options.variant).roles(),
        "target_score": game.options.target_score,
        "hands": game.options.hands,
        "rows": [dict(r) for r in game.rows],
        "totals": list(game.totals),
        "over": game.over,
        "winners": list(game.winners),
        "next_dealer": None if game.over else game.dealer,
    }
