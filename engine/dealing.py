"""Dealing a hand: the deck in play, a shuffled deal, a stacked deal (rules C1, C2; R2, R3).

The engine never touches the module-level ``random``: a deal takes a ``random.Random``, so a
seed determines the hand (and, with three players, which colours leave the deck).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from engine.cards import (
    CARDS,
    CARDS_PER_COLOUR,
    COLOUR_OF,
    COLOURS,
    DECK_SIZE,
    Card,
    colour_index,
    shuffle,
)
from engine.state import HandState
from engine.variants import check_players, get_variant


def _colours_in_play(players: int, variant: str, removed: Sequence[str] | None) -> tuple[int, ...]:
    count = get_variant(variant).removed_colour_count(players)
    gone = {colour_index(c) for c in removed} if removed is not None else set()
    if len(gone) != (count if removed is not None else 0):
        raise ValueError(f"{players} players ({variant}) remove exactly {count} colours")
    return tuple(c for c in range(len(COLOURS)) if c not in gone)


def deck(
    players: int, variant: str = "classic", removed_colours: Sequence[str] | None = None
) -> tuple[Card, ...]:
    """The cards dealt for ``players`` (3 players: without ``removed_colours``; when these are
    not given, the last two colours are left out)."""
    check_players(players)
    count = get_variant(variant).removed_colour_count(players)
    if removed_colours is None and count:
        removed_colours = COLOURS[-count:]
    colours = _colours_in_play(players, variant, removed_colours)
    return tuple(card for card in CARDS if COLOUR_OF[card.id] in colours)


@cache
def _cards_of(colours: tuple[int, ...]) -> tuple[int, ...]:
    """The ids of these colours' cards, ascending: the unshuffled deck of a deal (cached:
    there are only a few sets of colours in play, and every deal needs one)."""
    return tuple(c for c in range(DECK_SIZE) if COLOUR_OF[c] in colours)


def deal(
    players: int,
    dealer: int,
    rng: random.Random,
    variant: str = "classic",
    removed_colours: Sequence[str] | None = None,
) -> HandState:
    """Shuffle with ``rng`` and deal every card, one at a time clockwise from the dealer's left
    (C2, R2).  With three players two colours (revised: one, R3) leave the deck:
    ``removed_colours``, or random ones drawn from ``rng`` (the hand records which:
    ``view(...).colours``).  The revised 3-player deal keeps the last 3 cards back as
    the kitty (R3)."""
    check_players(players)
    rules = get_variant(variant)
    count = rules.removed_colour_count(players)
    if removed_colours is None and count:
        removed_colours = [COLOURS[i] for i in sorted(rng.sample(range(len(COLOURS)), count))]
    colours = _colours_in_play(players, variant, removed_colours)
    cards = list(_cards_of(colours))
    shuffle(cards, rng)
    dealt = len(cards) - rules.kitty_size(players)
    # One card at a time from the dealer's left: seat s gets every players-th card from
    # position (s - dealer - 1) mod players (slices instead of a loop over the cards).
    hands = [cards[(s - dealer - 1) % players : dealt : players] for s in range(players)]
    return HandState.start(rules, dealer, hands, colours, tuple(cards[dealt:]))


def deal_from(
    hands: Sequence[Sequence[int]],
    dealer: int,
    variant: str = "classic",
    kitty: Sequence[int] | None = None,
) -> HandState:
    """A stacked deal: ``hands[seat]`` lists that seat's card ids (and, revised with three
    players, ``kitty`` the 3 undealt cards; left out, it is whatever the hands' colours
    leave over).  ``ValueError`` unless the hands are equal in size and together with the
    kitty form the deck of whole colours this variant uses."""
    players = len(hands)
    check_players(players)
    rules = get_variant(variant)
    flat = [c for h in hands for c in h]
    if kitty is None:
        kitty = _leftover(flat, rules.kitty_size(players))
    flat += kitty
    if not all(isinstance(c, int) and 0 <= c < DECK_SIZE for c in flat) or len(set(flat)) != len(
        flat
    ):
        raise ValueError("card ids must be distinct ints in 0..59")
    colours = tuple(sorted({COLOUR_OF[c] for c in flat}))
    expected = len(COLOURS) - rules.removed_colour_count(players)
    if len(colours) != expected or len(flat) != expected * CARDS_PER_COLOUR:
        raise ValueError(f"{players} players use exactly {expected} whole colours")
    if any(len(h) != rules.hand_size(players) for h in hands):
        raise ValueError(f"every hand must hold {rules.hand_size(players)} cards")
    if len(kitty) != rules.kitty_size(players):
        raise ValueError(f"the kitty holds {rules.kitty_size(players)} cards")
    if not 0 <= dealer < players:
        raise ValueError("no such dealer seat")
    return HandState.start(rules, dealer, [list(h) for h in hands], colours, tuple(kitty))


def _leftover(flat: list[int], size: int) -> list[int]:
    """The cards of the colours in ``flat`` that ``flat`` lacks (the implied kitty, R3)."""
    if not size:
        return []
    colours = {COLOUR_OF[c] for c in flat if isinstance(c, int) and 0 <= c < DECK_SIZE}
    return [c for c in range(DECK_SIZE) if COLOUR_OF[c] in colours and c not in flat]
