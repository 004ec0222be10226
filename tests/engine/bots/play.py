"""Helpers: play hands with bots through the public API, and reach mid-hand states."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import engine
from engine.bots import Bot, make_bot
from engine.bots.base import fits_prompt
from engine.bots.sampling import WorldSampler
from engine.state import HandState


def play_hand(
    bots: Sequence[Bot],
    players: int,
    seed: int,
    *,
    dealer: int | None = None,
    variant: str = "classic",
) -> HandState:
    """One hand, each seat asking its bot with only its view; every action must be legal
    (``engine.apply`` raises otherwise) and must be one the prompt offers."""
    rng = random.Random(seed)
    state = engine.deal(players, seed % players if dealer is None else dealer, rng, variant)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        view = engine.view(state, seat)
        action = bots[seat].act(view, random.Random(rng.getrandbits(32)))
        assert fits_prompt(action, view), (bots[seat].name, action, view.prompt)
        state = engine.apply(state, seat, action)
    return state


def mid_hand_states(
    players: int, seed: int, count: int, variant: str = "classic"
) -> Iterator[HandState]:
    """States at every decision of a hand between heuristic and random bots, ``count`` hands."""
    rng = random.Random(seed)
    for _ in range(count):
        bots = [make_bot(rng.choice(["heuristic", "heuristic", "random"])) for _ in range(players)]
        state = engine.deal(players, rng.randrange(players), rng, variant)
        while not state.is_over:
            yield state
            seat = state.to_move
            assert seat is not None
            action = bots[seat].act(engine.view(state, seat), random.Random(rng.getrandbits(32)))
            state = engine.apply(state, seat, action)


def play_views(seed: int, count: int, choices: int) -> Iterator[engine.HandView]:
    """The views of the seat to move at card-play decisions with at least ``choices`` legal
    cards, from ``count`` hands at 4 and at 5 players (:func:`mid_hand_states`, seeded
    ``seed + players``)."""
    for players in (4, 5):
        for state in mid_hand_states(players, seed=seed + players, count=count):
            seat = state.to_move
            assert seat is not None
            view = engine.view(state, seat)
            prompt = view.prompt
            if isinstance(prompt, engine.PlayPrompt) and len(prompt.cards) >= choices:
                yield view


def twin(state: HandState, rng: random.Random) -> tuple[int, engine.HandView, HandState]:
    """The seat to move, its view, and another true state that agrees with that view: the
    other seats' hidden cards (revised, 3 players: also the kitty and the Crown's discards)
    reshuffled consistently with it (same displays, counts, voids, history)."""
    seat = state.to_move
    assert seat is not None
    view = engine.view(state, seat)
    return seat, view, WorldSampler(view).sample(rng)


def true_voids(state: HandState) -> list[int]:
    """Per seat, the mask of cards it cannot hold by the voids its plays have shown."""
    voids = [0] * state.players
    tricks = [t[1] for t in state.tricks] + ([tuple(state.trick)] if state.trick else [])
    if not tricks:
        return voids
    table = state.trumps()
    for plays in tricks:
        led = table.suit[plays[0][1]]
        for seat, card in plays[1:]:
            if table.suit[card] != led:
                voids[seat] |= table.suit_mask[led]
    return voids


def other_hidden(state: HandState, seat: int) -> list[list[int]]:
    return [sorted(h) if s != seat else [] for s, h in enumerate(state.hands)]


def any_action(view: engine.HandView) -> bool:
    return view.prompt is not None
