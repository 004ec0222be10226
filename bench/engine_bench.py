"""Engine speed: random legal 5-player classic hands on one core.

Three loops over the same seeded hands:

* fast: the integer interface bots use (``legal_actions`` / ``apply_action``) from the deal
  to the scoring, with a uniformly random legal action at every step;
* api:  the typed public API (``engine.legal_prompt`` -> a random typed action ->
  ``engine.apply``, which checks and clones), then ``engine.result``;
* api+json: what a server does with a client's action: the action's JSON form (a dict, as
  the client sends it) -> ``engine.action_from_json`` -> ``engine.apply``, then the result.

A uniformly random auction nearly always ends in an Eklat (a cheap hand with no card play),
so both loops bid like a random but plausible player: at the start of its turn it passes
with probability 0.7, otherwise it shows random cards (the fast loop ends the turn after each
card with probability 0.6; the api loops show a random number of cards up to their limit).
Every other decision is uniformly random.  The headline rates count only the hands played to
the last trick, divided by the time of *all* hands (Eklat and all-pass hands included).

Rates are per second of this process's CPU time on one core (pin it: ``taskset -c 0``), from
the fastest of seven rounds of the same seeded hands.

The ``view`` line is the mean cost of one ``engine.view`` (a seat's typed view) over
mid-hand states, the ``view json`` line that of ``engine.to_json`` of such a view.

Usage: ``python bench/engine_bench.py [hands-per-round]`` (default 3000; the api loops play a
third as many).  The last three lines read ``fast: N hands/s``, ``api: N hands/s`` and
``api+json: N hands/s``.
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import engine  # noqa: E402
from engine._guard import describe  # noqa: E402
from engine.state import AUCTION, END_TURN, HandState  # noqa: E402

PLAYERS = 5
ROUNDS = 7


PASS_CHANCE, STOP_CHANCE = 0.7, 0.6


def fast_action(state: HandState, rng: random.Random) -> int:
    actions = state.legal_actions()
    if state.phase_id == AUCTION:
        if state.turn_cards:
            done = len(actions) == 1 or rng.random() < STOP_CHANCE
        else:
            done = len(actions) == 1 or rng.random() < PASS_CHANCE
        return END_TURN if done else rng.choice(actions[:-1])
    return rng.choice(actions)


def fast_hand(rng: random.Random, dealer: int) -> tuple[int, bool]:
    state = engine.deal(PLAYERS, dealer, rng)
    actions = 0
    while not state.is_over:
        state.apply_action(fast_action(state, rng))
        actions += 1
    engine.result(state)
    return actions, state.outcome == "played"


def random_typed_action(state: HandState, rng: random.Random) -> engine.Action:
    """A random action from the typed prompt (the same draws as the JSON version below).
    Prompts are a tagged union: ``prompt.type`` tells them apart, as in JSON."""
    prompt = engine.legal_prompt(state)
    assert prompt is not None and state.to_move is not None
    if prompt.type == "bid":
        if prompt.max_cards == 0 or rng.random() < PASS_CHANCE:
            return engine.Pass()
        k = rng.randint(1, prompt.max_cards)
        return engine.Bid(tuple(rng.sample(state.hands[state.to_move], k)))
    if prompt.type == "trump":
        return engine.Trump(rng.choice(prompt.options))
    if prompt.type == "partner":
        return engine.Partner(rng.choice(prompt.options))
    assert prompt.type == "play"
    return engine.Play(rng.choice(prompt.cards))


def random_json_action(state: HandState, rng: random.Random) -> dict[str, Any]:
    """A random action as a client sends it: a dict built from the prompt (plain strings)."""
    prompt = engine.legal_prompt(state)
    assert prompt is not None and state.to_move is not None
    if prompt.type == "bid":
        if prompt.max_cards == 0 or rng.random() < PASS_CHANCE:
            return {"type": "pass"}
        k = rng.randint(1, prompt.max_cards)
        return {"type": "bid", "cards": rng.sample(state.hands[state.to_move], k)}
    if prompt.type == "trump":
        return {"type": "trump", "trump": rng.choice(prompt.options).value}
    if prompt.type == "partner":
        return {"type": "partner", "seat": rng.choice(prompt.options)}
    assert prompt.type == "play"
    return {"type": "play", "card": rng.choice(prompt.cards)}


def api_hand(rng: random.Random, dealer: int) -> tuple[int, bool]:
    state = engine.deal(PLAYERS, dealer, rng)
    actions = 0
    while not state.is_over:
        state = engine.apply(state, state.to_move, random_typed_action(state, rng))
        actions += 1
    engine.result(state)
    return actions, state.outcome == "played"


def api_json_hand(rng: random.Random, dealer: int) -> tuple[int, bool]:
    state = engine.deal(PLAYERS, dealer, rng)
    actions = 0
    while not state.is_over:
        action = engine.action_from_json(random_json_action(state, rng))
        state = engine.apply(state, state.to_move, action)
        actions += 1
    engine.result(state)
    return actions, state.outcome == "played"


def timed_round(
    play: Callable[[random.Random, int], tuple[int, bool]], hands: int
) -> tuple[float, int, int]:
    """CPU seconds, actions and played hands for one fixed, seeded batch of hands."""
    rng = random.Random(2026)
    actions = played = 0
    start = time.process_time()
    for i in range(hands):
        n, was_played = play(rng, i % PLAYERS)
        actions, played = actions + n, played + was_played
    return time.process_time() - start, actions, played


def run(name: str, play: Callable[[random.Random, int], tuple[int, bool]], hands: int) -> float:
    # The same seeded batch ROUNDS times; the fastest round counts, as timeit does: noise from
    # a shared machine only ever adds time.  CPU time, so other processes' load is not counted.
    rounds = [timed_round(play, hands) for _ in range(ROUNDS)]
    best, actions, played = min(rounds)
    print(
        f"{name}: {hands} hands per round, best of {ROUNDS}: {best:.2f}s CPU "
        f"({hands / best:,.0f} hands/s of any kind), {played / hands:.0%} played to the last "
        f"trick, {best / actions * 1e6:.2f} µs per action"
    )
    return played / best


def view_states(samples: int = 3000) -> list[HandState]:
    """Mid-hand states sampled along random API hands."""
    rng, states = random.Random(7), list[HandState]()
    while len(states) < samples:
        state = engine.deal(PLAYERS, 0, rng)
        while not state.is_over:
            states.append(state)
            state = engine.apply(state, state.to_move, random_typed_action(state, rng))
    return states[:samples]


def view_cost(states: list[HandState]) -> float:
    """Mean µs per ``engine.view`` (the seat's typed view)."""
    start = time.process_time()
    for i, state in enumerate(states):
        engine.view(state, i % PLAYERS)
    return (time.process_time() - start) / len(states) * 1e6


def view_json_cost(states: list[HandState]) -> float:
    """Mean µs per ``engine.to_json`` of a seat's view (its JSON form as plain dicts), the
    fastest of three rounds."""
    views = [engine.view(state, i % PLAYERS) for i, state in enumerate(states)]
    best = float("inf")
    for _round in range(3):
        start = time.process_time()
        for view in views:
            engine.to_json(view)
        best = min(best, time.process_time() - start)
    return best / len(views) * 1e6


def main() -> None:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    print(describe())
    print(f"engine bench: {PLAYERS} players, classic, one core, CPU time")
    states = view_states()
    print(f"view: {view_cost(states):.1f} µs per view (mid-hand states, own seat)")
    print(f"view json: {view_json_cost(states):.1f} µs per engine.to_json of such a view")
    fast = run("fast (int actions)", fast_hand, hands)
    api = run("api (typed actions)", api_hand, max(hands // 3, 1))
    api_json = run("api+json (action_from_json)", api_json_hand, max(hands // 3, 1))
    print(f"fast: {fast:,.0f} hands/s")
    print(f"api: {api:,.0f} hands/s")
    print(f"api+json: {api_json:,.0f} hands/s")


if __name__ == "__main__":
    main()
