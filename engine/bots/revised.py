"""The heuristic policy's revised-edition decisions (Crown and Shield, RULES.md R3-R12).

Card play and the partner choice are the classic ones (:mod:`engine.bots.policy`); the
revised edition changes what a seat bids for, how the trumps are named and adds the
3-player discard:

* auction (no small-steps cap, R4; ties never take a role over, R5): the strength of the
  best kind (:func:`engine.bots.policy.ranked_kinds`) gives the highest bid whose goal the
  seat expects to make with the revised goal table (:func:`crown_limit`; there are no
  penalties, so it expects ``-CROWN_MARGIN`` points more than the classic bot would).  A seat
  that can beat the Crown takes it at that bid in one go, showing its best kind first (so it
  can name it); the Crown then passes and re-raises only if it is overtaken.  A seat that
  cannot aims for the Shield instead: it ties the Crown's count (a tie never takes the
  Crown), since every Shield card is worth 5 points to each member of the Shield team if the
  Crown fails (R12).  Nobody shows more than ``SHOW_SHARE`` of its cards;
* trumps (R9): every option is scored by the seat's own trumps (double trumps highest)
  minus the copies of that kind left to the others, plus a share of its trump-token bonus.
  "none" scores the token only, so it wins when every kind would arm the other side more
  than the seat itself.  The Shield also values taking a kind away from the Crown (the
  Crown may not name the Shield's trump); the Crown never sees that option at all;
* discard (3 players, R3): keeps the intended trump kind and high cards, discards the
  weakest other cards, preferring cards with points (the discards count for the Crown)
  and cards of short colours (a void lets the Crown trump in).
"""

from __future__ import annotations

import math
import random

from engine.bots.policy import (
    POINTS_PER_EXTRA_TRUMP,
    kind_copies,
    ranked_kinds,
    show_order,
    trump_value,
)
from engine.cards import COLOUR_OF, NUMBER_OF, POINTS_OF
from engine.enums import TrumpKind
from engine.state import CHIEF_TRUMP, HandState
from engine.trumps import NO_TRUMP, card_has_kind, display_kinds, trump_table
from engine.variants import RevisedRules

CROWN_MARGIN = -1.0  # safety margin of the Crown's expected team points (negative: bolder)
SHOW_SHARE = 0.6  # never show more than this share of the own cards in the auction
TOKEN_WEIGHT = 0.08  # trump value units per point of a trump token
OTHERS_WEIGHT = 0.3  # trump value lost per copy of the kind held by somebody else
DENY_WEIGHT = 0.2  # Shield: value per Crown display card of the kind it takes away
CROWN_NONE_PENALTY = 0.5  # Crown: a hand without its own trumps is harder to steer


def choose_bid(state: HandState, seat: int, rng: random.Random) -> list[int]:
    """The cards to show this auction turn (``[]``: pass)."""
    hand = state.hands[seat]
    crown = state.chief
    if not hand or crown == seat:
        return []  # the Crown lets the others come to it
    strength, kind = ranked_kinds(state, seat)[0]
    mine = state.counts[seat]
    cap = math.floor(SHOW_SHARE * (len(hand) + len(state.displays[seat])))
    crown_count = 0 if crown is None else state.counts[crown]
    target = min(crown_limit(state, strength), cap)
    if target > crown_count:
        return show_order(state, seat, kind)[: target - mine]
    return _shield_bid(state, seat, kind, crown_count, cap)


def crown_limit(state: HandState, strength: float) -> int:
    """The highest bid whose goal the seat expects to reach as the Crown.  No penalties
    (R12): a failed Crown only costs the bonus, so it bids with a negative margin."""
    n = state.players
    team = 1 if n == 3 else 2
    expected = len(state.colours) * 12 * team / n + POINTS_PER_EXTRA_TRUMP * strength
    expected -= CROWN_MARGIN
    bid = 0
    for b in range(1, state.rules.hand_size(n) + 1):
        if state.rules.goal(n, b) <= expected:
            bid = b
    return bid


def _shield_bid(state: HandState, seat: int, kind: int, crown_count: int, cap: int) -> list[int]:
    """Show the best kind up to the Crown's count, if that takes or raises the Shield."""
    if crown_count == 0:
        return []
    target = min(crown_count, cap)
    mine, shield = state.counts[seat], state.vice
    if shield is not None and shield != seat and target <= state.counts[shield]:
        return []
    if target <= mine:
        return []
    return show_order(state, seat, kind)[: target - mine]


def _token(state: HandState, kind: int) -> int:
    rules = state.rules
    if not isinstance(rules, RevisedRules):
        return 0
    return rules.trump_bonus(TrumpKind.from_code(kind).bonus_class)


def _kind_value(state: HandState, cards: list[int], vice: int, kind: int) -> float:
    """Own trumps under (vice, kind) minus the copies of ``kind`` the others hold."""
    value = trump_value(cards, trump_table(vice, kind))
    if kind != NO_TRUMP:
        mine = sum(card_has_kind(c, kind) for c in cards)
        value -= OTHERS_WEIGHT * (kind_copies(kind, state.colours) - mine)
    return value + TOKEN_WEIGHT * _token(state, kind)


def choose_trump(state: HandState, seat: int) -> int:
    """A trump kind from ``state.trump_options()``: the Shield's minor or the Crown's major."""
    cards = state.hands[seat] + state.displays[seat]
    options = state.trump_options()
    if state.phase_id == CHIEF_TRUMP:
        vice = NO_TRUMP if state.vice_kind is None else state.vice_kind

        def crown_score(k: int) -> float:
            penalty = CROWN_NONE_PENALTY if k == NO_TRUMP else 0.0
            return _kind_value(state, cards, vice, k) - penalty

        return max(options, key=lambda k: (crown_score(k), -k))
    crown_display = [] if state.chief is None else state.displays[state.chief]

    def shield_score(k: int) -> float:
        denied = sum(card_has_kind(c, k) for c in crown_display)
        return _kind_value(state, cards, NO_TRUMP, k) + DENY_WEIGHT * denied

    return max(options, key=lambda k: (shield_score(k), -k))


def intended_trump(state: HandState, seat: int) -> int:
    """The kind the Crown expects to name: its best display kind (before the Shield's)."""
    cards = state.hands[seat] + state.displays[seat]
    kinds = display_kinds(state.displays[seat]) + [NO_TRUMP]
    return max(kinds, key=lambda k: (_kind_value(state, cards, NO_TRUMP, k), -k))


def discard_order(state: HandState, seat: int) -> list[int]:
    """The Crown's hand cards, the first to discard first."""
    hand = state.hands[seat]
    kind = intended_trump(state, seat)
    length: dict[int, int] = {}
    for c in hand + state.displays[seat]:
        length[COLOUR_OF[c]] = length.get(COLOUR_OF[c], 0) + 1

    def keep(c: int) -> float:
        """Higher: more worth keeping in the hand."""
        if card_has_kind(c, kind):
            return 100.0 + NUMBER_OF[c]
        return 0.6 * NUMBER_OF[c] - 1.5 * POINTS_OF[c] + 0.4 * length[COLOUR_OF[c]]

    return sorted(hand, key=lambda c: (keep(c), c))


def choose_discard(state: HandState, seat: int) -> list[int]:
    """R3: the cards the Crown puts on its points pile (``state.discards_left`` of them)."""
    return discard_order(state, seat)[: state.discards_left]
