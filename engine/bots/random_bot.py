"""The ``random`` bot: a uniformly random legal action (the baseline and the fuzzer)."""

from __future__ import annotations

import random
from typing import Any

from engine.bots.base import random_action


class RandomBot:
    name = "random"

    def act(self, view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        return random_action(view, rng)
