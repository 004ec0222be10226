"""Why an action was refused.

Every refusal raises a subclass of :class:`IllegalAction` with a stable machine ``code``
(the server forwards it to the client as is) and a human ``message``.  The state the action
was tried on is never changed.

* IllegalAction
  - BadAction          ``bad_action``          the action dict is malformed
  - HandOver           ``hand_over``           the hand has ended
  - NotYourTurn        ``not_your_turn``
  - WrongPhase         ``wrong_phase``         e.g. playing a card during the auction
  - NoCards            ``no_cards``            a bid of zero cards
  - TooManyCards       ``too_many_cards``      beyond the auction's limit ("small steps")
  - CardNotYours       ``card_not_yours``      not in the seat's hand (or display, in play)
  - MustFollowSuit     ``must_follow_suit``
  - TrumpNotAllowed    ``trump_not_allowed``
  - PartnerNotAllowed  ``partner_not_allowed``
  - DiscardNotAllowed  ``discard_not_allowed`` (revised edition kitty)
"""

from __future__ import annotations

from typing import ClassVar


class IllegalAction(Exception):
    """An action that the rules do not allow in this state."""

    code: ClassVar[str] = "illegal_action"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r})"


class BadAction(IllegalAction):
    code = "bad_action"


class HandOver(IllegalAction):
    code = "hand_over"


class NotYourTurn(IllegalAction):
    code = "not_your_turn"


class WrongPhase(IllegalAction):
    code = "wrong_phase"


class NoCards(IllegalAction):
    code = "no_cards"


class TooManyCards(IllegalAction):
    code = "too_many_cards"


class CardNotYours(IllegalAction):
    code = "card_not_yours"


class MustFollowSuit(IllegalAction):
    code = "must_follow_suit"


class TrumpNotAllowed(IllegalAction):
    code = "trump_not_allowed"


class PartnerNotAllowed(IllegalAction):
    code = "partner_not_allowed"


class DiscardNotAllowed(IllegalAction):
    code = "discard_not_allowed"
