"""Every sampled world reproduces the seat's view exactly and respects the shown voids."""

from __future__ import annotations

import random

import pytest

import engine
from engine.bots.sampling import SamplingError, WorldSampler, sample_world
from engine.cards import POINTS_OF
from engine.state import HandState

from .play import mid_hand_states, true_voids

PLAYER_COUNTS = (3, 4, 5, 6)
VARIANTS = ("classic", "revised")


def replayed(sampler: WorldSampler, world: HandState) -> HandState:
    """The world rebuilt from its own deal record (and kitty) by replaying the public history
    (with the world's own discards, revised 3 players)."""
    kitty = list(world.kitty) or None
    state = engine.deal_from([list(h) for h in world.deal], world.dealer, sampler.variant, kitty)
    for action in sampler.history(world.discarded):
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
    check_kitty(state, seat, world)
    # The world is a real one: its deal replays into exactly its hands.
    again = replayed(sampler, world)
    assert again.hands == world.hands and again.displays == world.displays
    assert engine.view(again, seat) == view


def check_kitty(state: HandState, seat: int, world: HandState) -> None:
    """Revised, 3 players: the kitty and the discards are hidden from everyone but the
    Crown, which knows both; every card is in exactly one place; the points add up."""
    assert len(world.kitty) == len(state.kitty) and len(world.discarded) == len(state.discarded)
    if state.phase != "auction" and seat == state.chief:
        assert world.kitty == state.kitty and world.discarded == state.discarded
    places = [*world.kitty] if world.phase == "auction" else [*world.discarded]
    for s in range(world.players):
        places += world.hands[s] + world.displays[s]
    places += [c for t in world.tricks for _, c in t[1]] + [c for _, c in world.trick]
    assert sorted(places) == sorted([c for h in world.deal for c in h] + list(world.kitty))
    assert len(places) == len(set(places)) == 12 * len(world.colours)
    assert sum(world.points_won) == sum(t[3] for t in world.tricks) + sum(
        POINTS_OF[c] for c in world.discarded
    )
    if world.discarded:  # the Crown discarded from the cards it held after the auction
        shown = {c for s, cards in world.auction_log if s == world.chief for c in cards}
        assert not shown & set(world.discarded) and not shown & set(world.kitty)
        assert not set(world.kitty) & {c for h in world.deal for c in h}


@pytest.mark.slow
@pytest.mark.parametrize("weighted", (False, True), ids=("uniform", "weighted"))
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_sampled_worlds_reproduce_the_view_and_respect_voids(
    players: int, variant: str, weighted: bool
) -> None:
    rng = random.Random(90 + players)
    checked = differs = voided = 0
    for i, state in enumerate(mid_hand_states(players, seed=players, count=14, variant=variant)):
        if i % 3:
            continue
        seat = rng.randrange(players)
        sampler = WorldSampler(engine.view(state, seat), weighted=weighted)
        assert (sampler.affinity is not None) == weighted
        voided += any(sampler.void_mask)
        for _ in range(4):
            world = sampler.sample(rng)
            check_world(state, seat, world, sampler)
            differs += world.hands != state.hands
            checked += 1
    assert checked > 50
    assert differs > checked // 2  # the hidden cards really are resampled
    assert voided > 5  # and voids were exercised


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_the_exact_fallback_respects_voids_too(players: int, variant: str) -> None:
    rng = random.Random(7 + players)
    tested = 0
    for state in mid_hand_states(players, seed=50 + players, count=10, variant=variant):
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
        dealt = sorted(c for s in sampler.slots for c in hidden[s])
        assert dealt == sorted(sampler.unseen)
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


@pytest.mark.slow
def test_revised_three_players_every_phase_of_the_kitty() -> None:
    """Revised, 3 players: before the Crown takes the kitty it is 3 unseen cards for every
    seat; in the discard phase and after, the Crown knows the kitty and its discards, the
    others sample the discards (any 3 of the Crown's cards it did not show)."""
    rng = random.Random(33)
    cases: dict[str, int] = {"kitty": 0, "crown": 0, "discards": 0}
    kitty_differs = 0
    for state in mid_hand_states(3, seed=77, count=12, variant="revised"):
        for seat in range(3):
            view = engine.view(state, seat)
            sampler = WorldSampler(view)
            if sampler.pile_is_kitty:
                cases["kitty"] += 1
            elif sampler.crown == seat:
                cases["crown"] += 1
            elif sampler.crown is not None:
                cases["discards"] += 1
            worlds = [sampler.sample(rng) for _ in range(3)]
            for world in worlds:
                check_world(state, seat, world, sampler)
            if state.phase == "auction":
                kitty_differs += len({w.kitty for w in worlds}) > 1
            if state.phase == "discard" and seat == state.chief:
                assert isinstance(view.prompt, engine.DiscardPrompt)
                assert set(state.kitty) <= {c.id for c in view.hand}
    assert min(cases.values()) > 20, cases
    assert kitty_differs > cases["kitty"] // 2  # the kitty really is resampled
