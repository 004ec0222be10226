"""Worlds consistent with one seat's view (determinization for the search bot).

A *world* is a full :class:`~engine.state.HandState` that the seat could be in: its own hand,
every display, the auction, the trumps, the partner and every played card are exactly those
of the view; the hidden cards of the other seats are a random deal of the *unseen* cards
(all cards of the colours in play minus the own hand, every display and every played card),
with the right number per seat and respecting the voids the play has shown (a seat that did
not follow the led suit holds no card of that effective suit, trumps being one suit).

Construction: the first world is built by :func:`engine.deal_from` of the reconstructed
original deal (hidden cards + displays + cards played, per seat) and replaying the public
history as integer actions, each checked against ``legal_actions()``.  Later worlds clone that
template and only swap the other seats' hidden hands (and their ``deal`` record), which yields
the same state as a replay would, at a fraction of the cost.  ``tests/engine/bots`` checks
that ``engine.view(world, seat) == view`` for every sample.

>>> import engine, random
>>> hand = engine.deal(4, 0, random.Random(1))
>>> v = engine.view(hand, 2)
>>> world = WorldSampler(v).sample(random.Random(5))
>>> engine.view(world, 2) == v
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from engine.bots import inference
from engine.cards import COLOUR_OF, DECK_SIZE, Card, shuffle
from engine.dealing import deal_from
from engine.state import END_TURN, PARTNER_BASE, TRUMP_BASE, HandState, card_mask
from engine.trumps import NO_TRUMP, trump_table
from engine.views import HandView

GREEDY_TRIES = 12


class SamplingError(Exception):
    """The view cannot be read as a hand, or no consistent world exists."""


def _ids(cards: Iterable[Card]) -> list[int]:
    return [c.id for c in cards]


def _auction_actions(view: HandView) -> list[int]:
    actions: list[int] = []
    for entry in view.auction:
        actions.extend(_ids(entry.cards))
        actions.append(END_TURN)
    return actions


def _trump_actions(view: HandView) -> tuple[list[int], int, int | None]:
    """The trump actions, the vice (Shield) kind and the chief (Crown) kind."""
    trumps = view.trumps
    actions: list[int] = []
    vice_kind, chief_kind = NO_TRUMP, None
    if view.vice is not None and trumps.vice is not None:
        vice_kind = trumps.vice.code
        actions.append(TRUMP_BASE + vice_kind)
    if trumps.chief is not None:
        chief_kind = trumps.chief.code
        actions.append(TRUMP_BASE + chief_kind)
    return actions, vice_kind, chief_kind


def _public_tail(
    view: HandView, n: int, trumps: tuple[list[int], int, int | None]
) -> tuple[list[int], list[list[int]], list[int], list[int]]:
    """After the auction (and the discards): trumps (``_trump_actions``, read once by the
    caller), partner and card play as integer actions; the cards each seat played; per seat
    the mask of cards its voids exclude and the mask of the suits it led."""
    actions, vice_kind, chief_kind = trumps
    actions = actions[:]
    if view.partner is not None:
        actions.append(PARTNER_BASE + view.partner)
    tricks = [[(p.seat, p.card.id) for p in t.cards] for t in view.tricks]
    current = [(p.seat, p.card.id) for p in view.trick]
    if current:
        tricks.append(current)
    played_by: list[list[int]] = [[] for _ in range(n)]
    void_mask = [0] * n  # per seat: the cards it cannot hold
    led_mask = [0] * n  # per seat: the cards of the suits it led
    table = trump_table(vice_kind, chief_kind) if chief_kind is not None else None
    for trick in tricks:
        if table is None:
            raise SamplingError("cards were played before the trumps were named")
        led = table.suit[trick[0][1]]
        led_mask[trick[0][0]] |= table.suit_mask[led]
        for i, (s, card) in enumerate(trick):
            played_by[s].append(card)
            actions.append(card)
            if i and table.suit[card] != led:
                void_mask[s] |= table.suit_mask[led]
    return actions, played_by, void_mask, led_mask


class WorldSampler:
    """Reads a seat's view once; :meth:`sample` then draws consistent worlds."""

    def __init__(self, view: HandView, weighted: bool = False) -> None:
        seat = view.seat
        if seat is None:
            raise SamplingError("a world is sampled for a seat, not for a spectator")
        self.seat = seat
        self.players = n = view.players
        self.dealer = view.dealer
        self.variant = view.variant
        colours = {c.code for c in view.colours}
        self.hand = _ids(view.hand)
        displays = [_ids(d) for d in view.displays]
        self.hand_counts = list(view.hand_counts)
        self.head = _auction_actions(view)
        self._read_kitty(view)
        trumps = _trump_actions(view)
        tail, played_by, self.void_mask, self.led_mask = _public_tail(view, n, trumps)
        _, self.vice_kind, chief_kind = trumps
        self.chief_kind = NO_TRUMP if chief_kind is None else chief_kind
        self.chief, self.vice = view.chief, view.vice
        self.tail = tail
        self.void_mask.append(0)  # the pile (kitty or discards) shows no voids

        # Cards known to have been dealt to each seat: what it still shows and what it played.
        self.known = [displays[s] + played_by[s] for s in range(n)]
        self.known[seat] = self.known[seat] + self.hand + self.own_discards
        self.shown: list[list[int]] = [[] for _ in range(n)]  # in the auction
        for entry in view.auction:
            self.shown[entry.seat] += _ids(entry.cards)
        seen = {c for k in self.known for c in k}
        self.unseen = [c for c in range(DECK_SIZE) if COLOUR_OF[c] in colours and c not in seen]
        self.others = [s for s in range(n) if s != seat]
        # Where the unseen cards go: the other seats' hands, and the pile (index ``n``).
        self.slots = self.others + ([n] if self.pile_count else [])
        self.room = [*self.hand_counts, self.pile_count]
        if len(self.hand) != self.hand_counts[seat] or len(self.unseen) != sum(
            self.room[s] for s in self.slots
        ):
            raise SamplingError("the hand counts do not match the unseen cards")
        self.constrained = any(self.void_mask[s] for s in self.others)
        self._template: HandState | None = None
        self._greedy_fails = False
        # Weighted worlds (engine.bots.inference): per slot and card, how much likelier that
        # slot holds the card than a uniform deal says; ``None``: uniform worlds.
        self.affinity = inference.affinities(self) if weighted else None

    @property
    def actions(self) -> list[int]:
        """The public history as integer actions (the own discards included, if known)."""
        return self.head + self.own_discards + self.tail

    def _read_kitty(self, view: HandView) -> None:
        """R3 (revised, 3 players): the kitty before the Crown takes it, and the Crown's
        discards after, are hidden cards, the *pile*; the Crown itself knows both."""
        kitty, discards = view.kitty, view.discards
        self.pile_count = 0
        self.pile_is_kitty = False
        self.crown: int | None = None
        self.own_kitty: list[int] = []
        self.own_discards: list[int] = []
        if kitty is None:
            return
        if kitty.holder is None:
            self.pile_count, self.pile_is_kitty = kitty.size, True
            return
        self.crown = kitty.holder
        if self.crown == self.seat:
            self.own_kitty = _ids(kitty.cards)
            self.own_discards = _ids(discards.cards) if discards else []
        else:
            self.pile_count = discards.count if discards else 0

    # ---- hidden hands ----------------------------------------------------------------------

    def sample_hidden(self, rng: random.Random) -> list[list[int]]:
        """Hidden hands per seat (the own seat keeps its hand), counts and voids respected;
        with affinities, each card goes to a seat in proportion to its free places times its
        affinity (the exact fallback for tight voids stays uniform)."""
        if self.affinity is not None and not self._greedy_fails:
            for _ in range(GREEDY_TRIES):
                hidden = self._greedy(rng, self.affinity)
                if hidden is not None:
                    return hidden
            self._greedy_fails = True
        if not self.constrained:
            cards = self.unseen[:]
            shuffle(cards, rng)
            out: list[list[int]] = [[] for _ in range(self.players + 1)]
            out[self.seat] = self.hand[:]
            i = 0
            for s in self.slots:
                k = self.room[s]
                out[s] = cards[i : i + k]
                i += k
            return out
        if not self._greedy_fails:
            for _ in range(GREEDY_TRIES):
                hidden = self._greedy(rng)
                if hidden is not None:
                    return hidden
            self._greedy_fails = True  # a tight case: go straight to the exact method
        return self._by_flow(rng)

    def _eligible(self, card: int) -> list[int]:
        bit = 1 << card
        return [s for s in self.slots if not self.void_mask[s] & bit]

    def _greedy(
        self, rng: random.Random, affinity: list[list[float]] | None = None
    ) -> list[list[int]] | None:
        """Most constrained card first, holder drawn in proportion to the free places (times
        the slot's affinity for the card, if given)."""
        cards = self.unseen[:]
        shuffle(cards, rng)
        elig = {c: self._eligible(c) for c in cards}
        cards.sort(key=lambda c: len(elig[c]))
        room = self.room[:]
        out: list[list[int]] = [[] for _ in range(self.players + 1)]
        out[self.seat] = self.hand[:]
        for c in cards:
            options = [s for s in elig[c] if room[s] > 0]
            if not options:
                return None
            if affinity is None:
                pick = rng.randrange(sum(room[s] for s in options))
                for s in options:
                    pick -= room[s]
                    if pick < 0:
                        break
            else:
                weights = [room[s] * affinity[s][c] for s in options]
                share = rng.random() * sum(weights)
                i = 0
                while i < len(options) - 1:
                    share -= weights[i]
                    if share < 0:
                        break
                    i += 1
                s = options[i]
            out[s].append(c)
            room[s] -= 1
        return out

    def _by_flow(self, rng: random.Random) -> list[list[int]]:
        """Exact fallback: a max flow from groups of equally constrained cards to seats."""
        groups: dict[tuple[int, ...], list[int]] = {}
        for c in self.unseen:
            groups.setdefault(tuple(self._eligible(c)), []).append(c)
        keys = list(groups)
        rng.shuffle(keys)
        flow = {(g, s): 0 for g in keys for s in g}
        left = {g: len(groups[g]) for g in keys}
        room = {s: self.room[s] for s in self.slots}

        def augment() -> bool:
            # BFS over groups (forward edges) and seats (backward edges to groups using them).
            for g0 in keys:
                if left[g0] == 0:
                    continue
                parent: dict[Any, Any] = {("g", g0): None}
                queue: list[tuple[str, Any]] = [("g", g0)]
                while queue:
                    node = queue.pop(0)
                    if node[0] == "g":
                        for s in node[1]:
                            if ("s", s) not in parent:
                                parent[("s", s)] = node
                                if room[s] > 0:
                                    path_end: tuple[str, Any] = ("s", s)
                                    left[g0] -= 1
                                    room[s] -= 1
                                    while parent[path_end] is not None:
                                        prev = parent[path_end]
                                        if prev[0] == "g":
                                            flow[(prev[1], path_end[1])] += 1
                                        else:
                                            flow[(path_end[1], prev[1])] -= 1
                                        path_end = prev
                                    return True
                                queue.append(("s", s))
                    else:
                        for g in keys:
                            if node[1] in g and flow[(g, node[1])] > 0 and ("g", g) not in parent:
                                parent[("g", g)] = node
                                queue.append(("g", g))
            return False

        while any(left.values()):
            if not augment():
                raise SamplingError("no deal of the unseen cards respects the shown voids")
        out: list[list[int]] = [[] for _ in range(self.players + 1)]
        out[self.seat] = self.hand[:]
        for g in keys:
            cards = groups[g][:]
            shuffle(cards, rng)
            for s in g:
                k = flow[(g, s)]
                out[s].extend(cards[:k])
                cards = cards[k:]
        return out

    # ---- worlds ----------------------------------------------------------------------------

    def sample(self, rng: random.Random) -> HandState:
        """A full state consistent with the view (a fresh object the caller may mutate)."""
        hidden = self.sample_hidden(rng)
        if self.pile_is_kitty or self.crown not in (None, self.seat):
            return self._replay(hidden, rng)  # the kitty is drawn anew: a fresh replay
        if self._template is None:
            self._template = self._replay(hidden, rng)
            return self._template.clone()
        world = self._template.clone()
        deal = list(world.deal)
        for s in self.others:
            world.hands[s] = sorted(hidden[s])
            world.held[s] = card_mask(hidden[s]) | card_mask(world.displays[s])
            deal[s] = tuple(sorted(hidden[s] + self.known[s]))
        world.deal = tuple(deal)
        return world

    def _deal(
        self, hidden: list[list[int]], rng: random.Random
    ) -> tuple[list[list[int]], list[int]]:
        """The original deal (per seat) and kitty of a world with these hidden cards."""
        n = self.players
        originals = [hidden[s] + self.known[s] for s in range(n)]
        originals[self.seat] = self.known[self.seat][:]
        pile = hidden[n] if len(hidden) > n else []
        if self.pile_is_kitty:
            return originals, pile
        if self.crown is None:
            return originals, []
        if self.crown == self.seat:
            kitty = self.own_kitty
        else:
            # The kitty is any 3 of the Crown's cards that it did not show in the auction.
            originals[self.crown] += pile
            shown = set(self.shown[self.crown])
            kitty = rng.sample([c for c in originals[self.crown] if c not in shown], 3)
        originals[self.crown] = [c for c in originals[self.crown] if c not in kitty]
        return originals, kitty

    def history(self, discards: list[int]) -> list[int]:
        """The integer actions that replay the public history with these discards."""
        return self.head + discards + self.tail

    def _replay(self, hidden: list[list[int]], rng: random.Random) -> HandState:
        originals, kitty = self._deal(hidden, rng)
        try:
            state = deal_from(originals, self.dealer, self.variant, kitty or None)
        except ValueError as exc:
            raise SamplingError(str(exc)) from None
        discards = self.own_discards
        if self.crown not in (None, self.seat):
            discards = hidden[self.players]
        for action in self.history(discards):
            if action not in state.legal_actions():
                raise SamplingError(f"the public history does not replay (action {action})")
            state.apply_action(action)
        return state


def sample_world(view: HandView, rng: random.Random) -> HandState:
    """One world consistent with ``view`` (see :class:`WorldSampler` for many)."""
    return WorldSampler(view).sample(rng)
