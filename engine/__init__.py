"""Mü rules engine: the classic game for 3 to 6 players, and the 2024 revised edition (Crown
and Shield, ``variant="revised"``), standard library only.

One typed vocabulary: enums (:class:`Colour`, :class:`Phase`, :class:`TrumpKind`, ...),
actions (:class:`Pass`, :class:`Bid`, :class:`Discard`, :class:`Trump`, :class:`Partner`,
:class:`Play`), prompts, views, results and score sheets are frozen dataclasses whose JSON
form (:func:`to_json`) is the wire format.

Hands::

    import engine, random
    hand = engine.deal(5, dealer=0, rng=random.Random(7))
    hand = engine.apply(hand, 0, engine.Bid((hand.hands[0][0],)))
    engine.view(hand, 1)      # what seat 1 may see, with its prompt when it is to move
    engine.result(hand)       # None until the hand is over

Games (dealing, recording, dealer rotation, the end): :func:`new_game`, :func:`deal_next`,
:func:`play`.  Untrusted JSON becomes an action only through :func:`action_from_json`.
Fast integer actions for bots and search: ``HandState.legal_actions() / apply_action() /
clone()`` (:mod:`engine.state`).  The rules as encoded, and the decisions taken where the
rulebooks are silent: docs/rules.md (the revised edition: docs/revised.md).
"""

# First: refuses a compiled build older than its sources (engine/_guard.py, `make compile`).
from engine._guard import COMPILED
from engine.actions import ACTION_TYPES, Action, Bid, Discard, Partner, Pass, Play, Trump
from engine.cards import CARDS, COLOURS, Card
from engine.catalog import (
    ByTrumpClass,
    ClassicSummary,
    DealSize,
    Limits,
    Multipliers,
    RevisedSummary,
    RulesCatalog,
    RulesSummary,
    TrumpKindInfo,
    VariantInfo,
    rules_catalog,
    rules_summary,
)
from engine.codec import JSON, action_from_json, action_to_json, to_json, to_json_object
from engine.dealing import deal, deal_from, deck
from engine.enums import (
    Colour,
    Outcome,
    Phase,
    Role,
    TrumpClass,
    TrumpKind,
    TrumpTier,
    Variant,
)
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
    Game,
    GameOptions,
    GameView,
    deal_next,
    game_view,
    new_game,
    play,
    record_result,
    scoresheet,
)
from engine.legality import apply, check, is_legal
from engine.prompts import (
    BidPrompt,
    DiscardPrompt,
    PartnerPrompt,
    PlayPrompt,
    Prompt,
    TrumpPrompt,
    legal_prompt,
)
from engine.results import HandResult, result
from engine.sheet import ScoreSheet, SheetRow
from engine.state import HandState
from engine.variants import EndCondition, Roles
from engine.views import (
    SEAT_FIELDS,
    AuctionEntry,
    DiscardsView,
    HandView,
    KittyView,
    PlayedCard,
    SeatPart,
    TrickRecord,
    TrumpGroup,
    Trumps,
    seat_part,
    view,
)

__all__ = [
    "ACTION_TYPES",
    "COMPILED",
    "CARDS",
    "COLOURS",
    "JSON",
    "Action",
    "AuctionEntry",
    "BadAction",
    "Bid",
    "BidPrompt",
    "ByTrumpClass",
    "Card",
    "CardNotYours",
    "ClassicSummary",
    "Colour",
    "DealSize",
    "Discard",
    "DiscardNotAllowed",
    "DiscardPrompt",
    "DiscardsView",
    "EndCondition",
    "Game",
    "GameOptions",
    "GameView",
    "HandOver",
    "HandResult",
    "HandState",
    "HandView",
    "IllegalAction",
    "KittyView",
    "Limits",
    "Multipliers",
    "MustFollowSuit",
    "NoCards",
    "NotYourTurn",
    "Outcome",
    "Partner",
    "PartnerNotAllowed",
    "PartnerPrompt",
    "Pass",
    "Phase",
    "Play",
    "PlayPrompt",
    "PlayedCard",
    "Prompt",
    "RevisedSummary",
    "Role",
    "Roles",
    "RulesCatalog",
    "RulesSummary",
    "SEAT_FIELDS",
    "SeatPart",
    "ScoreSheet",
    "SheetRow",
    "TooManyCards",
    "TrickRecord",
    "Trump",
    "TrumpClass",
    "TrumpGroup",
    "TrumpKind",
    "TrumpKindInfo",
    "TrumpNotAllowed",
    "TrumpPrompt",
    "TrumpTier",
    "Variant",
    "Trumps",
    "VariantInfo",
    "WrongPhase",
    "action_from_json",
    "action_to_json",
    "apply",
    "check",
    "deal",
    "deal_from",
    "deal_next",
    "deck",
    "game_view",
    "is_legal",
    "legal_prompt",
    "new_game",
    "play",
    "record_result",
    "result",
    "rules_catalog",
    "rules_summary",
    "scoresheet",
    "seat_part",
    "to_json",
    "to_json_object",
    "view",
]
