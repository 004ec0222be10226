"""What one seat may know (redaction lives here, in the engine).

``view(state, seat)`` is the only way a state leaves the engine: a :class:`HandView` holding
the viewer's own hidden cards, everything public (displays, the auction, tricks, trumps,
roles, counts) and, for the seat to move, a ``prompt`` listing exactly what it may do.
``seat=None`` is a spectator, who sees no hidden card at all.  Once the hand is over its
``result`` and the whole original ``deal`` are public.

``roles`` names the two roles for the client (classic chief/vice, revised Crown/Shield).
Revised views also carry ``crown`` and ``shield`` (the live holders during the auction, R5)
and, with three players, ``kitty`` and ``discards``: their cards are hidden from everyone
but the Crown until the hand is over (R3).  Every key is always there: what does not apply
to this variant or this moment is ``None``.

Cards are the shared :data:`engine.CARDS` instances, so a view allocates no card objects;
likewise every ``(seat, card)`` of a trick is a shared :class:`PlayedCard`, and the records
of finished tricks and auction turns (immutable, and the same in every view of a hand) come
from small caches.

>>> import random, engine
>>> hand = engine.deal(4, dealer=0, rng=random.Random(5))
>>> v = view(hand, 0)
>>> v.phase, v.prompt, len(v.hand), v.hand_counts, v.kitty
(<Phase.AUCTION: 'auction'>, BidPrompt(max_cards=1, can_pass=True), 15, (15, 15, 15, 15), None)
>>> engine.to_json(view(hand, None).trumps)
{'vice': None, 'chief': None}

Only the fields named in :data:`SEAT_FIELDS` depend on who looks (:func:`seat_part` gives
them alone); every other field of a view is the same for every seat and for spectators, so a
server may encode that part once per state and add each recipient's own part:

>>> own = seat_part(hand, 0)
>>> own.hand == v.hand and own.prompt == v.prompt and own.seat == 0
True
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Final, Literal

from engine.cards import CARDS, COLOURS, Card
from engine.enums import Colour, Phase, TrumpKind, TrumpTier
from engine.prompts import Prompt, legal_prompt
from engine.records import record
from engine.results import HandResult, hand_result
from engine.state import AUCTION, OVER, PLAY, HandState
from engine.trumps import trump_ranking
from engine.variants import Roles

Cards = tuple[Card, ...]


@record
class AuctionEntry:
    """One auction turn (C6-C8): the cards shown, or a pass."""

    seat: int
    type: Literal["bid", "pass"]
    cards: Cards


@record
class PlayedCard:
    seat: int
    card: Card


@record
class TrickRecord:
    """A finished trick (C25): who led, the cards in play order, who won, its points."""

    leader: int
    cards: tuple[PlayedCard, ...]
    winner: int
    points: int


@record
class TrumpGroup:
    """Trump cards of equal rank (C21): among them the one played first wins."""

    tier: TrumpTier
    ids: tuple[int, ...]


@record
class Trumps:
    """The named trumps; ``None`` until named (and the vice's when there is no vice)."""

    vice: TrumpKind | None
    chief: TrumpKind | None


@record
class KittyView:
    """R3: the kitty; ``holder`` once the Crown has taken it; ``cards`` only for the Crown
    (and for everyone once the hand is over)."""

    size: int
    holder: int | None
    cards: Cards


@record
class DiscardsView:
    """R3: the Crown's points pile; ``cards`` only for the Crown (and at the end)."""

    seat: int | None
    count: int
    cards: Cards


@record
class HandView:
    """Everything one seat (``seat=None``: a spectator) may see of a hand."""

    variant: str
    players: int
    colours: tuple[Colour, ...]  # the colours in play (3 players: three, revised four)
    phase: Phase
    to_move: int | None
    dealer: int
    seat: int | None
    hand: Cards  # the viewer's own hidden cards, sorted; a spectator's is empty
    hand_counts: tuple[int, ...]
    displays: tuple[Cards, ...]  # per seat, in the order shown
    bids: tuple[int, ...]  # per seat: the cards shown in the auction
    auction: tuple[AuctionEntry, ...]
    auction_leader: int | None  # the sole highest display (revised: the live Crown)
    trick: tuple[PlayedCard, ...]
    trick_leader: int | None
    trick_number: int | None  # 1-based, during play
    last_trick: TrickRecord | None
    tricks: tuple[TrickRecord, ...]
    tricks_won: tuple[int, ...]
    trump_ranking: tuple[TrumpGroup, ...] | None  # once both trumps are named
    trumps: Trumps
    chief: int | None
    vice: int | None
    partner: int | None
    bid: int | None
    team_goal: int | None
    prompt: Prompt | None  # only in the view of the seat to move
    roles: Roles
    crown: int | None  # revised (R5): the live holders; classic: None
    shield: int | None
    kitty: KittyView | None  # revised, 3 players (R3)
    discards: DiscardsView | None
    result: HandResult | None  # once the hand is over
    deal: tuple[Cards, ...] | None  # once the hand is over: every seat's original cards


@record
class SeatPart:
    """The fields of a :class:`HandView` that depend on the viewer (:data:`SEAT_FIELDS`), with
    the same names and values as in ``view(state, seat)``."""

    seat: int | None
    hand: Cards
    prompt: Prompt | None
    kitty: KittyView | None
    discards: DiscardsView | None


# The fields of a HandView that differ between viewers; the others are everyone's.
SEAT_FIELDS: Final = ("seat", "hand", "prompt", "kitty", "discards")


def _cards(ids: Iterable[int]) -> Cards:
    return tuple(map(CARDS.__getitem__, ids))


# Every (seat, card) pair once (6 seats at most): frozen records can be shared.
_PLAYED_CARDS = tuple(tuple(PlayedCard(seat, card) for card in CARDS) for seat in range(6))


def _plays(plays: Iterable[tuple[int, int]]) -> tuple[PlayedCard, ...]:
    return tuple([_PLAYED_CARDS[seat][card] for seat, card in plays])


# Building a frozen record costs a few hundred ns; a view of a late trick repeats every
# finished trick and the whole auction, so those records are looked up instead.
@lru_cache(maxsize=4096)
def _trick_record(trick: tuple[int, tuple[tuple[int, int], ...], int, int]) -> TrickRecord:
    leader, plays, winner, points = trick
    return TrickRecord(leader, _plays(plays), winner, points)


@lru_cache(maxsize=4096)
def _auction_entry(seat: int, shown: tuple[int, ...]) -> AuctionEntry:
    return AuctionEntry(seat, "bid" if shown else "pass", _cards(shown))


def _auction_leader(state: HandState) -> int | None:
    if state.rules.roles_move:
        return state.chief  # R5: the live Crown (ties never take it over)
    top = max(state.counts)
    leaders = [s for s, count in enumerate(state.counts) if count == top]
    return leaders[0] if top and len(leaders) == 1 else None


def _trump_ranking(state: HandState) -> tuple[TrumpGroup, ...] | None:
    """Once both trumps are settled: every trump card in play, strongest group first."""
    if state.table is None:
        return None
    return tuple(TrumpGroup(tier, ids) for tier, ids in trump_ranking(state.table, state.colours))


def _trumps(state: HandState) -> Trumps:
    vice, chief = state.vice_kind, state.chief_kind
    return Trumps(
        None if vice is None or state.vice is None else TrumpKind.from_code(vice),
        None if chief is None else TrumpKind.from_code(chief),
    )


def _kitty(state: HandState, seat: int | None) -> tuple[KittyView | None, DiscardsView | None]:
    """R3: the kitty and the discards, shown to the Crown (once it holds them) and to
    everyone when the hand is over."""
    if not state.kitty:
        return None, None
    crown = state.chief
    taken = state.phase_id != AUCTION and crown is not None
    holder = crown if taken else None
    sees = state.phase_id == OVER or (taken and seat == crown)
    return (
        KittyView(len(state.kitty), holder, _cards(state.kitty) if sees else ()),
        DiscardsView(holder, len(state.discarded), _cards(state.discarded) if sees else ()),
    )


def seat_part(state: HandState, seat: int | None) -> SeatPart:
    """What only ``seat`` (``None``: a spectator) sees of ``state``: its own cards, its prompt
    when it is to move, and (revised, 3 players) the kitty as it may see it."""
    if seat is not None and not 0 <= seat < state.players:
        raise ValueError(f"no seat {seat} at a table of {state.players}")
    kitty, discards = _kitty(state, seat) if state.rules.roles_move else (None, None)
    return SeatPart(
        seat=seat,
        hand=_cards(sorted(state.hands[seat])) if seat is not None else (),
        prompt=legal_prompt(state) if seat is not None and seat == state.to_move else None,
        kitty=kitty,
        discards=discards,
    )


def view(state: HandState, seat: int | None) -> HandView:
    """Everything ``seat`` (``None``: a spectator) may see of ``state``."""
    own = seat_part(state, seat)
    over = state.phase_id == OVER
    tricks, rules = state.tricks, state.rules
    revised = rules.roles_move
    return HandView(
        variant=rules.name,
        players=state.players,
        colours=tuple(COLOURS[c] for c in state.colours),
        phase=state.phase,
        to_move=state.to_move,
        dealer=state.dealer,
        seat=own.seat,
        hand=own.hand,
        hand_counts=tuple(len(h) for h in state.hands),
        displays=tuple(_cards(d) for d in state.displays),
        bids=tuple(state.counts),
        auction=tuple([_auction_entry(s, shown) for s, shown in state.auction_log]),
        auction_leader=_auction_leader(state),
        trick=_plays(state.trick),
        trick_leader=state.trick[0][0] if state.trick else None,
        trick_number=len(tricks) + 1 if state.phase_id == PLAY else None,
        last_trick=_trick_record(tricks[-1]) if tricks else None,
        tricks=tuple(map(_trick_record, tricks)),
        tricks_won=tuple(state.tricks_won),
        trump_ranking=_trump_ranking(state),
        trumps=_trumps(state),
        chief=state.chief,
        vice=state.vice,
        partner=state.partner,
        bid=state.bid,
        team_goal=rules.goal(state.players, state.bid) if state.bid else None,
        prompt=own.prompt,
        roles=rules.roles,
        crown=state.chief if revised else None,
        shield=state.vice if revised else None,
        kitty=own.kitty,
        discards=own.discards,
        result=hand_result(state) if over else None,
        deal=tuple(_cards(h) for h in state.deal) if over else None,
    )
