"""What every bot shares: the protocol, the random fallback, action conversion."""

from __future__ import annotations

import random
from typing import Any, Protocol

from engine.state import END_TURN, PARTNER_BASE, TRUMP_BASE
from engine.trumps import kind_to_str

KNOWN_PROMPTS = ("bid", "trump", "partner", "play", "discard")


class Bot(Protocol):
    """A computer player.  ``act`` gets the seat's view (``engine.view(state, seat)``, whose
    ``prompt`` is not ``None``) and returns an action dict for ``engine.apply``."""

    name: str

    def act(self, view: dict[str, Any], rng: random.Random) -> dict[str, Any]: ...


def hand_ids(view: dict[str, Any]) -> list[int]:
    return [int(c["id"]) for c in view["hand"]]


def random_action(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A uniformly random legal action built from the prompt alone.

    A bid draws the number of cards uniformly from ``0..max_cards`` (0 is a pass), then the
    cards.  Unknown prompt types are handled generically: ``{"type": "discard", "count": k,
    "cards": [...]}`` draws ``k`` of ``cards``; a prompt with ``options`` picks one of them.
    """
    prompt = view.get("prompt")
    if not isinstance(prompt, dict):
        raise ValueError("the view has no prompt: this seat is not to move")
    kind = prompt.get("type")
    if kind == "bid":
        hand = hand_ids(view)
        k = rng.randint(0, min(int(prompt.get("max_cards", 0)), len(hand)))
        if k == 0:
            return {"type": "pass"}
        return {"type": "bid", "cards": sorted(rng.sample(hand, k))}
    if kind == "trump":
        return {"type": "trump", "trump": rng.choice(prompt["options"])}
    if kind == "partner":
        return {"type": "partner", "seat": rng.choice(prompt["options"])}
    if kind == "play":
        return {"type": "play", "card": rng.choice(prompt["cards"])}
    if "count" in prompt and "cards" in prompt:
        return {"type": kind, "cards": sorted(rng.sample(list(prompt["cards"]), prompt["count"]))}
    if "cards" in prompt:
        return {"type": kind, "card": rng.choice(prompt["cards"])}
    if "options" in prompt:
        option = rng.choice(prompt["options"])
        key = "seat" if isinstance(option, int) else str(kind)
        return {"type": kind, key: option}
    raise ValueError(f"cannot act on prompt {prompt!r}")


def to_dict(phase_kind: str, actions: list[int]) -> dict[str, Any]:
    """Integer actions of one decision (a bid: cards then END_TURN) -> an action dict."""
    if phase_kind == "bid":
        cards = [a for a in actions if a != END_TURN]
        return {"type": "bid", "cards": cards} if cards else {"type": "pass"}
    if phase_kind == "discard":
        return {"type": "discard", "cards": list(actions)}
    (action,) = actions
    if phase_kind == "trump":
        return {"type": "trump", "trump": kind_to_str(action - TRUMP_BASE)}
    if phase_kind == "partner":
        return {"type": "partner", "seat": action - PARTNER_BASE}
    return {"type": "play", "card": action}


def fits_prompt(action: dict[str, Any], view: dict[str, Any]) -> bool:
    """Whether ``action`` is one of the things the prompt allows (a guard for fallbacks)."""
    prompt = view["prompt"]
    kind = prompt["type"]
    if kind == "bid":
        if action["type"] == "pass":
            return True
        hand = set(hand_ids(view))
        cards = action["cards"]
        return 0 < len(cards) <= prompt["max_cards"] and set(cards) <= hand
    if kind == "trump":
        return action["type"] == "trump" and action["trump"] in prompt["options"]
    if kind == "partner":
        return action["type"] == "partner" and action["seat"] in prompt["options"]
    if kind == "play":
        return action["type"] == "play" and action["card"] in prompt["cards"]
    if kind == "discard":
        cards = action.get("cards", [])
        return (
            action["type"] == "discard"
            and len(cards) == prompt["count"] == len(set(cards))
            and set(cards) <= set(prompt["cards"])
        )
    return False
