"""The ``heuristic`` bot: sensible rule-based Mü (see :mod:`engine.bots.policy` and, for the
revised edition, :mod:`engine.bots.revised`)."""

from __future__ import annotations

import random

from engine.actions import Action
from engine.bots.base import fits_prompt, random_action, the_prompt, to_action
from engine.bots.playout import decide
from engine.bots.sampling import SamplingError, WorldSampler
from engine.state import HandState
from engine.views import HandView


def heuristic_actions(state: HandState, seat: int, rng: random.Random) -> list[int]:
    """The heuristic decision of ``seat`` as integer actions (a bid ends with END_TURN)."""
    return decide(state, seat, rng)


class HeuristicBot:
    """Rule-based play.  It reads its view through a world sampled from it; the policy only
    looks at what the seat may know, so any consistent world gives the same decision."""

    name = "heuristic"

    def act(self, view: HandView, rng: random.Random) -> Action:
        prompt = the_prompt(view)
        try:
            sampler = WorldSampler(view)
            world = sampler.sample(rng)
        except SamplingError:
            return random_action(view, rng)
        action = to_action(prompt, heuristic_actions(world, sampler.seat, rng))
        return action if fits_prompt(action, view) else random_action(view, rng)
