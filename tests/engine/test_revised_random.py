"""Seeded random play of the revised edition for 3 to 6 players: conservation (kitty and
discards included), card points 48 with three players and 60 otherwise, exact prompts, the
fast interface, no leak of hidden cards (hands, kitty, discards) to any seat or spectator,
and results consistent with R12.  Plus a hypothesis property test over seeds."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine

from .randomplay import play_hand

PLAYER_COUNTS = (3, 4, 5, 6)


@pytest.mark.slow
@pytest.mark.no_cover
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_random_revised_hands_keep_every_invariant(players: int) -> None:
    rng = random.Random(4000 + players)
    kinds: Counter[str] = Counter()
    for i in range(300):
        hand = play_hand(players, rng, exhaustive=i < 20, variant="revised")
        result = engine.result(hand)
        assert result is not None
        kinds[result.kind] += 1
        kinds[str(result.winning_team)] += 1
        if result.kind == "played":
            assert sum(result.card_points) == (48 if players == 3 else 60)
            assert len(hand.discarded) == (3 if players == 3 else 0)
    assert kinds["played"] > 150 and kinds["redeal"] > 5  # every path was exercised
    assert kinds["crown"] > 10 and kinds["shield"] > 10 and kinds["None"] > 5


@pytest.mark.slow
@pytest.mark.no_cover
@settings(max_examples=40, deadline=None)
@given(players=st.sampled_from(PLAYER_COUNTS), seed=st.integers(0, 2**32))
def test_property_revised_hands_are_consistent_and_leak_free(players: int, seed: int) -> None:
    play_hand(players, random.Random(seed), exhaustive=True, variant="revised")
