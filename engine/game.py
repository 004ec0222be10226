"""A game: a series of hands with its score sheet (rules C3, C30, C31; R13, R14).

The whole flow of a game lives here, functional like the hand API (a :class:`Game` is
frozen)::

    game = new_game(GameOptions(players=5), first_dealer=0)   # classic: target 200
    while not game.over:
        game = deal_next(game, rng)              # only when game.needs_deal
        while game.hand is not None and not game.hand.is_over:
            game = play(game, seat, action)      # a hand that ends is recorded at once
    game.winners                                 # seats with the highest total (joint on ties)

After every hand (played, Eklat, all-pass, or a revised redeal) the deal passes to the left
neighbour.  The game ends after the hand in which some total strictly exceeds
``target_score``, or after ``hands`` hands when that is set instead.  Given neither, the
variant's default applies (classic: target 200; revised: 4 hands).  A revised redeal
(nobody showed a card, R6) is recorded on the sheet but does not use up one of the
``hands``: the rulebook deals again.

>>> import random, engine
>>> game = deal_next(new_game(GameOptions(players=4), first_dealer=2), random.Random(3))
>>> game.hand_number, game.hand.dealer, game.needs_deal, game.next_dealer
(1, 2, False, 3)
>>> for seat in (2, 3, 0, 1):
...     game = play(game, seat, engine.Pass())
>>> game.hand_number, game.needs_deal, game.last_result.kind, game.rows[-1].totals
(1, True, <Outcome.ALL_PASSED: 'all_passed'>, (0, 0, 0, 0))
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from engine.actions import Action, is_int
from engine.catalog import HANDS_LIMITS, TARGET_SCORE_LIMITS
from engine.dealing import deal
from engine.enums import Colour, Outcome
from engine.errors import HandOver
from engine.legality import apply
from engine.records import record
from engine.results import HandResult, hand_result
from engine.sheet import ScoreSheet, SheetRow, sheet_row
from engine.state import HandState
from engine.variants import check_players, get_variant
from engine.views import HandView, view


@dataclass(frozen=True, slots=True, init=False)
class GameOptions:
    """How a table plays.  Exactly one end condition: ``target_score`` or ``hands`` (within
    :func:`engine.rules_catalog`'s limits); give neither and the variant's default applies
    (classic C31: target 200; revised R14: 4 hands).  ``removed_colours``: with 3 players,
    the colours left out of every hand (two classic, one revised); ``None`` draws them at
    random per hand.  ``ValueError`` for anything else."""

    players: int
    variant: str
    target_score: int | None
    hands: int | None
    removed_colours: tuple[Colour, ...] | None

    def __init__(
        self,
        players: int,
        variant: str = "classic",
        target_score: int | None = None,
        hands: int | None = None,
        removed_colours: tuple[str, ...] | None = None,
    ) -> None:
        check_players(players)
        rules = get_variant(variant)
        if hands is not None and target_score is not None:
            raise ValueError("give target_score or hands, not both")
        if hands is None and target_score is None:
            target_score, hands = rules.default_end.target_score, rules.default_end.hands
        if hands is not None:
            _check_limit("hands", hands, HANDS_LIMITS.min, HANDS_LIMITS.max)
            target_score = None
        else:
            limits = TARGET_SCORE_LIMITS
            _check_limit("target_score", target_score, limits.min, limits.max)
        colours = None if removed_colours is None else _colours(removed_colours)
        count = rules.removed_colour_count(players)
        if colours is not None and len(colours) != count:
            raise ValueError(f"{players} players ({variant}) remove {count} colours")
        for name, value in (
            ("players", players),
            ("variant", variant),
            ("target_score", target_score),
            ("hands", hands),
            ("removed_colours", colours),
        ):
            object.__setattr__(self, name, value)


def _check_limit(name: str, value: object, low: int, high: int) -> None:
    if not is_int(value) or not low <= value <= high:
        raise ValueError(f"{name} must be a whole number from {low} to {high}")


def _colours(names: tuple[str, ...]) -> tuple[Colour, ...]:
    try:
        return tuple(Colour(name) for name in names)
    except ValueError:
        raise ValueError(f"not colours: {names!r}") from None


@record
class Game:
    """A game so far: its sheet, the hand being played (or the last one), the last result.

    ``hand`` is ``None`` before the first deal (and after :func:`record_result`);
    ``last_result`` is the result of the latest finished hand, kept while the next hand is
    played so that a table can show it."""

    options: GameOptions
    first_dealer: int = 0
    rows: tuple[SheetRow, ...] = ()
    totals: tuple[int, ...] = ()
    hand: HandState | None = None
    last_result: HandResult | None = None

    @property
    def hand_number(self) -> int:
        """The number of ``hand`` (1-based: the hand being played or the last one); 0
        before the first deal."""
        return len(self.rows) + (1 if self._in_progress else 0)

    @property
    def next_dealer(self) -> int | None:
        """The dealer of the next deal (C3: the left neighbour of the last dealer, after
        every kind of hand); ``None`` once the game is over."""
        if self.over:
            return None
        return (self.first_dealer + self.hand_number) % self.options.players

    @property
    def hands_played(self) -> int:
        """Hands that count towards ``options.hands``: every row but revised redeals."""
        return sum(1 for row in self.rows if row.kind != Outcome.REDEAL)

    @property
    def over(self) -> bool:
        opts = self.options
        if opts.hands is not None:
            return self.hands_played >= opts.hands
        return any(t > (opts.target_score or 0) for t in self.totals)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats with the highest total once the game is over (several on a tie, C31)."""
        if not self.over:
            return ()
        best = max(self.totals)
        return tuple(s for s, t in enumerate(self.totals) if t == best)

    @property
    def needs_deal(self) -> bool:
        """Whether the next hand is to be dealt: the game goes on and no hand is open."""
        return not self.over and not self._in_progress

    @property
    def _in_progress(self) -> bool:
        return self.hand is not None and not self.hand.is_over


def new_game(options: GameOptions, first_dealer: int = 0) -> Game:
    """A game with an empty score sheet; ``first_dealer`` deals the first hand (C3: the
    rulebooks leave the choice to the table)."""
    if not 0 <= first_dealer < options.players:
        raise ValueError("no such dealer seat")
    return Game(options, first_dealer, (), (0,) * options.players)


def deal_next(game: Game, rng: random.Random) -> Game:
    """Deal the next hand with ``rng`` (by ``game.next_dealer``).  ``ValueError`` unless
    ``game.needs_deal``."""
    dealer = game.next_dealer
    if not game.needs_deal or dealer is None:
        raise ValueError("the game is over" if game.over else "a hand is being played")
    opts = game.options
    hand = deal(opts.players, dealer, rng, opts.variant, opts.removed_colours)
    return replace(game, hand=hand)


def play(game: Game, seat: int | None, action: Action) -> Game:
    """``engine.apply`` on the hand being played; a hand that ends is recorded on the sheet
    at once (its row, the totals and ``last_result``).

    Raises:
        IllegalAction: as :func:`engine.apply` (``hand_over`` when no hand is open)."""
    if game.hand is None:
        raise HandOver("no hand has been dealt")
    hand = apply(game.hand, seat, action)
    if not hand.is_over:
        return Game(game.options, game.first_dealer, game.rows, game.totals, hand, game.last_result)
    return _record(game, hand_result(hand), hand.dealer, hand)


def record_result(game: Game, result: HandResult) -> Game:
    """The game after a hand with ``result`` that was played elsewhere (the rulebook's
    examples), dealt by ``game.next_dealer``.  ``ValueError`` unless ``game.needs_deal``."""
    dealer = game.next_dealer
    if not game.needs_deal or dealer is None:
        raise ValueError("the game is over" if game.over else "a hand is being played")
    return _record(game, result, dealer, None)


def _record(game: Game, result: HandResult, dealer: int, hand: HandState | None) -> Game:
    """C30: one more row, the running totals, and ``result`` as the last result."""
    totals = tuple(t + s for t, s in zip(game.totals, result.total, strict=True))
    row = sheet_row(result, len(game.rows) + 1, dealer, totals)
    return Game(game.options, game.first_dealer, (*game.rows, row), totals, hand, result)


def scoresheet(game: Game) -> ScoreSheet:
    """The whole sheet: the options, the rows, the totals and the end of the game."""
    opts = game.options
    return ScoreSheet(
        players=opts.players,
        variant=opts.variant,
        roles=get_variant(opts.variant).roles,
        target_score=opts.target_score,
        hands=opts.hands,
        rows=game.rows,
        totals=game.totals,
        over=game.over,
        winners=game.winners,
        next_dealer=game.next_dealer,
    )


@record
class GameView:
    """What one seat (``None``: a spectator) may see of a game: the hand's view (``None``
    before the first deal) and the game's state around it."""

    variant: str
    players: int
    hand: HandView | None
    hand_number: int
    next_dealer: int | None
    totals: tuple[int, ...]
    last_result: HandResult | None
    over: bool
    winners: tuple[int, ...]


def game_view(game: Game, seat: int | None) -> GameView:
    """The game as ``seat`` may see it (the hand redacted by :func:`engine.view`)."""
    opts = game.options
    return GameView(
        variant=opts.variant,
        players=opts.players,
        hand=None if game.hand is None else view(game.hand, seat),
        hand_number=game.hand_number,
        next_dealer=game.next_dealer,
        totals=game.totals,
        last_result=game.last_result,
        over=game.over,
        winners=game.winners,
    )
