"""Seeded random play over thousands of hands for every player count (OpenSpiel-style
random-sim test), plus a hypothesis property test over seeds."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .randomplay import play_hand

PLAYER_COUNTS = (3, 4, 5, 6)


@pytest.mark.slow
@pytest.mark.no_cover
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_thousands_of_random_hands_keep_every_invariant(players: int) -> None:
    rng = random.Random(1000 + players)
    kinds: Counter[str] = Counter()
    for i in range(2000):
        hand = play_hand(players, rng, exhaustive=i < 150)
        kinds[hand.outcome or ""] += 1
    assert kinds["played"] > 300 and kinds["stalemate"] > 50  # every path was exercised


@pytest.mark.slow
@pytest.mark.no_cover
@settings(max_examples=120, deadline=None)
@given(players=st.sampled_from(PLAYER_COUNTS), seed=st.integers(0, 2**32))
def test_property_every_hand_is_consistent_and_leak_free(players: int, seed: int) -> None:
    play_hand(players, random.Random(seed), exhaustive=True)
