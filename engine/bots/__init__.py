"""Computer players for Mü (standard library only).

A bot is an object with a ``name`` and ``act(view, rng) -> action``: it receives only the
view of its seat (an ``engine.HandView``: ``engine.view(state, seat)`` while that seat is to
move) and returns a typed action for ``engine.apply``.  It never sees the state.

>>> import engine, random
>>> from engine.bots import make_bot
>>> hand = engine.deal(4, dealer=0, rng=random.Random(3))
>>> bot = make_bot("heuristic")
>>> action = bot.act(engine.view(hand, hand.to_move), random.Random(0))
>>> hand = engine.apply(hand, hand.to_move, action)   # always legal

Levels: ``"random"`` (uniform legal action), ``"heuristic"`` (rules of thumb, microseconds
to a millisecond), ``"search"`` (determinized Monte-Carlo over the heuristic; budget
``time_limit`` seconds, default 0.14, compiled 0.08, and ``max_worlds``, default 200),
``"expert"`` (the search over worlds weighted by what the auction and the play revealed,
:mod:`engine.bots.inference`, which leaves the heuristic's choice only for a clearly better
one; the same clock, at most 160 worlds).  See docs/bots.md.
"""

from __future__ import annotations

from typing import Any

from engine.bots.base import Bot, random_action
from engine.bots.heuristic import HeuristicBot
from engine.bots.random_bot import RandomBot
from engine.bots.sampling import SamplingError, WorldSampler, sample_world
from engine.bots.search import EXPERT_CONFIDENCE, EXPERT_MAX_WORLDS, SearchBot

# The levels a table offers, weakest first (the client names them Easy, Normal, Strong and
# Expert).
LEVELS = ("random", "heuristic", "search", "expert")
# What a table seats when nobody says, and who stands in for an away person: quick, and
# sensible enough not to spoil a game.
DEFAULT_LEVEL = "heuristic"


def make_bot(level: str, **budget: Any) -> Bot:
    """A bot of ``level``; ``budget`` (search and expert only): ``time_limit`` (seconds or
    ``None``) and ``max_worlds``.  ``ValueError`` for an unknown level or budget key."""
    if level == "random":
        bot: Bot = RandomBot()
    elif level == "heuristic":
        bot = HeuristicBot()
    elif level in ("search", "expert"):
        unknown = set(budget) - {"time_limit", "max_worlds"}
        if unknown:
            raise ValueError(f"unknown search budget {sorted(unknown)}")
        if level == "expert":
            budget = {"max_worlds": EXPERT_MAX_WORLDS, **budget}
            return SearchBot(**budget, weighted=True, confidence=EXPERT_CONFIDENCE)
        return SearchBot(**budget)
    else:
        raise ValueError(f"unknown bot level {level!r}; known: {list(LEVELS)}")
    if budget:
        raise ValueError(f"the {level} bot takes no budget")
    return bot


__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "Bot",
    "HeuristicBot",
    "RandomBot",
    "SamplingError",
    "SearchBot",
    "WorldSampler",
    "make_bot",
    "random_action",
    "sample_world",
]
