"""Why an action was refused.

Every refusal raises a subclass of :class:`IllegalAction` with a stable machine ``code`` (the
server forwards it to the client as is) and a human ``message``.  The state the action was
tried on is never changed.  A subclass names its code in its class statement::

    class NotStarted(IllegalAction, code="not_started"): ...

>>> BadAction("no such action").code, issubclass(MustFollowSuit, IllegalAction)
('bad_action', True)
"""

from __future__ import annotations

from typing import Any, ClassVar


class IllegalAction(Exception):
    """An action that the rules do not allow in this state."""

    code: ClassVar[str] = "illegal_action"

    def __init_subclass__(cls, code: str = "", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if code:  # a subclass may also set ``code`` as a plain class attribute
            cls.code = code

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r})"


class BadAction(IllegalAction, code="bad_action"):
    """Not an action: malformed JSON (:func:`engine.action_from_json`) or another object."""


class HandOver(IllegalAction, code="hand_over"):
    """The hand has ended (or none is being played)."""


class NotYourTurn(IllegalAction, code="not_your_turn"):
    """Another seat is to move."""


class WrongPhase(IllegalAction, code="wrong_phase"):
    """An action of another phase, e.g. playing a card during the auction."""


class NoCards(IllegalAction, code="no_cards"):
    """A bid of zero cards (C6: showing nothing is a pass)."""


class TooManyCards(IllegalAction, code="too_many_cards"):
    """Beyond the auction's limit (C6 "small steps")."""


class CardNotYours(IllegalAction, code="card_not_yours"):
    """Not in the seat's hand (or, in play, its display: C23)."""


class MustFollowSuit(IllegalAction, code="must_follow_suit"):
    """C22: the seat holds a card of the led suit."""


class TrumpNotAllowed(IllegalAction, code="trump_not_allowed"):
    """Not a trump kind this seat may name (C17, C18, R9), or no trump kind at all."""


class PartnerNotAllowed(IllegalAction, code="partner_not_allowed"):
    """C19, R10: the partner is another player, never the vice (Shield)."""


class DiscardNotAllowed(IllegalAction, code="discard_not_allowed"):
    """R3: the Crown discards exactly the kitty's size of different cards from its hand."""
