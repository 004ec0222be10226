"""What a seat can do, as value types (PokerKit's operations, python-chess's ``Move``).

Every action is a frozen, slotted dataclass.  Its first field ``type`` is fixed per class (it
is not an argument), so the JSON form (:func:`engine.codec.to_json`, or ``orjson.dumps``) is
exactly the wire and log format of the action:

>>> from engine.codec import to_json
>>> to_json(Bid((12, 40))), to_json(Trump(TrumpKind.SEVEN))
({'type': 'bid', 'cards': [12, 40]}, {'type': 'trump', 'trump': '7'})
>>> Play(17) == Play(card=17), Play(17)
(True, Play(card=17))

An action says nothing about whether it is legal: :func:`engine.check` judges it against a
state, :func:`engine.action_from_json` is the only parser of untrusted JSON.
"""

from __future__ import annotations

from dataclasses import field
from typing import Literal, TypeGuard

from engine.enums import TrumpKind
from engine.records import record


@record
class Pass:
    """End the auction turn without showing a card (C6, C8; R4)."""

    type: Literal["pass"] = field(default="pass", init=False, repr=False)


@record
class Bid:
    """Show ``cards`` from the hand this auction turn (C6 "small steps"; R4 any number), in
    the order they go on the display."""

    type: Literal["bid"] = field(default="bid", init=False, repr=False)
    cards: tuple[int, ...]


@record
class Discard:
    """R3 (revised, 3 players): the Crown puts ``cards`` from its hand on its points pile."""

    type: Literal["discard"] = field(default="discard", init=False, repr=False)
    cards: tuple[int, ...]


@record
class Trump:
    """Name a trump (C16-C18; R9): the vice (Shield) first, then the chief (Crown)."""

    type: Literal["trump"] = field(default="trump", init=False, repr=False)
    trump: TrumpKind


@record
class Partner:
    """C19, R10: the chief (Crown) names its partner's seat."""

    type: Literal["partner"] = field(default="partner", init=False, repr=False)
    seat: int


@record
class Play:
    """Play ``card`` from the hand or the display to the trick (C22, C23)."""

    type: Literal["play"] = field(default="play", init=False, repr=False)
    card: int


Action = Pass | Bid | Discard | Trump | Partner | Play
ACTION_TYPES: tuple[type[Action], ...] = (Pass, Bid, Discard, Trump, Partner, Play)


def is_int(value: object) -> TypeGuard[int]:
    """A JSON integer: an ``int`` that is not a ``bool`` (``True`` is never card 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_card_list(value: object) -> TypeGuard[list[int] | tuple[int, ...]]:
    """A list (or tuple) of JSON integers."""
    return isinstance(value, list | tuple) and all(is_int(c) for c in value)
