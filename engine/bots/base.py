"""What every bot shares: the protocol, the random fallback, action conversion."""

from __future__ import annotations

import random
from typing import Protocol

from engine.actions import Action, Bid, Discard, Partner, Pass, Play, Trump
from engine.enums import TrumpKind
from engine.prompts import BidPrompt, DiscardPrompt, PartnerPrompt, PlayPrompt, Prompt, TrumpPrompt
from engine.state import END_TURN, PARTNER_BASE, TRUMP_BASE
from engine.views import HandView


class Bot(Protocol):
    """A computer player.  ``act`` gets the seat's view (``engine.view(state, seat)``, whose
    ``prompt`` is not ``None``) and returns an action for ``engine.apply``."""

    name: str

    def act(self, view: HandView, rng: random.Random) -> Action: ...


def hand_ids(view: HandView) -> list[int]:
    return [c.id for c in view.hand]


def the_prompt(view: HandView) -> Prompt:
    """The view's prompt; ``ValueError`` when the seat is not to move."""
    if view.prompt is None:
        raise ValueError("the view has no prompt: this seat is not to move")
    return view.prompt


def random_action(view: HandView, rng: random.Random) -> Action:
    """A uniformly random legal action built from the prompt alone.

    A bid draws the number of cards uniformly from ``0..max_cards`` (0 is a pass), then the
    cards; a discard draws ``count`` of the prompt's ``cards``; any other prompt picks one
    of its options."""
    prompt = the_prompt(view)
    if isinstance(prompt, BidPrompt):
        hand = hand_ids(view)
        k = rng.randint(0, min(prompt.max_cards, len(hand)))
        return Bid(tuple(sorted(rng.sample(hand, k)))) if k else Pass()
    if isinstance(prompt, TrumpPrompt):
        return Trump(rng.choice(prompt.options))
    if isinstance(prompt, PartnerPrompt):
        return Partner(rng.choice(prompt.options))
    if isinstance(prompt, PlayPrompt):
        return Play(rng.choice(prompt.cards))
    return Discard(tuple(sorted(rng.sample(prompt.cards, prompt.count))))


def to_action(prompt: Prompt, actions: list[int]) -> Action:
    """Integer actions of one decision (a bid: cards then END_TURN) -> the action."""
    if isinstance(prompt, BidPrompt):
        cards = tuple(a for a in actions if a != END_TURN)
        return Bid(cards) if cards else Pass()
    if isinstance(prompt, DiscardPrompt):
        return Discard(tuple(actions))
    (action,) = actions
    if isinstance(prompt, TrumpPrompt):
        return Trump(TrumpKind.from_code(action - TRUMP_BASE))
    if isinstance(prompt, PartnerPrompt):
        return Partner(action - PARTNER_BASE)
    return Play(action)


def fits_prompt(action: Action, view: HandView) -> bool:
    """Whether ``action`` is one of the things the prompt allows (a guard for fallbacks)."""
    prompt = the_prompt(view)
    if isinstance(prompt, BidPrompt):
        if isinstance(action, Pass):
            return True
        cards = action.cards if isinstance(action, Bid) else ()
        return 0 < len(cards) <= prompt.max_cards and set(cards) <= set(hand_ids(view))
    if isinstance(prompt, TrumpPrompt):
        return isinstance(action, Trump) and action.trump in prompt.options
    if isinstance(prompt, PartnerPrompt):
        return isinstance(action, Partner) and action.seat in prompt.options
    if isinstance(prompt, PlayPrompt):
        return isinstance(action, Play) and action.card in prompt.cards
    if not isinstance(action, Discard):
        return False
    cards = action.cards
    return len(cards) == prompt.count == len(set(cards)) and set(cards) <= set(prompt.cards)
