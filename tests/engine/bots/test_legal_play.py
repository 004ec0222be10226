"""Bots never attempt an illegal action, over thousands of random deals at every player count."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import engine
from engine.bots import LEVELS, make_bot

from .play import play_hand

PLAYER_COUNTS = (3, 4, 5, 6)


@pytest.mark.slow
@pytest.mark.no_cover
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


@pytest.mark.slow
@pytest.mark.no_cover
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_all_heuristic_tables_play_whole_hands(players: int) -> None:
    outcomes: Counter[str] = Counter()
    for seed in range(100):
        state = play_hand([make_bot("heuristic") for _ in range(players)], players, seed)
        outcomes[state.outcome or ""] += 1
        result = engine.result(state)
        assert result is not None
    assert outcomes["played"] >= 80  # the heuristic avoids Eklats


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_search_bot_plays_legal_actions_with_a_small_budget(players: int) -> None:
    for seed in range(6):
        bots = [make_bot("heuristic") for _ in range(players)]
        bots[seed % players] = make_bot("search", time_limit=None, max_worlds=2)
        if seed % 2:
            bots[(seed + 1) % players] = make_bot("random")
        else:
            bots[(seed + 2) % players] = make_bot("expert", time_limit=None, max_worlds=2)
        play_hand(bots, players, seed)


def test_make_bot_levels_and_budgets() -> None:
    names = ["random", "heuristic", "search", "expert"]
    assert [make_bot(level).name for level in LEVELS] == names
    with pytest.raises(ValueError):
        make_bot("expert", depth=3)
    with pytest.raises(ValueError):
        make_bot("grandmaster")
    with pytest.raises(ValueError):
        make_bot("search", depth=3)
    with pytest.raises(ValueError):
        make_bot("heuristic", time_limit=1.0)
    with pytest.raises(ValueError):
        make_bot("search", max_worlds=0)


# ---- the revised edition (Crown and Shield) --------------------------------------------------


@pytest.mark.slow
@pytest.mark.no_cover
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_bots_only_play_legal_actions_in_the_revised_edition(players: int) -> None:
    """Random tables, random mixes with heuristic seats and all-heuristic tables: every
    action (bids of any size, both trumps, partner, the 3-player discard) is legal."""
    rng = random.Random(900 + players)
    kinds: Counter[str] = Counter()
    for i in range(700):
        levels = ["random"] * players
        if i % 3 == 0:
            levels = [rng.choice(["random", "heuristic"]) for _ in range(players)]
        elif i % 3 == 1:
            levels = ["heuristic"] * players
        bots = [make_bot(level) for level in levels]
        state = play_hand(bots, players, seed=rng.getrandbits(32), variant="revised")
        result = engine.result(state)
        assert result is not None
        kinds[result.kind] += 1
        kinds[f"team:{result.winning_team}"] += 1
        kinds["discarded"] += len(state.discarded) == 3
    assert kinds["played"] > 600
    assert kinds["team:crown"] > 50 and kinds["team:shield"] > 50
    assert (kinds["discarded"] > 600) == (players == 3)


@pytest.mark.slow
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_the_heuristic_bids_for_crown_and_shield_in_the_revised_edition(players: int) -> None:
    """All-heuristic revised tables: a Crown and a Shield every time, sensible bids (never the
    whole hand), and the Crown never names the Shield's trump."""
    for seed in range(60):
        state = play_hand(
            [make_bot("heuristic") for _ in range(players)], players, seed, variant="revised"
        )
        result = engine.result(state)
        assert result is not None and result.kind == "played"
        assert result.vice is not None
        assert max(result.bids) <= 0.6 * 15
        vice_trump, chief_trump = result.vice_trump, result.chief_trump
        assert vice_trump == "none" or chief_trump != vice_trump


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_search_bot_plays_legal_actions_in_the_revised_edition(players: int) -> None:
    for seed in range(4):
        bots = [make_bot("heuristic") for _ in range(players)]
        bots[seed % players] = make_bot("search", time_limit=None, max_worlds=2)
        if seed % 2:
            bots[(seed + 1) % players] = make_bot("random")
        else:
            bots[(seed + 2) % players] = make_bot("expert", time_limit=None, max_worlds=2)
        play_hand(bots, players, seed, variant="revised")
