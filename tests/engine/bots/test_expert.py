"""The expert's bar for leaving the heuristic's choice (engine.bots.search.clearly_better): a
candidate must lead by more than ``confidence`` standard errors of the paired differences."""

from __future__ import annotations

import random

import engine
from engine.bots import make_bot
from engine.bots.search import (
    DEFAULT_MAX_WORLDS,
    EXPERT_CONFIDENCE,
    EXPERT_MAX_WORLDS,
    SearchBot,
    clearly_better,
)

from .play import mid_hand_states


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
    for players in (4, 5):
        for state in mid_hand_states(players, seed=40 + players, count=2):
            seat = state.to_move
            assert seat is not None
            view = engine.view(state, seat)
            prompt = view.prompt
            if not isinstance(prompt, engine.PlayPrompt) or len(prompt.cards) < 2:
                continue
            own = heuristic.act(view, random.Random(1))
            searched = plain.act(view, random.Random(2))
            chosen = expert.act(view, random.Random(2))
            assert chosen in (searched, own)
            went_back += chosen != searched
            plays += 1
    assert plays >= 40 and went_back >= 3
