"""Judging and applying a typed action (PokerKit's verify / can / do triple).

* :func:`check` raises the :class:`~engine.errors.IllegalAction` subclass that says why an
  action is refused, and returns ``None`` for a legal one;
* :func:`is_legal` asks the same question and never raises;
* :func:`apply` checks, then returns a **new** state; the state passed in stays valid and
  unchanged, also when it raises.

The checks are tried in a fixed order: not an action (``bad_action``), the hand is over, not
the seat's turn, the wrong phase for this type of action, then the action's own rules.  A
legal action becomes the integer actions of the fast interface (:mod:`engine.state`), so both
interfaces share every transition.

>>> import random, engine
>>> hand = engine.deal(4, dealer=0, rng=random.Random(2))
>>> is_legal(hand, 1, Pass()), is_legal(hand, 0, Pass())
(False, True)
>>> check(hand, 0, Play(hand.hands[0][0]))
Traceback (most recent call last):
    ...
engine.errors.WrongPhase: a 'play' action is not possible during auction
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import errors
from engine.actions import Action, Bid, Discard, Partner, Pass, Play, Trump, is_card_list
from engine.enums import Phase, TrumpKind
from engine.state import END_TURN, PARTNER_BASE, PHASES, TRUMP_BASE, HandState


def check(state: HandState, seat: int | None, action: Action) -> None:
    """Raise the reason why ``seat`` may not take ``action`` now; return if it may.

    Raises:
        IllegalAction: a subclass naming why (``code``); ``state`` is unchanged.
    """
    _steps(state, seat, action)


def is_legal(state: HandState, seat: int | None, action: object) -> bool:
    """Whether ``seat`` may take ``action`` now (never raises)."""
    try:
        _steps(state, seat, action)
    except errors.IllegalAction:
        return False
    return True


def apply(state: HandState, seat: int | None, action: Action) -> HandState:
    """Check ``action`` by ``seat`` and return the state after it (``state`` is unchanged).

    Raises:
        IllegalAction: a subclass naming why (``code``); ``state`` is unchanged.
    """
    steps = _steps(state, seat, action)
    new = state.clone()
    for step in steps:
        new.apply_action(step)
    return new


def _steps(state: HandState, seat: int | None, action: object) -> list[int]:
    """The integer actions that carry out a legal ``action``; raises for an illegal one."""
    rule = _RULES.get(type(action))
    if rule is None:
        raise errors.BadAction(f"not an action: {type(action).__name__}")
    mover = state.to_move
    if mover is None:  # nobody is to move exactly when the hand is over
        raise errors.HandOver("the hand is over")
    if seat != mover:
        raise errors.NotYourTurn(f"it is seat {mover}'s turn, not {seat}'s")
    phases, steps = rule
    phase = PHASES[state.phase_id]
    if phase not in phases:
        kind = getattr(action, "type", "")
        raise errors.WrongPhase(f"a {kind!r} action is not possible during {phase}")
    return steps(state, mover, action)


def _pass(state: HandState, seat: int, action: Pass) -> list[int]:
    return [END_TURN]


def _bid(state: HandState, seat: int, action: Bid) -> list[int]:
    """C6 (R4): one or more distinct cards from the hand, within the turn's limit."""
    cards = _card_list(action.cards, "a bid")
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


def _trump(state: HandState, seat: int, action: Trump) -> list[int]:
    """C17, C18, R9: one of the kinds the seat's display offers (see ``trump_options``)."""
    name = action.trump
    kind = _TRUMP_CODES.get(name, -1) if isinstance(name, str) else -1
    options = state.trump_options()
    if kind not in options:
        allowed = ", ".join(TrumpKind.from_code(k) for k in options)
        raise errors.TrumpNotAllowed(f"{name!r} is not a trump you may name ({allowed})")
    return [TRUMP_BASE + kind]


def _partner(state: HandState, seat: int, action: Partner) -> list[int]:
    """C19, R10: anyone but the chief and the vice."""
    partner = action.seat
    if type(partner) is not int:  # see _card_list
        raise errors.BadAction("a partner action needs an integer 'seat'")
    if partner not in state.partner_options():
        raise errors.PartnerNotAllowed("the partner is another player, never the vice")
    return [PARTNER_BASE + partner]


def _discard(state: HandState, seat: int, action: Discard) -> list[int]:
    """R3: exactly the missing number of distinct cards, all from the Crown's hand."""
    cards = _card_list(action.cards, "a discard")
    count, hand = state.discards_left, state.hands[seat]
    if len(cards) != count or len(set(cards)) != count:
        raise errors.DiscardNotAllowed(f"discard exactly {count} different cards")
    if any(c not in hand for c in cards):
        raise errors.DiscardNotAllowed("discards come from your hand, not from your display")
    return list(cards)


def _play(state: HandState, seat: int, action: Play) -> list[int]:
    """C22, C23: a card of the hand or the display that follows suit if it can."""
    card = action.card
    if type(card) is not int:  # see _card_list
        raise errors.BadAction("a play needs an integer 'card'")
    if card in state.legal_plays(seat):  # the usual case: one list, one lookup
        return [card]
    if card in state.playable(seat):
        raise errors.MustFollowSuit("you must follow the suit that was led")
    raise errors.CardNotYours("that card is not in your hand or display")


# An action built in Python skips action_from_json, so its fields are checked here too: a
# mistyped field (a bool for a card, a list for a seat) never reaches the integer interface.
def _card_list(value: object, what: str) -> list[int] | tuple[int, ...]:
    if not is_card_list(value):
        raise errors.BadAction(f"{what} needs 'cards': a list of card ids")
    return value


_TRUMP_CODES: dict[str, int] = {kind.value: kind.code for kind in TrumpKind}
_Steps = Callable[[HandState, int, Any], list[int]]
# Per action type: the phases it belongs to, and its own rules.
_RULES: dict[type, tuple[tuple[Phase, ...], _Steps]] = {
    Pass: ((Phase.AUCTION,), _pass),
    Bid: ((Phase.AUCTION,), _bid),
    Trump: ((Phase.VICE_TRUMP, Phase.CHIEF_TRUMP), _trump),
    Partner: ((Phase.PARTNER,), _partner),
    Play: ((Phase.PLAY,), _play),
    Discard: ((Phase.DISCARD,), _discard),
}
