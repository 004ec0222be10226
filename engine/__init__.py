"""Mü rules engine: the classic game for 3 to 6 players, and the 2024 revised edition (Crown
and Shield, ``variant="revised"``), standard library only.

Hands::

    import engine, random
    hand = engine.deal(5, dealer=0, rng=random.Random(7))
    hand = engine.apply(hand, 0, {"type": "bid", "cards": [hand.hands[0][0]]})
    engine.view(hand, 1)      # what seat 1 may see, with its prompt when it is to move
    engine.result(hand)       # None until the hand is over

Games (score sheet, dealer rotation, end): :mod:`engine.game`.  Fast integer actions for bots
and search: ``HandState.legal_actions() / apply_action() / clone()`` (:mod:`engine.state`).
The rules as encoded, and the decisions taken where the rulebooks are silent: docs/rules.md
(the revised edition: docs/revised.md).
"""

from engine.api import apply, canonical_action, deal, deal_from, deck, result
from engine.cards import CARDS, COLOURS, Card
from engine.errors import (
    BadAction,
    CardNotYours,
    DiscardNotAllowed,
    HandOver,
    IllegalAction,
    MustFollowSuit,
    NoCards,
    NotYourTurn,
    PartnerNotAllowed,
    TooManyCards,
    TrumpNotAllowed,
    WrongPhase,
)
from engine.game import (
    GameOptions,
    GameState,
    new_game,
    record_hand,
    record_result,
    scoresheet,
    start_hand,
)
from engine.state import HandState
from engine.variants import rules_summary
from engine.views import prompt as legal_prompt
from engine.views import view

__all__ = [
    "CARDS",
    "COLOURS",
    "BadAction",
    "Card",
    "CardNotYours",
    "DiscardNotAllowed",
    "GameOptions",
    "GameState",
    "HandOver",
    "HandState",
    "IllegalAction",
    "MustFollowSuit",
    "NoCards",
    "NotYourTurn",
    "PartnerNotAllowed",
    "TooManyCards",
    "TrumpNotAllowed",
    "WrongPhase",
    "apply",
    "canonical_action",
    "deal",
    "deal_from",
    "deck",
    "legal_prompt",
    "new_game",
    "record_hand",
    "record_result",
    "result",
    "rules_summary",
    "scoresheet",
    "start_hand",
    "view",
]
