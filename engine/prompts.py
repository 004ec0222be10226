"""What the seat to move may do: one prompt type per kind of decision.

A prompt lists exactly the legal choices (a random-play test accepts every option and refuses
everything else), so a client can offer them without knowing the rules.  Like the actions,
each prompt type has a fixed ``type`` field, and its JSON form is the wire format:

>>> import random, engine
>>> hand = engine.deal(5, dealer=0, rng=random.Random(1))
>>> legal_prompt(hand)
BidPrompt(max_cards=1, can_pass=True)
>>> engine.to_json(legal_prompt(hand))
{'type': 'bid', 'max_cards': 1, 'can_pass': True}
"""

from __future__ import annotations

from dataclasses import field
from typing import Literal

from engine.cards import COLOURS, DECK_SIZE
from engine.enums import Colour, Role, TrumpKind
from engine.records import record
from engine.state import AUCTION, DISCARD, PARTNER, PLAY, VICE_TRUMP, HandState
from engine.trumps import TRUMP


@record
class BidPrompt:
    """The auction (C6-C8; R4): show up to ``max_cards`` cards, or pass (always possible)."""

    type: Literal["bid"] = field(default="bid", init=False, repr=False)
    max_cards: int
    can_pass: bool = True


@record
class DiscardPrompt:
    """R3 (revised, 3 players): the Crown discards ``count`` of ``cards`` (its hand)."""

    type: Literal["discard"] = field(default="discard", init=False, repr=False)
    count: int
    cards: tuple[int, ...]


@record
class TrumpPrompt:
    """C16-C18, R9: name one of ``options``; ``role`` is the field the seat holds (``CHIEF``
    or ``VICE``, whatever the variant calls it)."""

    type: Literal["trump"] = field(default="trump", init=False, repr=False)
    role: Role
    options: tuple[TrumpKind, ...]


@record
class PartnerPrompt:
    """C19, R10: the chief (Crown) names one of the ``options`` seats as its partner."""

    type: Literal["partner"] = field(default="partner", init=False, repr=False)
    options: tuple[int, ...]


@record
class PlayPrompt:
    """C22, C23: play one of ``cards``; ``must_follow`` names the led suit when it restricts
    the choice (a colour, or ``"trump"``: trumps are one suit), so a client can explain a
    card it dims."""

    type: Literal["play"] = field(default="play", init=False, repr=False)
    cards: tuple[int, ...]
    must_follow: Colour | Literal["trump"] | None


Prompt = BidPrompt | DiscardPrompt | TrumpPrompt | PartnerPrompt | PlayPrompt


def legal_prompt(state: HandState) -> Prompt | None:
    """What the seat to move may do, or ``None`` when nobody is to move (the hand is over)."""
    seat, phase = state.to_move, state.phase_id
    if seat is None:
        return None
    if phase == AUCTION:
        room = min(state.turn_cap - state.counts[seat], len(state.hands[seat]))
        return _BID_PROMPTS[max(room, 0)]
    if phase == PLAY:
        return _play_prompt(state, seat)
    if phase == PARTNER:
        return PartnerPrompt(tuple(state.partner_options()))
    if phase == DISCARD:
        return DiscardPrompt(state.discards_left, tuple(state.discard_options()))
    role = Role.VICE if phase == VICE_TRUMP else Role.CHIEF
    return TrumpPrompt(role, tuple(map(TrumpKind.from_code, state.trump_options())))


# Every bid prompt there can be (no hand exceeds the deck), built once: frozen, so shared.
_BID_PROMPTS = tuple(BidPrompt(max_cards) for max_cards in range(DECK_SIZE + 1))


def _play_prompt(state: HandState, seat: int) -> PlayPrompt:
    legal, display = state.legal_plays(seat), state.displays[seat]
    follow: Colour | Literal["trump"] | None = None
    if state.trick and len(legal) < len(state.hands[seat]) + len(display):
        follow = "trump" if state.led == TRUMP else COLOURS[state.led]
    # Hands are kept sorted: only a choice that includes display cards needs sorting.
    return PlayPrompt(tuple(sorted(legal) if display else legal), follow)
