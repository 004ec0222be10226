"""One heuristic decision for any phase and edition, and whole-hand rollouts with it.

:func:`decide` is the ``heuristic`` bot's decision as integer actions (a bid ends with
``END_TURN``; a revised discard is one action per card); :func:`rollout` plays a hand out
with it for every seat (the ``search`` bot's rollout policy); :func:`score` is the seat's
real Mü score of the finished hand (classic or revised: the result's ``total``).
"""

from __future__ import annotations

import random

from engine.bots import policy, revised
from engine.scoring import hand_totals
from engine.state import (
    AUCTION,
    DISCARD,
    END_TURN,
    OVER,
    PARTNER,
    PARTNER_BASE,
    PLAY,
    TRUMP_BASE,
    HandState,
)


def decide(state: HandState, seat: int, rng: random.Random) -> list[int]:
    """The heuristic decision of ``seat`` (the seat to move) as integer actions."""
    phase = state.phase_id
    if phase == PLAY:
        return [policy.choose_play(state, seat)]
    is_revised = state.rules.roles_move
    if phase == AUCTION:
        bid = revised.choose_bid if is_revised else policy.choose_bid
        return [*bid(state, seat, rng), END_TURN]
    if phase == PARTNER:
        return [PARTNER_BASE + policy.choose_partner(state, seat)]
    if phase == DISCARD:
        return revised.choose_discard(state, seat)
    trump = revised.choose_trump if is_revised else policy.choose_trump
    return [TRUMP_BASE + trump(state, seat)]


def step(state: HandState, rng: random.Random) -> None:
    """Let the seat to move take its heuristic decision (a whole bid in the auction)."""
    seat = state.to_move
    assert seat is not None
    if state.phase_id == PLAY:
        state.apply_action(policy.choose_play(state, seat))
        return
    for action in decide(state, seat, rng):
        state.apply_action(action)


def rollout(state: HandState, rng: random.Random) -> None:
    """Play the hand to its end with the heuristic for every seat (in place)."""
    choose_play, apply_action = policy.choose_play, state.apply_action
    while True:
        phase = state.phase_id
        if phase == PLAY:  # most steps of a rollout: no call to ``step`` per card
            apply_action(choose_play(state, state.to_move))  # type: ignore[arg-type]
        elif phase == OVER:
            return
        else:
            step(state, rng)


def seeded_rollout(state: HandState, seed: int) -> None:
    """``rollout(state, random.Random(seed))``, the generator seeded only once a decision
    draws from it: card play never does, and seeding a Mersenne Twister costs about as much
    as a trick of the rollout."""
    choose_play, apply_action = policy.choose_play, state.apply_action
    rng: random.Random | None = None
    while True:
        phase = state.phase_id
        if phase == PLAY:
            apply_action(choose_play(state, state.to_move))  # type: ignore[arg-type]
        elif phase == OVER:
            return
        else:
            if rng is None:
                rng = random.Random(seed)
            step(state, rng)


def score(state: HandState, seat: int) -> int:
    """The seat's Mü score for a finished hand: the result's ``total`` (card points and
    bonus or penalty, Eklat points; revised: card points and the winning team's bonuses)."""
    return hand_totals(state)[seat]
