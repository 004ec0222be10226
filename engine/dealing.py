"""The public, functional API: deal a hand, apply a checked action, read the result.

Actions are plain dicts, the same as on the wire::

    {"type": "pass"}
    {"type": "bid", "cards": [12, 40]}
    {"type": "trump", "trump": "red" | "7" | "none"}
    {"type": "partner", "seat": 2}
    {"type": "play", "card": 17}
    {"type": "discard", "cards": [3, 9, 51]}          # revised, 3 players: the Crown (R3)

:func:`apply` checks the action completely before it touches anything and returns a **new**
state; the state passed in stays valid and unchanged, also when it raises
:class:`~engine.errors.IllegalAction`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine import errors
from engine.cards import CARDS, CARDS_PER_COLOUR, COLOUR_OF, COLOURS, DECK_SIZE, Card, colour_index
from engine.scoring import hand_result
from engine.state import (
    AUCTION,
    CHIEF_TRUMP,
    DISCARD,
    END_TURN,
    OVER,
    PARTNER,
    PARTNER_BASE,
    PLAY,
    TRUMP_BASE,
    VICE_TRUMP,
    HandState,
)
from engine.trumps import kind_from_str, kind_to_str
from engine.variants import check_players, get_variant

_PHASE_OF_ACTION = {
    "pass": (AUCTION,),
    "bid": (AUCTION,),
    "trump": (VICE_TRUMP, CHIEF_TRUMP),
    "partner": (PARTNER,),
    "play": (PLAY,),
    "discard": (DISCARD,),
}


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
    ``view(...)["colours"]``).  The revised 3-player deal keeps the last 3 cards back as
    the kitty (R3)."""
    check_players(players)
    rules = get_variant(variant)
    count = rules.removed_colour_count(players)
    if removed_colours is None and count:
        removed_colours = [COLOURS[i] for i in sorted(rng.sample(range(len(COLOURS)), count))]
    colours = _colours_in_play(players, variant, removed_colours)
    cards = [c for c in range(DECK_SIZE) if COLOUR_OF[c] in colours]
    rng.shuffle(cards)
    dealt = len(cards) - rules.kitty_size(players)
    hands: list[list[int]] = [[] for _ in range(players)]
    for i, card in enumerate(cards[:dealt]):
        hands[(dealer + 1 + i) % players].append(card)
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


def result(state: HandState) -> dict[str, Any] | None:
    """The hand's result (see docs/rules.md), or ``None`` while it is still being played."""
    return hand_result(state) if state.phase_id == OVER else None


def apply(state: HandState, seat: int | None, action: Any) -> HandState:
    """Check ``action`` by ``seat`` and return the state after it.

    Raises:
        IllegalAction: a subclass naming why (``code``); ``state`` is unchanged.
    """
    kind = _action_type(action)
    mover = state.to_move
    if state.phase_id == OVER or mover is None:
        raise errors.HandOver("the hand is over")
    if seat != mover:
        raise errors.NotYourTurn(f"it is seat {mover}'s turn, not {seat}'s")
    if state.phase_id not in _PHASE_OF_ACTION[kind]:
        raise errors.WrongPhase(f"a {kind!r} action is not possible during {state.phase}")
    steps = _CHECKERS[kind](state, mover, action)
    new = state.clone()
    for step in steps:
        new.apply_action(step)
    return new


def _action_type(action: Any) -> str:
    if not isinstance(action, dict) or action.get("type") not in _PHASE_OF_ACTION:
        raise errors.BadAction(f"an action is a dict whose type is one of {list(_PHASE_OF_ACTION)}")
    return str(action["type"])


def _int_field(action: dict[str, Any], key: str) -> int:
    value = action.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise errors.BadAction(f"{action['type']!r} needs an integer {key!r}")
    return value


def _check_pass(state: HandState, seat: int, action: dict[str, Any]) -> list[int]:
    return [END_TURN]


def _check_bid(state: HandState, seat: int, action: dict[str, Any]) -> list[int]:
    cards = action.get("cards")
    if not isinstance(cards, list) or not all(
        isinstance(c, int) and not isinstance(c, bool) for c in cards
    ):
        raise errors.BadAction("a bid needs 'cards': a list of card ids")
    if not cards:
        raise errors.NoCards("a bid shows at least one card; to show none, pass")
    if len(set(cards)) != len(cards):
        raise errors.BadAction("a card can be shown only once")
    hand = state.hands[seat]
    if any(c not in hand for c in cards):
        raise errors.CardNotYours("you can only show cards from your hand")
    room = state.turn_cap - state.counts[seat]
    if len(cards) > room:
        raise errors.TooManyCards(f"you may show at most {max(room, 0)} card(s) now")
    return [*cards, END_TURN]


def _check_trump(state: HandState, seat: int, action: dict[str, Any]) -> list[int]:
    name = action.get("trump")
    try:
        kind = kind_from_str(name) if isinstance(name, str) else -1
    except ValueError:
        kind = -1
    options = state.trump_options()
    if kind not in options:
        allowed = ", ".join(kind_to_str(k) for k in options)
        raise errors.TrumpNotAllowed(f"{name!r} is not a trump you may name ({allowed})")
    return [TRUMP_BASE + kind]


def _check_partner(state: HandState, seat: int, action: dict[str, Any]) -> list[int]:
    partner = _int_field(action, "seat")
    if partner not in state.partner_options():
        raise errors.PartnerNotAllowed("the partner is another player, never the vice")
    return [PARTNER_BASE + partner]


def _check_discard(state: HandState, seat: int, action: dict[str, Any]) -> list[int]:
    """R3: exactly the missing number of distinct cards, all from the Crown's hand."""
    cards = action.get("cards")
    if not isinstance(cards, list) or not all(
        isinstance(c, int) and not isinstance(c, bool) for c in cards
    ):
        raise errors.BadAction("a discard needs 'cards': a list of card ids")
    count, hand = state.discards_left, state.hands[seat]
    if len(cards) != count or len(set(cards)) != count:
        raise errors.DiscardNotAllowed(f"discard exactly {count} different cards")
    if any(c not in hand for c in cards):
        raise errors.DiscardNotAllowed("discards come from your hand, not from your display")
    return list(cards)


def _check_play(state: HandState, seat: int, action: dict[str, Any]) -> list[int]:
    card = _int_field(action, "card")
    if card not in state.playable(seat):
        raise errors.CardNotYours("that card is not in your hand or display")
    if card not in state.legal_plays(seat):
        raise errors.MustFollowSuit("you must follow the suit that was led")
    return [card]


# The fields each action type carries besides its type: what the checkers above read.
_FIELDS: dict[str, tuple[str, ...]] = {
    "pass": (),
    "bid": ("cards",),
    "trump": ("trump",),
    "partner": ("seat",),
    "play": ("card",),
    "discard": ("cards",),
}


def canonical_action(action: dict[str, Any]) -> dict[str, Any]:
    """An action :func:`apply` accepted, reduced to what the rules read: its type and that
    type's fields, in a fixed order. Extra keys a client sent are dropped, so a log of
    canonical actions replays the same and holds nothing else (e.g. a JSON ``NaN``).

    >>> canonical_action({"card": 7, "type": "play", "note": "gl hf"})
    {'type': 'play', 'card': 7}
    """
    kind = _action_type(action)
    return {"type": kind, **{field: action[field] for field in _FIELDS[kind]}}


_CHECKERS = {
    "pass": _check_pass,
    "bid": _check_bid,
    "trump": _check_trump,
    "partner": _check_partner,
    "play": _check_play,
    "discard": _check_discard,
}
