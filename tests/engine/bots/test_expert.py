"""The expert's bar for leaving the heuristic's choice (engine.bots.search.clearly_better): a
candidate must lead by more than ``confidence`` standard errors of the paired differences."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine.bots import make_bot
from engine.bots.search import (
    DEFAULT_MAX_WORLDS,
    EXPERT_CONFIDENCE,
    EXPERT_MAX_WORLDS,
    SearchBot,
    clearly_better,
)
from engine.state import HandState

from .play import play_views


def test_a_lead_counts_only_beyond_its_noise() -> None:
    # Paired differences 10, -6, 12, -4: mean 3, standard error 4.65.
    scores, baseline = [40, 20, 52, 30], [30, 26, 40, 34]
    assert clearly_better(scores, baseline, 0.5)
    assert not clearly_better(scores, baseline, 1.0)
    # The same lead in every world is no noise at all.
    assert clearly_better([31, 21, 41], [30, 20, 40], 5.0)
    # A loss or a tie never is.
    assert not clearly_better([30, 20], [30, 20], 0.0)
    assert not clearly_better([29, 20], [30, 20], 0.0)
    # One world gives no error estimate: its lead stands, as the plain search's would.
    assert clearly_better([31], [30], 5.0)


def test_the_expert_is_the_weighted_search_with_the_bar() -> None:
    bot = make_bot("expert", time_limit=None, max_worlds=4)
    assert isinstance(bot, SearchBot) and bot.weighted
    assert bot.confidence == EXPERT_CONFIDENCE > 0
    assert bot.max_worlds == 4  # the budget given wins
    default = make_bot("expert")
    assert isinstance(default, SearchBot) and default.max_worlds == EXPERT_MAX_WORLDS
    plain = make_bot("search")
    assert isinstance(plain, SearchBot) and not plain.weighted and plain.confidence == 0
    assert plain.max_worlds == DEFAULT_MAX_WORLDS > EXPERT_MAX_WORLDS


def test_the_bar_only_ever_sends_the_expert_back_to_the_heuristics_card() -> None:
    """The same worlds with and without the bar (the same seed): the expert plays either the
    plain weighted search's card or the heuristic's own (whose card play reads only the
    view), and it does go back to the heuristic's on some decisions."""
    heuristic = make_bot("heuristic")
    expert = SearchBot(time_limit=None, max_worlds=6, weighted=True, confidence=EXPERT_CONFIDENCE)
    plain = SearchBot(time_limit=None, max_worlds=6, weighted=True)
    plays = went_back = 0
    for view in play_views(seed=40, count=2, choices=2):
        own = heuristic.act(view, random.Random(1))
        searched = plain.act(view, random.Random(2))
        chosen = expert.act(view, random.Random(2))
        assert chosen in (searched, own)
        went_back += chosen != searched
        plays += 1
    assert plays >= 40 and went_back >= 3


@pytest.mark.skipif(engine.COMPILED, reason="a compiled class cannot be subclassed")
def test_the_bars_baseline_outlives_the_halving() -> None:
    """Successive halving may drop the heuristic's choice from the contest; the bar still
    compares the winner with it over every world, so the expert rolls it out in each one,
    while the plain search stops rolling it out once it is dropped."""
    dropped = 0
    budget: dict[str, Any] = {"time_limit": None, "max_worlds": 9, "weighted": True}
    for view in play_views(seed=60, count=3, choices=3):
        by_plain: list[list[int]] = []
        by_expert: list[list[int]] = []
        _recording(by_plain, **budget).act(view, random.Random(3))
        _recording(by_expert, **budget, confidence=EXPERT_CONFIDENCE).act(view, random.Random(3))
        assert len(by_expert) == len(by_plain) == 9
        assert all(0 in rolled for rolled in by_expert)
        # The contest itself is the plain search's: the same candidates, and the
        # heuristic's choice beside them where the halving dropped it.
        for mine, its in zip(by_expert, by_plain, strict=True):
            assert sorted(set(mine) - {0}) == sorted(set(its) - {0})
        dropped += any(0 not in rolled for rolled in by_plain)
    assert dropped >= 3


def _recording(log: list[list[int]], **budget: Any) -> SearchBot:
    """A search bot that notes in ``log`` which candidates each world rolls out (its class is
    made when a test asks: an interpreted class cannot inherit from a compiled one)."""

    class Recording(SearchBot):
        def _world_scores(
            self,
            world: HandState,
            seat: int,
            options: list[list[int]],
            alive: list[int],
            seed: int,
            worlds: int,
            deadline: float | None,
        ) -> list[int] | None:
            log.append(list(alive))
            return super()._world_scores(world, seat, options, alive, seed, worlds, deadline)

    return Recording(**budget)
