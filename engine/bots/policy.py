"""The heuristic policy, on a :class:`~engine.state.HandState` and a seat.

These functions are the ``heuristic`` bot (which runs them on a world sampled from its view)
and the rollout policy of the ``search`` bot (which runs them for every seat of a sampled
world).  They read only what ``seat`` may know: its own hidden hand, every display, the
auction, the roles, the trumps and the cards played.  They never look at another seat's
hidden hand (the set of cards still out is derived from the deck minus the own cards minus
the played cards).

Decisions (classic rules, see docs/bots.md):

* auction: the strength of the best trump kind (colour or number) the seat could name, in
  trumps above its fair share plus high side cards, gives the highest bid it would play; it
  bids just enough to lead alone, never ties the top (an Eklat costs the provocateur), passes
  once it leads; with a weak hand it may show one card of a kind the leader shows (an
  underbid that signals a partner);
* trump: the option that maximises its own trumps (double trumps and high trumps count more),
  the chief also weighing the bonus class of number and no-trump choices;
* partner: the seat whose display fits the chief's trumps best;
* play: leads a sure winner (drawing trumps when on the chief's team), else a low card of a
  long side colour; follows by winning cheaply when the trick is worth it, never overtakes
  a partner who is winning, gives points to a winning partner when it plays last, and
  otherwise discards its least valuable card.
"""

from __future__ import annotations

import random
from typing import Final

from engine.cards import COLOUR_OF, DECK_SIZE, NUMBER_OF, POINTS_OF
from engine.state import (
    CHIEF_TRUMP,
    HandState,
)
from engine.trumps import (
    NO_TRUMP,
    NUMBER_BASE,
    TRUMP,
    TrumpTable,
    card_has_kind,
    trump_table,
)

# Team points a chief expects per trump above its fair share, and the safety margin.
POINTS_PER_EXTRA_TRUMP: Final = 3.0
HIGH_CARD_WEIGHT: Final = 0.35
MARGIN: Final = 3.0
CLASS_OF_KIND = {1: 1, 7: 1}  # number kinds 1 and 7: bonus class 1, other numbers 2
NO_TRUMP_CLASS: Final = 3


def kind_class(kind: int) -> int:
    """C28 bonus class offset of a chief trump kind."""
    if kind == NO_TRUMP:
        return NO_TRUMP_CLASS
    if kind < NUMBER_BASE:
        return 0
    return CLASS_OF_KIND.get(kind - NUMBER_BASE, 2)


def kind_copies(kind: int, colours: tuple[int, ...]) -> int:
    if kind < NUMBER_BASE:
        return 12
    return len(colours) * (2 if kind - NUMBER_BASE in (1, 7) else 1)


def ranked_kinds(state: HandState, seat: int) -> list[tuple[float, int]]:
    """(strength, kind) for every kind in the seat's cards, strongest first.

    Strength of a kind: the seat's cards of that kind minus its fair share of them (as if it
    were the only trump), +0.25 per 7/8/9 of a colour kind, plus ``HIGH_CARD_WEIGHT`` per
    8 or 9 outside the kind."""
    cards = state.hands[seat] + state.displays[seat]
    players, colours = state.players, state.colours
    count: dict[int, int] = {}
    high7: dict[int, int] = {}
    high8: dict[int, int] = {}
    total8 = 0
    for c in cards:
        col, num = COLOUR_OF[c], NUMBER_BASE + NUMBER_OF[c]
        count[col] = count.get(col, 0) + 1
        count[num] = count.get(num, 0) + 1
        if NUMBER_OF[c] >= 7:
            high7[col] = high7.get(col, 0) + 1
            if NUMBER_OF[c] >= 8:
                total8 += 1
                high8[col] = high8.get(col, 0) + 1
                high8[num] = high8.get(num, 0) + 1
    out = []
    for kind, n in count.items():
        extra = n - kind_copies(kind, colours) / players
        if kind < NUMBER_BASE:
            extra += 0.25 * high7.get(kind, 0)
        extra += HIGH_CARD_WEIGHT * (total8 - high8.get(kind, 0))
        out.append((extra, kind))
    out.sort(key=lambda t: (-t[0], t[1]))
    return out


def max_bid(state: HandState, strength: float) -> int:
    """The highest bid whose team goal the seat expects to reach with this strength."""
    n = state.players
    total = len(state.colours) * 12
    team = 1 if n == 3 else 2
    expected = total * team / n + POINTS_PER_EXTRA_TRUMP * strength - MARGIN
    bid = 0
    for b in range(1, state.rules.hand_size(n) + 1):
        if state.rules.goal(n, b) <= expected:
            bid = b
    return bid


def show_order(state: HandState, seat: int, kind: int) -> list[int]:
    """Hand cards in the order this seat would show them: the intended trump kind first."""
    hand = state.hands[seat]
    return sorted(hand, key=lambda c: (not card_has_kind(c, kind), -NUMBER_OF[c], c))


def choose_bid(state: HandState, seat: int, rng: random.Random) -> list[int]:
    """The cards to show this auction turn (``[]``: pass)."""
    counts = state.counts
    room = min(state.turn_cap - counts[seat], len(state.hands[seat]))
    if room <= 0:
        return []
    mine = counts[seat]
    top_other = max(counts[s] for s in range(state.players) if s != seat)
    if mine > top_other:
        return []  # leading alone: do not raise
    kinds = ranked_kinds(state, seat)
    strength, kind = kinds[0]
    target = top_other + 1
    if max_bid(state, strength) >= target and target - mine <= room:
        return show_order(state, seat, kind)[: target - mine]
    return _signal(state, seat, kinds, top_other, rng)


def _signal(
    state: HandState, seat: int, kinds: list[tuple[float, int]], top: int, rng: random.Random
) -> list[int]:
    """Underbid: show one card of a kind the leader shows, if that keeps below the top."""
    if state.players == 3 or state.counts[seat] or top < 2:
        return []
    leaders = [s for s in range(state.players) if state.counts[s] == top]
    if len(leaders) != 1:
        return []
    leader_kinds = {COLOUR_OF[c] for c in state.displays[leaders[0]]}
    leader_kinds |= {NUMBER_BASE + NUMBER_OF[c] for c in state.displays[leaders[0]]}
    for strength, kind in kinds:
        if kind in leader_kinds and strength >= 0.5:
            if rng.random() < 0.7:
                cards = [c for c in state.hands[seat] if card_has_kind(c, kind)]
                if cards:
                    return [max(cards, key=lambda c: (NUMBER_OF[c], c))]
            return []
    return []


def trump_value(cards: list[int], table: TrumpTable) -> float:
    """How much a trump configuration is worth to the holder of ``cards``."""
    value = 0.0
    for c in cards:
        rank = table.rank[c]
        if rank >= 0:
            value += 1.0 + (rank - 100) / 64.0
    return value


def choose_trump(state: HandState, seat: int) -> int:
    """A trump kind from ``state.trump_options()`` (vice or chief)."""
    cards = state.hands[seat] + state.displays[seat]
    options = state.trump_options()
    if state.phase_id == CHIEF_TRUMP:
        vice = NO_TRUMP if state.vice_kind is None else state.vice_kind
        bid = state.counts[seat]

        def chief_score(k: int) -> float:
            value = trump_value(cards, trump_table(vice, k))
            # A number or no trump raises the bonus by 10-30 but weakens the hand.
            return value + 0.08 * bid * kind_class(k) - (1.2 if k == NO_TRUMP else 0.0)

        return max(options, key=lambda k: (chief_score(k), -k))
    return max(options, key=lambda k: (trump_value(cards, trump_table(k, NO_TRUMP)), -k))


def choose_partner(state: HandState, seat: int) -> int:
    """The seat (among ``partner_options``) whose display fits the trumps best."""
    table = state.trumps()
    best, best_score = -1, -1.0
    for s in state.partner_options():
        score = 0.0
        for c in state.displays[s]:
            rank = table.rank[c]
            score += 2.0 + (rank - 100) / 32.0 if rank >= 0 else 0.3 * (NUMBER_OF[c] >= 8)
        score += 0.01 * ((s - seat) % state.players == 1)  # the next seat plays after the chief
        if score > best_score:
            best, best_score = s, score
    return best


def _same_side(state: HandState, a: int, b: int) -> bool:
    chief, partner = state.chief, state.partner
    return (a == chief or a == partner) == (b == chief or b == partner)


BIT: Final = tuple(1 << c for c in range(DECK_SIZE))
LEAD_KEY: Final = tuple(
    POINTS_OF[c] * 16 + NUMBER_OF[c] for c in range(DECK_SIZE)
)  # (points, number)


def _played_out_mask(state: HandState, seat: int) -> int:
    mine = state.held[seat] | state.played_mask
    if seat == state.chief and state.discarded:  # the Crown's own discards (revised, 3 players)
        mine |= sum([BIT[c] for c in state.discarded])  # are not out
    return state.deck_mask & ~mine


def _out_tops(state: HandState, seat: int, table: TrumpTable) -> list[int]:
    """Per effective suit (colours 0..4, TRUMP): the strongest card still out (-1: none);
    a number inside a colour, the trump rank for TRUMP.

    A colour's ids ascend with its numbers, so a colour's top is its mask's highest bit; the
    trumps are scanned strongest first until one is out (the hottest helper of rollouts)."""
    out = _played_out_mask(state, seat)
    masks = table.suit_mask
    tops = [-1] * (TRUMP + 1)
    for s in range(TRUMP):
        m = out & masks[s]
        if m:
            tops[s] = NUMBER_OF[m.bit_length() - 1]
    if out & masks[TRUMP]:
        rank = table.rank
        for c in table.strongest:
            if out >> c & 1:
                tops[TRUMP] = rank[c]
                break
    return tops


def _beaten(table: TrumpTable, card: int, tops: list[int]) -> bool:
    """Whether some card still out could beat ``card`` in its own suit."""
    s = table.suit[card]
    return tops[s] > (table.rank[card] if s == TRUMP else NUMBER_OF[card])


def choose_play(state: HandState, seat: int) -> int:
    """The card to play (from ``state.legal_plays(seat)``)."""
    legal = state.legal_plays(seat)
    if len(legal) == 1:
        return legal[0]
    table = state.trumps()
    trick = state.trick
    if not trick:
        return _lead(state, seat, legal, table)
    # The rollouts' hottest function: ``strength[c]`` is ``trick_rank(table, c, led)``.
    strength = table.by_led[state.led]
    win_seat, win_rank = state.win_seat, state.win_rank
    last = len(trick) == state.players - 1
    if _same_side(state, seat, win_seat) and seat != win_seat:
        safe = last or not _beaten(table, _winning_card(state), _out_tops(state, seat, table))
        losing = [c for c in legal if strength[c] <= win_rank]
        pool = losing or legal
        if safe:
            # Give points to the partner, but do not spend a trump for it.
            return max(pool, key=table.give_key.__getitem__)
        return min(pool, key=table.discard_key.__getitem__)
    winners = [c for c in legal if strength[c] > win_rank]
    if winners:
        cheapest = min(winners, key=table.win_key[state.led].__getitem__)
        points = sum([POINTS_OF[c] for _, c in trick])
        if last:
            if points + POINTS_OF[cheapest] > 0:
                return cheapest
        else:
            tops = _out_tops(state, seat, table)
            sure = [c for c in winners if not _beaten(table, c, tops)]
            if sure:
                return min(sure, key=table.win_key[state.led].__getitem__)
            if points >= 2 and table.suit[cheapest] == TRUMP:
                return cheapest
            if points >= 1 and table.suit[cheapest] != TRUMP:
                return cheapest
    return min(legal, key=table.discard_key.__getitem__)


def _winning_card(state: HandState) -> int:
    for s, c in state.trick:
        if s == state.win_seat:
            return c
    return state.trick[0][1]


def _lead(state: HandState, seat: int, legal: list[int], table: TrumpTable) -> int:
    tops = _out_tops(state, seat, table)
    trumps = [c for c in legal if table.suit[c] == TRUMP]
    on_team = seat == state.chief or seat == state.partner
    if trumps and on_team and tops[TRUMP] >= 0:
        top = max(trumps, key=table.rank.__getitem__)
        if not _beaten(table, top, tops):
            return top
    side = [c for c in legal if table.suit[c] != TRUMP]
    sure = [c for c in side if not _beaten(table, c, tops)]
    if sure:
        return max(sure, key=LEAD_KEY.__getitem__)
    if side:
        length = dict.fromkeys(range(5), 0)
        for c in side:
            length[COLOUR_OF[c]] += 1
        return min(side, key=lambda c: (POINTS_OF[c], -length[COLOUR_OF[c]], NUMBER_OF[c]))
    return min(legal, key=table.rank.__getitem__)
