"""Where the hidden cards probably are: a card-location model read from the public play.

The uniform sampler deals the unseen cards to the other seats at random, respecting hand
sizes and shown voids.  But a seat's decisions say more: seats show their kind from the top,
so one that showed the red 8, 7 and 6 rarely holds the red 9; how much a seat showed, the
trumps it named and the suits it led say something of the rest of its hand too.  This module
gives, for every other seat ``s`` and every unseen card ``c``, an *affinity* ``a(s, c)``: how
much likelier ``s`` holds ``c`` than a uniform deal says.  A ``WorldSampler(view,
weighted=True)`` then deals each card to seat ``s`` with probability proportional to ``free
places of s x a(s, c)``, so worlds that fit the auction and the play are drawn more often.

The model is a table of likelihood ratios over a few public features of the pair
``(s, c)`` (:func:`bucket`):

* how many cards of ``c``'s colour and of ``c``'s number ``s`` showed in the auction;
* how many cards ``s`` showed in all (how high it bid; 0: it passed without showing);
* whether ``c`` belongs to a trump kind that ``s`` itself named (Chief or Vice), to a trump
  kind somebody else named, or to no named trump;
* whether ``s`` led a trick of ``c``'s effective suit;
* whether ``s`` *passed over* ``c`` in the auction: it showed a lower card of ``c``'s
  colour, or a card of ``c``'s number that comes after ``c`` in the showing order (a seat
  shows its kind from the top, so a card it passed over is one it likely does not hold);
* ``c``'s rank class (0-4, 5-7, 8-9).

Each entry is ``(held + 10) / (expected + 10)``: over self-play positions of that edition and
player count, how often the cards of that bucket were in ``s``'s hidden hand, against how often
a uniform deal of the unseen cards (by free places, voids respected) would put them there (a
bucket seen little stays near 1).  It is fitted
offline (``tools/fit_card_model.py``, which says how to rerun it and measures the guess on
held-out hands) and shipped as data (:mod:`engine.bots._card_model_data`); an empty bucket
reads 1 (uniform).

It reads only the sampler's public evidence, never a hidden card: two true states that agree
with a seat's view give that seat the same affinities (``tests/engine/bots``).
"""

from __future__ import annotations

import itertools
from typing import Final, Protocol

from engine.bots._card_model_data import DATA
from engine.cards import COLOUR_OF, DECK_SIZE, NUMBER_OF
from engine.trumps import card_has_kind


class Evidence(Protocol):
    """What the model reads of a seat's view, as :class:`~engine.bots.sampling.WorldSampler`
    holds it: all public, nothing of a hidden card."""

    variant: str
    players: int
    others: list[int]  # the other seats
    unseen: list[int]  # the cards the seat cannot see
    shown: list[list[int]]  # per seat, the cards it showed in the auction
    chief: int | None
    vice: int | None
    chief_kind: int  # the named trump kinds (NO_TRUMP: none, or not named yet)
    vice_kind: int
    led_mask: list[int]  # per seat, the cards of the suits it led


# Feature sizes (the last value of each is "that many or more").
SHOWN_COLOUR: Final = 4
SHOWN_NUMBER: Final = 3
SHOWN_TOTAL: Final = 5
RELATIONS: Final = 3  # 0 no named trump, 1 a trump kind the seat named, 2 another's trump
LED: Final = 2
PASSED_OVER: Final = 2
RANKS: Final = 3
BUCKETS: Final = SHOWN_COLOUR * SHOWN_NUMBER * SHOWN_TOTAL * RELATIONS * LED * PASSED_OVER * RANKS
RANK_CLASS: Final[tuple[int, ...]] = tuple(
    0 if NUMBER_OF[c] < 5 else 1 if NUMBER_OF[c] < 8 else 2 for c in range(DECK_SIZE)
)


def _table(text: str) -> dict[tuple[str, int], tuple[float, ...]]:
    """The shipped tables: per edition and player count ``variant players`` and then
    ``BUCKETS`` ratios, split over lines; ``*n`` stands for ``n`` buckets never seen, which
    read 1."""
    out: dict[tuple[str, int], tuple[float, ...]] = {}
    words = text.split()
    starts = [i for i, w in enumerate(words) if w[0].isalpha()] + [len(words)]
    for a, b in itertools.pairwise(starts):
        values: list[float] = []
        for v in words[a + 2 : b]:
            if v[0] == "*":
                values += [1.0] * int(v[1:])
            else:
                values.append(float(v))
        if len(values) != BUCKETS:
            raise ValueError(f"a card model table has {len(values)} entries, not {BUCKETS}")
        out[(words[a], int(words[a + 1]))] = tuple(values)
    return out


TABLES: Final = _table(DATA)


def bucket(sampler: Evidence, seat: int, card: int) -> int:
    """The bucket of the pair (another ``seat``, an unseen ``card``) from public evidence."""
    shown_colour = shown_number = passed_over = 0
    shown = sampler.shown[seat]
    colour, number = COLOUR_OF[card], NUMBER_OF[card]
    for c in shown:
        if COLOUR_OF[c] == colour:
            shown_colour += 1
            if NUMBER_OF[c] < number:
                passed_over = 1
        if NUMBER_OF[c] == number:
            shown_number += 1
            if c > card:
                passed_over = 1
    relation = 0
    if card_has_kind(card, sampler.chief_kind):
        relation = 1 if seat == sampler.chief else 2
    elif card_has_kind(card, sampler.vice_kind):
        relation = 1 if seat == sampler.vice else 2
    led = 1 if sampler.led_mask[seat] >> card & 1 else 0
    b = min(shown_colour, SHOWN_COLOUR - 1)
    b = b * SHOWN_NUMBER + min(shown_number, SHOWN_NUMBER - 1)
    b = b * SHOWN_TOTAL + min(len(shown), SHOWN_TOTAL - 1)
    b = ((b * RELATIONS + relation) * LED + led) * PASSED_OVER + passed_over
    return b * RANKS + RANK_CLASS[card]


def affinities(sampler: Evidence) -> list[list[float]] | None:
    """Per slot of ``sampler`` (seat, or the pile at index ``players``) and card id, the
    affinity of the unseen cards (1.0 elsewhere); ``None`` without a table for the game."""
    table = TABLES.get((sampler.variant, sampler.players))
    if table is None:
        return None
    out = [[1.0] * DECK_SIZE for _ in range(sampler.players + 1)]
    for s in sampler.others:
        row = out[s]
        for c in sampler.unseen:
            row[c] = table[bucket(sampler, s, c)]
    return out
