"""The ``heuristic`` bot: sensible rule-based Mü (see :mod:`engine.bots.policy` and, for the
revised edition, :mod:`engine.bots.revised`)."""

from __future__ import annotations

import random
from typing import Any

from engine.bots.base import KNOWN_PROMPTS, fits_prompt, random_action, to_dict
from engine.bots.playout import decide
from engine.bots.sampling import SamplingError, WorldSampler
from engine.state import HandState


def heuristic_actions(state: HandState, seat: int, rng: random.Random) -> list[int]:
    """The heuristic decision of ``seat`` as integer actions (a bid ends with END_TURN)."""
    return decide(state, seat, rng)


class HeuristicBot:
    """Rule-based play.  It reads its view through a world sampled from it; the policy only
    looks at what the seat may know, so any consistent world gives the same decision."""

    name = "heuristic"

    def act(self, view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        prompt = view.get("prompt") or {}
        if prompt.get("type") not in KNOWN_PROMPTS:
            return random_action(view, rng)
        try:
            world = WorldSampler(view).sample(rng)
        except SamplingError:
            return random_action(view, rng)
        action = to_dict(prompt["type"], heuristic_actions(world, view["seat"], rng))
        return action if fits_prompt(action, view) else random_action(view, rng)
