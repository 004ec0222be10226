"""One hand of Mü as a state machine (rules C4-C25; revised edition R3-R11).

:class:`HandState` is the single place where the rules move a hand forward.  It has a small,
fast integer action space (the interface the bots and the benchmark use), in the manner of
OpenSpiel's ``State``:

=========  ===================================================================
``0..59``  the card with this id: shown during the auction, discarded during the
           revised edition's "discard" phase (R3), played during play
``60``     :data:`END_TURN`: during the auction, a pass (nothing shown this turn)
           or the end of this turn's bid
``61..76`` :data:`TRUMP_BASE` + trump kind (``76`` = no trump)
``77..82`` :data:`PARTNER_BASE` + seat
=========  ===================================================================

A bid of *k* cards is *k* card actions and one :data:`END_TURN`, so the action space stays
small; "small steps" (C6) is checked per card.  The revised kitty discard (R3) is likewise
one card action per discarded card.  ``legal_actions()`` never raises and
``apply_action()`` trusts its caller: the public, validating API of typed actions is
:mod:`engine.legality`, which works on clones, so callers there see immutable states.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from engine.cards import CARDS_PER_COLOUR, NUMBER_OF, POINTS_OF
from engine.enums import Outcome, Phase
from engine.trumps import NO_TRUMP, TrumpTable, display_kinds, trump_table
from engine.variants import Rules

END_TURN: Final = 60
TRUMP_BASE: Final = 61
PARTNER_BASE: Final = 77
COLOUR_MASK: Final = (1 << CARDS_PER_COLOUR) - 1  # colour 0's cards

# Final: the compiled build inlines them (a plain module global is a dict lookup per use).
AUCTION: Final = 0
VICE_TRUMP: Final = 1
CHIEF_TRUMP: Final = 2
PARTNER: Final = 3
PLAY: Final = 4
OVER: Final = 5
DISCARD: Final = 6
# Indexed by ``phase_id`` (the int the hot paths compare).
PHASES: Final = (
    Phase.AUCTION, Phase.VICE_TRUMP, Phase.CHIEF_TRUMP, Phase.PARTNER, Phase.PLAY, Phase.OVER,
    Phase.DISCARD,
)  # fmt: skip


class HandState:
    """The full (secret) state of one hand.  Never send it anywhere: use ``engine.view``."""

    __slots__ = (
        "rules", "players", "dealer", "colours", "deal", "hands", "displays", "counts",
        "phase_id", "to_move", "turn_cap", "turn_cards", "passes", "clock", "last_placed",
        "auction_log", "chief", "vice", "partner", "vice_kind", "chief_kind", "table",
        "trick", "led", "win_seat", "win_rank", "tricks", "tricks_won", "points_won",
        "outcome", "provocateur", "kitty", "discarded", "is_over",
        "played_mask", "held", "deck_mask",
    )  # fmt: skip

    rules: Rules
    players: int
    dealer: int
    colours: tuple[int, ...]  # the colours in play (3 players: three of them)
    deal: tuple[tuple[int, ...], ...]  # every seat's original cards, sorted
    hands: list[list[int]]  # hidden cards, sorted
    displays: list[list[int]]  # face-up bid cards not yet played, in order shown
    counts: list[int]  # cards shown in the auction, per seat (the bids)
    phase_id: int
    to_move: int | None
    turn_cap: int  # the largest display the seat to move may reach this turn (C6)
    turn_cards: list[int]  # cards shown so far in the current auction turn
    passes: int  # consecutive passes (C9)
    clock: int  # counts auction turns; orders placements for the provocateur (C13)
    last_placed: list[int]  # clock of each seat's latest placement, -1 if none
    auction_log: list[tuple[int, tuple[int, ...]]]  # (seat, cards shown); () is a pass
    chief: int | None  # revised: the Crown, held live during the auction (R5)
    vice: int | None  # revised: the Shield, likewise
    partner: int | None
    vice_kind: int | None
    chief_kind: int | None
    table: TrumpTable | None
    trick: list[tuple[int, int]]  # (seat, card) in play order
    led: int
    win_seat: int
    win_rank: int
    tricks: list[tuple[int, tuple[tuple[int, int], ...], int, int]]  # leader, plays, winner, pts
    tricks_won: list[int]
    points_won: list[int]
    outcome: Outcome | None
    provocateur: int | None
    kitty: tuple[int, ...]  # revised 3 players: the 3 undealt cards (R3), else ()
    discarded: list[int]  # revised 3 players: the Crown's discards (its points pile)
    # ``phase_id == OVER``, kept as a plain slot: every play loop reads it once per action,
    # and a slot read is several times cheaper than a property call.
    is_over: bool
    played_mask: int  # bit c set: card c has been played to a trick (the current one too)
    # Per seat, bit c set: card c is in the seat's hand or display (its cards in play, C23).
    # The rollout policy's "cards still out" is one mask operation with it.
    held: list[int]
    deck_mask: int  # every card of the colours in play

    @classmethod
    def start(
        cls,
        rules: Rules,
        dealer: int,
        hands: list[list[int]],
        colours: tuple[int, ...],
        kitty: tuple[int, ...] = (),
    ) -> HandState:
        """A new hand, auction opened by the dealer (C4, R4)."""
        state = cls()
        n = len(hands)
        state.rules, state.players, state.dealer, state.colours = rules, n, dealer, colours
        state.hands = [sorted(h) for h in hands]
        state.deal = tuple(map(tuple, state.hands))
        state.displays = [[] for _ in range(n)]
        state.counts = [0] * n
        state.phase_id, state.to_move = AUCTION, dealer
        state.turn_cap = rules.auction_cap(state.counts)
        state.turn_cards, state.passes, state.clock = [], 0, 0
        state.last_placed = [-1] * n
        state.auction_log = []
        state.chief = state.vice = state.partner = None
        state.vice_kind = state.chief_kind = None
        state.table = None
        state.trick, state.led, state.win_seat, state.win_rank = [], -1, -1, -1
        state.tricks = []
        state.tricks_won = [0] * n
        state.points_won = [0] * n
        state.outcome = state.provocateur = None
        state.kitty, state.discarded = tuple(sorted(kitty)), []
        state.is_over, state.played_mask = False, 0
        state.held = [card_mask(h) for h in state.hands]
        state.deck_mask = sum([COLOUR_MASK << CARDS_PER_COLOUR * c for c in colours])
        return state

    # ---- reading ---------------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """The phase as a :class:`~engine.enums.Phase` (``DISCARD``: revised, 3 players
        only); the hot paths compare the int ``phase_id`` instead."""
        return PHASES[self.phase_id]

    @property
    def bid(self) -> int | None:
        return None if self.chief is None else self.counts[self.chief]

    def clone(self) -> HandState:
        """An independent copy, written out slot by slot (``deepcopy`` is ~50x slower, a
        loop over the slots 2x): lists are copied, immutable values shared.  A test checks
        that every slot is copied."""
        new = HandState.__new__(HandState)
        new.rules, new.players, new.dealer, new.colours = (
            self.rules, self.players, self.dealer, self.colours
        )  # fmt: skip
        new.deal, new.kitty, new.table = self.deal, self.kitty, self.table
        new.phase_id, new.to_move, new.turn_cap = self.phase_id, self.to_move, self.turn_cap
        new.passes, new.clock, new.outcome = self.passes, self.clock, self.outcome
        new.chief, new.vice, new.partner = self.chief, self.vice, self.partner
        new.vice_kind, new.chief_kind = self.vice_kind, self.chief_kind
        new.led, new.win_seat, new.win_rank = self.led, self.win_seat, self.win_rank
        new.provocateur, new.is_over = self.provocateur, self.is_over
        new.played_mask = self.played_mask
        new.held, new.deck_mask = self.held[:], self.deck_mask
        new.hands = list(map(list.copy, self.hands))  # no comprehension frame: ~20% faster
        new.displays = list(map(list.copy, self.displays))
        new.counts, new.last_placed = self.counts[:], self.last_placed[:]
        new.turn_cards, new.auction_log = self.turn_cards[:], self.auction_log[:]
        new.trick, new.tricks = self.trick[:], self.tricks[:]
        new.tricks_won, new.points_won = self.tricks_won[:], self.points_won[:]
        new.discarded = self.discarded[:]
        return new

    def trumps(self) -> TrumpTable:
        """The trump table; only once both trumps are settled."""
        if self.table is None:
            raise RuntimeError("trumps are not chosen yet")
        return self.table

    def playable(self, seat: int) -> list[int]:
        """Hand and display are one pool in play (C23)."""
        return self.hands[seat] + self.displays[seat]

    def legal_plays(self, seat: int) -> list[int]:
        """C22: follow the led suit (trumps are one suit) if possible, else anything."""
        pool = self.hands[seat] + self.displays[seat]
        if not self.trick:
            return pool
        table = self.table
        assert table is not None  # a trick is only ever open once trumps are settled
        held, led = self.held[seat], self.led
        follow = held & table.suit_mask[led]
        if not follow or follow == held:  # a void, or every card follows: the whole pool
            return pool
        suit = table.suit
        return [c for c in pool if suit[c] == led]

    def trump_options(self) -> list[int]:
        """Trump kinds the seat to move may name: its displayed colours and numbers (C17,
        R9); the chief (and the revised Shield) may also name no trump; the chief may not
        name the vice's trump unless that is no trump (C18, RULES.md revised defaults)."""
        if self.phase_id == VICE_TRUMP:
            kinds = display_kinds(self.displays[_known(self.vice)])
            return kinds + [NO_TRUMP] if self.rules.vice_may_decline else kinds
        kinds = display_kinds(self.displays[_known(self.chief)]) + [NO_TRUMP]
        vice = self.vice_kind
        if vice is not None and vice != NO_TRUMP and not self.rules.chief_may_copy_vice_trump:
            kinds = [k for k in kinds if k != vice]
        return kinds

    def discard_options(self) -> list[int]:
        """R3: the Crown discards any cards from its hand (never from its display)."""
        return sorted(self.hands[_known(self.to_move)])

    @property
    def discards_left(self) -> int:
        """How many cards the Crown still has to discard (R3; 0 outside that phase)."""
        return len(self.kitty) - len(self.discarded) if self.phase_id == DISCARD else 0

    def partner_options(self) -> list[int]:
        """C19: anyone but the chief and the vice."""
        return [s for s in range(self.players) if s != self.chief and s != self.vice]

    def legal_actions(self) -> list[int]:
        """Every legal integer action of the seat to move, ascending."""
        phase, seat = self.phase_id, self.to_move
        if seat is None:
            return []
        if phase == PLAY:
            # The hottest read of rollouts, inlined. Hands are kept sorted, so only a pool
            # that includes display cards needs sorting (filtering keeps the order); the
            # hand's own list is copied only where it is returned whole.
            hand, display = self.hands[seat], self.displays[seat]
            pool = sorted(hand + display) if display else hand
            if self.trick:
                table, held, led = self.table, self.held[seat], self.led
                assert table is not None  # a trick is only ever open once trumps are settled
                follow = held & table.suit_mask[led]
                if follow and follow != held:  # some cards follow, not all
                    suit = table.suit
                    return [c for c in pool if suit[c] == led]
            return pool[:] if pool is hand else pool
        if phase == AUCTION:
            if self.counts[seat] < self.turn_cap:
                return [*self.hands[seat], END_TURN]
            return [END_TURN]
        if phase == PARTNER:
            return [PARTNER_BASE + s for s in self.partner_options()]
        if phase == DISCARD:
            return self.discard_options()
        return [TRUMP_BASE + k for k in self.trump_options()]

    # ---- moving ----------------------------------------------------------------------------

    def apply_action(self, action: int) -> None:
        """Apply a legal integer action in place (unchecked: see ``legal_actions``)."""
        phase = self.phase_id
        if phase == PLAY:
            # The hottest path of search and rollouts, inlined (a method call per card costs
            # more than the rest of the bookkeeping); plain asserts narrow the types.
            seat, table = self.to_move, self.table
            assert seat is not None and table is not None
            display = self.displays[seat]
            if display and action in display:
                display.remove(action)
            else:
                self.hands[seat].remove(action)
            trick = self.trick
            if not trick:
                self.led = led = table.suit[action]
                self.win_seat, self.win_rank = seat, table.by_led[led][action]
            else:
                rank = table.by_led[self.led][action]
                if rank > self.win_rank:  # strictly greater: the earlier of equals wins (C21)
                    self.win_seat, self.win_rank = seat, rank
            trick.append((seat, action))
            bit = 1 << action
            self.played_mask |= bit
            self.held[seat] ^= bit
            if len(trick) < self.players:
                self.to_move = seat + 1 if seat + 1 < self.players else 0
            else:
                self._close_trick()
        elif phase == AUCTION:
            if action == END_TURN:
                self._end_turn()
            else:
                self._show(action)
        elif phase == PARTNER:
            self.partner = action - PARTNER_BASE
            self._start_play()
        elif phase == DISCARD:
            self._discard(action)
        elif phase == VICE_TRUMP:
            self.vice_kind = action - TRUMP_BASE
            self.phase_id, self.to_move = CHIEF_TRUMP, self.chief
        else:
            self.chief_kind = action - TRUMP_BASE
            self._after_trumps()

    def _show(self, card: int) -> None:
        seat = _known(self.to_move)
        self.hands[seat].remove(card)
        self.displays[seat].append(card)
        self.counts[seat] += 1
        self.turn_cards.append(card)

    def _end_turn(self) -> None:
        seat = _known(self.to_move)
        shown = tuple(self.turn_cards)
        self.auction_log.append((seat, shown))
        if shown:
            self.passes = 0
            self.last_placed[seat] = self.clock
            if self.rules.roles_move:
                self.chief, self.vice = move_roles(self.chief, self.vice, self.counts, seat)
        else:
            self.passes += 1
        self.clock += 1
        self.turn_cards = []
        if self.passes == self.players:  # C9: N consecutive passes end the auction
            self._resolve_auction()
            return
        self.to_move = (seat + 1) % self.players
        self.turn_cap = self.rules.auction_cap(self.counts)

    def _resolve_auction(self) -> None:
        """C10-C15: all pass, Eklat, or chief (and perhaps vice)."""
        if self.rules.roles_move:
            self._resolve_crown_and_shield()
            return
        top = max(self.counts)
        leaders = [s for s in range(self.players) if self.counts[s] == top]
        if top == 0:
            self._finish(Outcome.ALL_PASSED)
        elif len(leaders) > 1:
            self.provocateur = max(leaders, key=lambda s: self.last_placed[s])
            self._finish(Outcome.STALEMATE)
        else:
            self.chief = leaders[0]
            self.vice = self._find_vice()
            self._start_trumps()

    def _resolve_crown_and_shield(self) -> None:
        """R5/R6: the live Crown and Shield stand (no Eklat); nobody showed a card: the hand
        is dealt again (a "redeal" outcome); with a kitty (R3) the Crown takes it first."""
        crown = self.chief
        if crown is None:
            self._finish(Outcome.REDEAL)
        elif self.kitty:
            self.hands[crown] = sorted(self.hands[crown] + list(self.kitty))
            self.held[crown] |= card_mask(self.kitty)
            self.phase_id, self.to_move = DISCARD, crown
        else:
            self._start_trumps()

    def _discard(self, card: int) -> None:
        """R3: one card from the Crown's hand to its points pile (it scores for the Crown)."""
        seat = _known(self.to_move)
        self.hands[seat].remove(card)
        self.held[seat] ^= 1 << card
        self.discarded.append(card)
        self.points_won[seat] += POINTS_OF[card]
        if len(self.discarded) == len(self.kitty):
            self._start_trumps()

    def _start_trumps(self) -> None:
        """C16, R9: the vice (Shield) names a trump first, then the chief (Crown)."""
        if self.vice is None:
            self.phase_id, self.to_move = CHIEF_TRUMP, self.chief
        else:
            self.phase_id, self.to_move = VICE_TRUMP, self.vice

    def _find_vice(self) -> int | None:
        """C14/C15: second-most cards; ties broken by the displayed numbers, highest first."""
        if self.players == 3:
            return None
        others = [s for s in range(self.players) if s != self.chief]
        second = max(self.counts[s] for s in others)
        if second == 0:
            return None
        candidates = [s for s in others if self.counts[s] == second]
        numbers = {
            s: sorted((NUMBER_OF[c] for c in self.displays[s]), reverse=True) for s in candidates
        }
        best = max(numbers.values())
        winners = [s for s in candidates if numbers[s] == best]
        return winners[0] if len(winners) == 1 else None

    def _after_trumps(self) -> None:
        vice = NO_TRUMP if self.vice_kind is None else self.vice_kind  # no vice: no vice trump
        self.table = trump_table(vice, _known(self.chief_kind))
        if self.players > 3:
            self.phase_id = PARTNER
        else:
            self._start_play()

    def _start_play(self) -> None:
        self.phase_id, self.to_move = PLAY, self.chief  # C24: the chief leads

    def _close_trick(self) -> None:
        winner, plays = self.win_seat, tuple(self.trick)
        points = sum([POINTS_OF[c] for _, c in plays])
        self.tricks.append((plays[0][0], plays, winner, points))
        self.tricks_won[winner] += 1
        self.points_won[winner] += points
        self.trick = []
        if self.hands[winner] or self.displays[winner]:
            self.to_move = winner
        else:
            self._finish(Outcome.PLAYED)

    def _finish(self, outcome: Outcome) -> None:
        self.outcome, self.phase_id, self.to_move = outcome, OVER, None
        self.is_over = True


def move_roles(
    crown: int | None, shield: int | None, counts: list[int], seat: int
) -> tuple[int | None, int | None]:
    """R5: who holds the Crown and the Shield after ``seat`` has shown cards (``counts`` are
    the displayed totals after the placement).  First Crown: the first to show.  New Crown:
    more than the Crown; the old Crown takes the Shield.  First Shield: the first to show
    no more than the Crown.  New Shield: more than the Shield, no more than the Crown.  Ties
    never take over.

    >>> move_roles(None, None, [2, 0, 0], 0), move_roles(0, None, [2, 1, 0], 1)
    ((0, None), (0, 1))
    >>> move_roles(0, 1, [2, 1, 3], 2), move_roles(0, 1, [2, 1, 2], 2)
    ((2, 0), (0, 2))
    >>> move_roles(0, 1, [2, 2, 2], 2)  # a tie takes nothing over
    (0, 1)
    """
    count = counts[seat]
    if crown is None:
        return seat, shield
    if seat == crown:
        return crown, shield
    if count > counts[crown]:
        return seat, crown
    if shield is None or (seat != shield and count > counts[shield]):
        return crown, seat
    return crown, shield


def card_mask(cards: Iterable[int]) -> int:
    """The cards as a bit mask (bit c: card c)."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def _known(value: int | None) -> int:
    """``value``, which the phase guarantees is set (keeps the hot path free of casts)."""
    if value is None:
        raise RuntimeError("the state is not in the phase this step needs")
    return value
