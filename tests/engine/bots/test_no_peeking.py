"""Bots see only their seat's view: their decisions cannot depend on other seats' cards."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import json
import random
from typing import Any

import pytest

import engine
from engine.bots import make_bot
from engine.bots.sampling import WorldSampler

from .play import mid_hand_states, twin

BOTS = {
    "random": lambda: make_bot("random"),
    "heuristic": lambda: make_bot("heuristic"),
    "search": lambda: make_bot("search", time_limit=None, max_worlds=3),
    "expert": lambda: make_bot("expert", time_limit=None, max_worlds=3),
}
SEARCHERS = ("search", "expert")


@pytest.mark.parametrize("variant", ("classic", "revised"))
@pytest.mark.parametrize("level", list(BOTS))
@pytest.mark.parametrize("players", (3, 4, 5, 6))
def test_reshuffling_hidden_cards_does_not_change_the_decision(
    level: str, players: int, variant: str
) -> None:
    rng = random.Random(players)
    compared = reshuffled = 0
    states = mid_hand_states(players, seed=300 + players, count=3, variant=variant)
    for i, state in enumerate(states):
        if i % (5 if level in SEARCHERS else 2) and state.phase != "discard":
            continue
        seat, view, other = twin(state, rng)
        reshuffled += hidden_cards(other, seat) != hidden_cards(state, seat)
        other_view = engine.view(other, seat)
        assert other_view == view
        seed = rng.getrandbits(32)
        first = BOTS[level]().act(view, random.Random(seed))
        second = BOTS[level]().act(other_view, random.Random(seed))
        assert first == second
        compared += 1
    assert compared >= 8 and reshuffled >= compared // 2


def hidden_cards(state: engine.HandState, seat: int) -> list[list[int]]:
    """What ``seat`` does not see: the others' hands, the kitty and the discards."""
    hidden = [sorted(h) for s, h in enumerate(state.hands) if s != seat]
    if seat != state.chief or state.phase == "auction":
        hidden += [sorted(state.kitty), sorted(state.discarded)]
    return hidden


@pytest.mark.slow
def test_kitty_and_discards_do_not_change_any_decision() -> None:
    """Revised, 3 players, every seat at every decision: a world with another kitty (before
    the Crown takes it) or other discards (for everyone but the Crown) gives the same
    decision for every bot."""
    rng = random.Random(5)
    compared = 0
    for state in mid_hand_states(3, seed=41, count=6, variant="revised"):
        seat = state.to_move
        assert seat is not None
        if seat == state.chief and state.phase != "auction":
            continue  # the Crown knows the kitty and its discards
        view = engine.view(state, seat)
        other = WorldSampler(view).sample(rng)
        assert engine.view(other, seat) == view
        seed = rng.getrandbits(32)
        for level in ("heuristic", *SEARCHERS):
            if level in SEARCHERS and compared % 4:
                continue
            first = BOTS[level]().act(view, random.Random(seed))
            assert BOTS[level]().act(engine.view(other, seat), random.Random(seed)) == first
        compared += 1
    assert compared > 50


class SpyBot:
    """Records what a bot is handed."""

    def __init__(self, level: str) -> None:
        self.inner = BOTS[level]()
        self.name = self.inner.name
        self.seen: list[Any] = []

    def act(self, view: engine.HandView, rng: random.Random) -> engine.Action:
        before = copy.deepcopy(view)
        self.seen.append(view)
        action = self.inner.act(view, rng)
        assert view == before, "a bot must not change the view it is given"
        return action


@pytest.mark.parametrize("level", list(BOTS))
def test_a_bot_only_ever_receives_its_view(level: str) -> None:
    players = 4
    state = engine.deal(players, 1, random.Random(8))
    spies = [SpyBot(level) for _ in range(players)]
    rng = random.Random(2)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        view = engine.view(state, seat)
        action = spies[seat].act(view, random.Random(rng.getrandbits(32)))
        state = engine.apply(state, seat, action)
    for seat, spy in enumerate(spies):
        for view in spy.seen:
            # Plain data (no state object inside: to_json refuses anything else), this
            # seat's, and it is to move.
            data = engine.to_json(view)
            assert json.loads(json.dumps(data)) == data
            assert isinstance(view, engine.HandView)
            assert view.seat == seat and view.prompt is not None
    # The interface itself takes nothing but the view and a random source.
    params = list(inspect.signature(spies[0].inner.act).parameters)
    assert params == ["view", "rng"]


def test_prompts_the_state_does_not_explain_fall_back_to_a_random_action() -> None:
    """A prompt a bot's reading of the state does not expect (here a discard of 3 cards in a
    classic auction; prompts are a closed set of types, so an unknown type cannot occur) is
    answered with a random action built from the prompt alone."""
    state = engine.deal(4, 0, random.Random(4))
    view = engine.view(state, 0)
    hand = tuple(c.id for c in view.hand)
    view = dataclasses.replace(view, prompt=engine.DiscardPrompt(3, hand))
    for level in BOTS:
        action = BOTS[level]().act(view, random.Random(1))
        assert isinstance(action, engine.Discard)
        assert len(action.cards) == 3 and set(action.cards) <= set(hand)


def test_the_crown_discards_three_cards_of_its_hand() -> None:
    """Revised, 3 players: every bot answers the discard prompt with 3 hand cards; the
    heuristic keeps its intended trumps."""
    found = 0
    for seed in range(40):
        state = engine.deal(3, seed % 3, random.Random(seed), variant="revised")
        bots = [make_bot("heuristic") for _ in range(3)]
        rng = random.Random(seed)
        while state.phase == "auction":
            seat = state.to_move
            assert seat is not None
            action = bots[seat].act(engine.view(state, seat), rng)
            state = engine.apply(state, seat, action)
        if state.phase != "discard":
            continue
        view = engine.view(state, state.chief)
        prompt = view.prompt
        assert isinstance(prompt, engine.DiscardPrompt)
        for level in BOTS:
            action = BOTS[level]().act(view, random.Random(seed))
            assert isinstance(action, engine.Discard) and len(set(action.cards)) == 3
            assert set(action.cards) <= set(prompt.cards)
            engine.apply(state, state.chief, action)  # legal
        found += 1
    assert found > 30


class _Clock:
    """A clock that moves ``step`` seconds at every reading, and ``jump`` more at reading
    number ``jump_at`` (a machine that stalls): time as an input, never measured."""

    def __init__(self, step: float, jump_at: int | None = None, jump: float = 0.0) -> None:
        self.now = 0.0
        self.step = step
        self.jump_at = jump_at
        self.jump = jump
        self.readings: list[float] = []

    def __call__(self) -> float:
        self.now += self.step
        if len(self.readings) == self.jump_at:
            self.now += self.jump
        self.readings.append(self.now)
        return self.now


def _search_decisions(clock: _Clock, limit: float) -> list[tuple[int, int, int]]:
    """Seat 0 searches under ``clock`` through a 5-player hand: per decision, the index of
    its first and last clock reading and the worlds it used."""
    from engine.bots.search import SearchBot

    state = engine.deal(5, 0, random.Random(11))
    bots = [make_bot("heuristic") for _ in range(5)]
    search = SearchBot(time_limit=limit, clock=clock)
    rng = random.Random(3)
    decisions = []
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        view = engine.view(state, seat)
        first = len(clock.readings)
        action = (search if seat == 0 else bots[seat]).act(view, random.Random(rng.getrandbits(32)))
        if seat == 0:
            decisions.append((first, len(clock.readings) - 1, search.last_worlds))
        state = engine.apply(state, seat, action)
    return decisions


def test_the_search_bot_keeps_its_time_budget() -> None:
    # One millisecond per reading: a decision ends by the reading that passes its deadline.
    clock = _Clock(step=0.001)
    decisions = _search_decisions(clock, limit=0.05)
    for first, last, _ in decisions:
        assert (
            clock.readings[last] - clock.readings[first] <= 0.05 + 0.001 + 1e-9
        )  # one step past the deadline
    # The budget, not the world cap, ended the searches, after more than one world.
    searched = [worlds for _, _, worlds in decisions if worlds]
    assert searched and max(searched) < 200 and max(searched) > 1


@pytest.mark.parametrize("jump_at", (3, 5, 8, 13))
def test_a_stalled_clock_ends_the_search_at_once(jump_at: int) -> None:
    # The machine stalls (the clock jumps 200 ms) inside a decision: the bot reads the clock
    # no more after the reading that shows its deadline passed, so it starts no rollout.
    clock = _Clock(step=0.001, jump_at=jump_at, jump=0.2)
    decisions = _search_decisions(clock, limit=0.05)
    stalled = [d for d in decisions if d[0] <= jump_at <= d[1]]
    assert len(stalled) == 1
    assert stalled[0][1] == jump_at
