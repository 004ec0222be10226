"""Bots never attempt an illegal action, over thousands of random deals at every player count."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import engine
from engine.bots import LEVELS, make_bot

from .play import play_hand

PLAYER_COUNTS = (3, 4, 5, 6)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_random_and_heuristic_bots_only_play_legal_actions(players: int) -> None:
    rng = random.Random(600 + players)
    kinds: Counter[str] = Counter()
    for i in range(1200):
        # Mostly cheap random tables, every third hand a random mix with heuristic seats.
        levels = ["random"] * players
        if i % 3 == 0:
            levels = [rng.choice(["random", "heuristic"]) for _ in range(players)]
        state = play_hand([make_bot(level) for level in levels], players, seed=rng.getrandbits(32))
        kinds[state.outcome or ""] += 1
    assert sum(kinds.values()) == 1200
    assert kinds["played"] > 100 and kinds["stalemate"] > 200


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_all_heuristic_tables_play_whole_hands(players: int) -> None:
    outcomes: Counter[str] = Counter()
    for seed in range(100):
        state = play_hand([make_bot("heuristic") for _ in range(players)], players, seed)
        outcomes[state.outcome or ""] += 1
        result = engine.result(state)
        assert result is not None
    assert outcomes["played"] >= 80  # the heuristic avoids Eklats


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_search_bot_plays_legal_actions_with_a_small_budget(players: int) -> None:
    for seed in range(6):
        bots = [make_bot("heuristic") for _ in range(players)]
        bots[seed % players] = make_bot("search", time_limit=None, max_worlds=2)
        if seed % 2:
            bots[(seed + 1) % players] = make_bot("random")
        play_hand(bots, players, seed)


def test_make_bot_levels_and_budgets() -> None:
    assert [make_bot(level).name for level in LEVELS] == ["random", "heuristic", "search"]
    with pytest.raises(ValueError):
        make_bot("grandmaster")
    with pytest.raises(ValueError):
        make_bot("search", depth=3)
    with pytest.raises(ValueError):
        make_bot("heuristic", time_limit=1.0)
    with pytest.raises(ValueError):
        make_bot("search", max_worlds=0)
