"""Every sampled world reproduces the seat's view exactly and respects the shown voids."""

from __future__ import annotations

import random

import pytest

import engine
from engine.bots.sampling import SamplingError, WorldSampler, sample_world
from engine.state import HandState

from .play import mid_hand_states, true_voids

PLAYER_COUNTS = (3, 4, 5, 6)


def replayed(sampler: WorldSampler, world: HandState) -> HandState:
    """The world rebuilt from its own deal record by replaying the public history."""
    state = engine.deal_from([list(h) for h in world.deal], world.dealer, sampler.variant)
    for action in sampler.actions:
        assert action in state.legal_actions()
        state.apply_action(action)
    return state


def check_world(state: HandState, seat: int, world: HandState, sampler: WorldSampler) -> None:
    view = engine.view(state, seat)
    assert engine.view(world, seat) == view
    voids = true_voids(state)
    for s in range(state.players):
        assert len(world.hands[s]) == len(state.hands[s])
        assert world.displays[s] == state.displays[s]
        assert world.hands[s] == sorted(world.hands[s])
        if s != seat:
            for card in world.hands[s]:
                assert not voids[s] >> card & 1, f"seat {s} shown void, holds {card}"
    assert world.hands[seat] == state.hands[seat]
    # The world is a real one: its deal replays into exactly its hands.
    again = replayed(sampler, world)
    assert again.hands == world.hands and again.displays == world.displays
    assert engine.view(again, seat) == view


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_sampled_worlds_reproduce_the_view_and_respect_voids(players: int) -> None:
    rng = random.Random(90 + players)
    checked = differs = voided = 0
    for i, state in enumerate(mid_hand_states(players, seed=players, count=14)):
        if i % 3:
            continue
        seat = rng.randrange(players)
        sampler = WorldSampler(engine.view(state, seat))
        voided += any(sampler.void_mask)
        for _ in range(4):
            world = sampler.sample(rng)
            check_world(state, seat, world, sampler)
            differs += world.hands != state.hands
            checked += 1
    assert checked > 50
    assert differs > checked // 2  # the hidden cards really are resampled
    assert voided > 5  # and voids were exercised


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_the_exact_fallback_respects_voids_too(players: int) -> None:
    rng = random.Random(7 + players)
    tested = 0
    for state in mid_hand_states(players, seed=50 + players, count=10):
        if not state.tricks:
            continue
        seat = state.players - 1
        sampler = WorldSampler(engine.view(state, seat))
        if not any(sampler.void_mask):
            continue
        hidden = sampler._by_flow(rng)
        for s in sampler.others:
            assert len(hidden[s]) == len(state.hands[s])
            assert not any(sampler.void_mask[s] >> c & 1 for c in hidden[s])
        assert sorted(c for s in sampler.others for c in hidden[s]) == sorted(sampler.unseen)
        tested += 1
    assert tested > 10


def test_sample_world_at_the_start_and_for_every_seat() -> None:
    state = engine.deal(5, 2, random.Random(3))
    for seat in range(5):
        world = sample_world(engine.view(state, seat), random.Random(seat))
        assert engine.view(world, seat) == engine.view(state, seat)


def test_a_spectator_view_cannot_be_sampled() -> None:
    state = engine.deal(4, 0, random.Random(1))
    with pytest.raises(SamplingError):
        WorldSampler(engine.view(state, None))
