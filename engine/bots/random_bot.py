"""The ``random`` bot: a uniformly random legal action (the baseline and the fuzzer)."""

from __future__ import annotations

import random

from engine.actions import Action
from engine.bots.base import random_action
from engine.views import HandView


class RandomBot:
    name = "random"

    def act(self, view: HandView, rng: random.Random) -> Action:
        return random_action(view, rng)
