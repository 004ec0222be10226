"""Trump kinds, the trump ranking and following suit (rules C17-C22, C25).

A trump *kind* is an int: ``0..4`` a colour, ``5..14`` the number ``kind - 5``, and
:data:`NO_TRUMP` (15), i.e. the ``code`` of a :class:`~engine.enums.TrumpKind`.  A
*configuration* is the pair (vice kind, chief kind); for each one a :class:`TrumpTable` is
built once and cached, so card play never re-derives trump membership:

* ``suit[c]``: the card's effective suit: its colour, or :data:`TRUMP` for any trump (chief,
  vice and double trumps form one suit, and a number trump leaves its colour: C22, T11);
* ``rank[c]``: trick strength of a trump card, ``100 + 16 * tier + r`` (tier 3 double,
  2 chief, 1 vice; ``r`` = number + 1 inside a colour trump, 0 for a number trump, whose
  cards are all equal: C21).  Non-trump cards rank by number inside the led colour only;
* ``suit_mask[s]``: bitmask of the cards of effective suit ``s`` (voids, samplers).

Equal ranks resolve to the card played first because the trick winner only changes on a
strictly greater rank.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from engine.cards import COLOUR_OF, DECK_SIZE, NUMBER_OF, POINTS_OF
from engine.enums import TrumpTier

COLOUR_KINDS = range(0, 5)
NUMBER_BASE: Final = 5
NO_TRUMP: Final = 15
TRUMP: Final = 5  # the effective suit shared by all trumps (colours are 0..4)
TRUMP_RANK_BASE: Final = 100


def card_has_kind(cid: int, kind: int) -> bool:
    """Whether card ``cid`` belongs to trump kind ``kind``."""
    if kind == NO_TRUMP:
        return False
    if kind < NUMBER_BASE:
        return COLOUR_OF[cid] == kind
    return NUMBER_OF[cid] == kind - NUMBER_BASE


def display_kinds(cards: list[int]) -> list[int]:
    """The trump kinds a display offers: its colours and its numbers (C17, C18)."""
    kinds = {COLOUR_OF[c] for c in cards} | {NUMBER_BASE + NUMBER_OF[c] for c in cards}
    return sorted(kinds)


class TrumpTable:
    """Precomputed card properties for one (vice, chief) trump configuration.

    A plain class, not a ``@record``: the compiled build makes it a native class, so the
    rollouts' many ``table.suit[c]`` reads are struct reads, not attribute lookups by name.
    :func:`trump_table` builds one instance per configuration, so identity is equality."""

    __slots__ = (
        "vice", "chief", "suit", "rank", "suit_mask", "by_led", "strongest", "discard_key",
        "give_key", "win_key",
    )  # fmt: skip

    def __init__(
        self,
        vice: int,
        chief: int,
        suit: tuple[int, ...],
        rank: tuple[int, ...],
        suit_mask: tuple[int, ...],
        by_led: tuple[tuple[int, ...], ...],
    ) -> None:
        self.vice, self.chief = vice, chief
        self.suit = suit
        self.rank = rank
        self.suit_mask = suit_mask
        self.by_led = by_led  # by_led[led][c] == trick_rank(self, c, led)
        # The trump cards, strongest first (equal ranks by id): the rollout policy's scan.
        trumps = [c for c in range(DECK_SIZE) if rank[c] >= 0]
        self.strongest: tuple[int, ...] = tuple(sorted(trumps, key=lambda c: -rank[c]))
        # The rollout policy's sort keys as one int per card (``min``/``max`` with
        # ``key=tuple.__getitem__``: no key tuple built per card), each ordered exactly like
        # the tuple in its comment (the parts are small, non-negative and bounded):
        # discard_key ~ (points, is trump, rank if trump else number): the cheapest card;
        # give_key ~ (points, not trump, -number): what to give a partner's trick;
        # win_key[led] ~ (trick rank, -points): the cheapest winner of a trick led in ``led``.
        self.discard_key: tuple[int, ...] = tuple(
            (POINTS_OF[c] * 2 + 1) * 256 + rank[c]
            if rank[c] >= 0
            else POINTS_OF[c] * 512 + NUMBER_OF[c]
            for c in range(DECK_SIZE)
        )
        self.give_key: tuple[int, ...] = tuple(
            POINTS_OF[c] * 32 + (0 if rank[c] >= 0 else 16) + 9 - NUMBER_OF[c]
            for c in range(DECK_SIZE)
        )
        self.win_key: tuple[tuple[int, ...], ...] = tuple(
            tuple(by[c] * 4 - POINTS_OF[c] for c in range(DECK_SIZE)) for by in by_led
        )

    def __repr__(self) -> str:
        return f"TrumpTable(vice={self.vice}, chief={self.chief})"

    def is_trump(self, cid: int) -> bool:
        return self.suit[cid] == TRUMP


def _tier_rank(cid: int, kind: int) -> int:
    # Inside a colour trump the numbers order the cards; a number trump's cards are all equal.
    return NUMBER_OF[cid] + 1 if kind < NUMBER_BASE else 0


def _trump_rank(cid: int, vice: int, chief: int) -> int:
    in_vice, in_chief = card_has_kind(cid, vice), card_has_kind(cid, chief)
    if in_vice and in_chief:
        return TRUMP_RANK_BASE + 3 * 16
    if in_chief:
        return TRUMP_RANK_BASE + 2 * 16 + _tier_rank(cid, chief)
    if in_vice:
        return TRUMP_RANK_BASE + 1 * 16 + _tier_rank(cid, vice)
    return -1


@cache
def trump_table(vice: int, chief: int) -> TrumpTable:
    """The cached table for a configuration (``NO_TRUMP`` for an absent or declined trump)."""
    rank = tuple(_trump_rank(c, vice, chief) for c in range(DECK_SIZE))
    suit = tuple(TRUMP if rank[c] >= 0 else COLOUR_OF[c] for c in range(DECK_SIZE))
    masks = [0] * (TRUMP + 1)
    for cid, s in enumerate(suit):
        masks[s] |= 1 << cid
    # One lookup per card in the trick loop instead of a call with two branches.
    by_led = tuple(
        tuple(rank[c] if suit[c] == TRUMP else _plain_rank(c, led) for c in range(DECK_SIZE))
        for led in range(TRUMP + 1)
    )
    return TrumpTable(vice, chief, suit, rank, tuple(masks), by_led)


def _plain_rank(cid: int, led: int) -> int:
    """A non-trump card competes by number in the led colour and cannot win otherwise."""
    return NUMBER_OF[cid] if COLOUR_OF[cid] == led else -1


def trick_rank(table: TrumpTable, cid: int, led: int) -> int:
    """How strongly ``cid`` competes in a trick whose led suit is ``led`` (-1: cannot win)."""
    if table.suit[cid] == TRUMP:
        return table.rank[cid]
    return _plain_rank(cid, led)


def trick_winner(table: TrumpTable, cards: list[int] | tuple[int, ...]) -> int:
    """The index (in play order) of the card that wins a complete or partial trick (C25)."""
    led = table.suit[cards[0]]
    best, best_rank = 0, trick_rank(table, cards[0], led)
    for i in range(1, len(cards)):
        rank = trick_rank(table, cards[i], led)
        if rank > best_rank:
            best, best_rank = i, rank
    return best


TIERS = {3: TrumpTier.DOUBLE, 2: TrumpTier.CHIEF, 1: TrumpTier.VICE}


@cache
def trump_ranking(
    table: TrumpTable, colours: tuple[int, ...]
) -> tuple[tuple[TrumpTier, tuple[int, ...]], ...]:
    """The trumps among ``colours``, strongest first, as (tier name, card ids) groups of equal
    rank (inside a group the card played first wins).  Published in views so that clients can
    group and explain trumps without knowing the rules."""
    by_rank: dict[int, list[int]] = {}
    for cid in range(DECK_SIZE):
        if table.rank[cid] >= 0 and COLOUR_OF[cid] in colours:
            by_rank.setdefault(table.rank[cid], []).append(cid)
    return tuple(
        (TIERS[(rank - TRUMP_RANK_BASE) // 16], tuple(by_rank[rank]))
        for rank in sorted(by_rank, reverse=True)
    )
