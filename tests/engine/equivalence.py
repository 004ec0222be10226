"""One digest of everything the engine decides on seeded hands, to compare builds (issue 26.3).

Run as a script with the engine to judge on ``PYTHONPATH``; prints one JSON line: whether that
engine is compiled, how many hands it played and the SHA-256 of their transcript.  The
transcript holds every action and result of a few thousand random hands through the fast
interface (3-6 players, both variants), every view and prompt along typed-API hands, the
codes of refused actions, the heuristic and search bots' choices and one hand's review, so two
builds that differ in any rule, view or bot decision give different digests
(tests/engine/test_compiled.py).

    PYTHONPATH=. python tests/engine/equivalence.py [fast-hands]
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

import engine
from engine.bots import make_bot, random_action
from engine.bots.search import SearchBot
from engine.review import review_hand
from engine.state import AUCTION, END_TURN

VARIANTS = ("classic", "revised")


def fast_hands(count: int, out: list[Any]) -> None:
    """Random hands through legal_actions / apply_action, bidding like a plausible player."""
    rng = random.Random(26)
    for i in range(count):
        players, variant = 3 + i % 4, VARIANTS[i // 4 % 2]
        state = engine.deal(players, i % players, rng, variant)
        actions: list[int] = []
        while not state.is_over:
            legal = state.legal_actions()
            if state.phase_id == AUCTION and len(legal) > 1:
                stop = rng.random() < (0.6 if state.turn_cards else 0.7)
                action = END_TURN if stop else rng.choice(legal[:-1])
            else:
                action = rng.choice(legal)
            actions.append(action)
            state.apply_action(action)
        out.append([players, variant, actions, engine.to_json(engine.result(state))])


def typed_hands(count: int, out: list[Any]) -> None:
    """The typed API: every view (each seat's) and action along random hands, and refusals."""
    rng = random.Random(27)
    for i in range(count):
        players, variant = 3 + i % 4, VARIANTS[i % 2]
        state = engine.deal(players, i % players, rng, variant)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            view = engine.view(state, seat)
            out.append(engine.to_json(view))
            out.append(engine.to_json(engine.view(state, (seat + 1) % players)))
            for wrong in (engine.Pass(), engine.Play(rng.randrange(60)), engine.Bid((99,))):
                try:
                    engine.check(state, seat, wrong)
                    out.append("ok")
                except engine.IllegalAction as refused:
                    out.append(refused.code)
            action = random_action(view, rng)
            out.append(engine.to_json(action))
            state = engine.apply(state, seat, action)
        out.append(engine.to_json(engine.view(state, None)))
        out.append(engine.to_json(engine.result(state)))


def bot_hands(count: int, out: list[Any]) -> None:
    """The heuristic bot everywhere, the search bot (fixed world budget) in seat 0."""
    heuristic, search = make_bot("heuristic"), SearchBot(time_limit=None, max_worlds=3)
    for i in range(count):
        rng = random.Random(28 + i)
        players, variant = 3 + i % 4, VARIANTS[i % 2]
        state = engine.deal(players, i % players, rng, variant)
        with_search = i < 4
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            bot = search if with_search and seat == 0 else heuristic
            action = bot.act(engine.view(state, seat), rng)
            out.append(engine.to_json(action))
            state = engine.apply(state, seat, action)
        out.append(engine.to_json(engine.result(state)))


def reviewed_hand(out: list[Any]) -> None:
    rng = random.Random(29)
    dealt = engine.deal(3, 0, rng)
    bot, state, moves = make_bot("heuristic"), dealt, []
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        action = bot.act(engine.view(state, seat), rng)
        moves.append((seat, action))
        state = engine.apply(state, seat, action)
    out.append(engine.to_json(review_hand(dealt, moves, seed=5, seats=[0])))


def transcript(fast: int) -> list[Any]:
    out: list[Any] = []
    fast_hands(fast, out)
    typed_hands(max(fast // 20, 1), out)
    bot_hands(12, out)
    reviewed_hand(out)
    return out


def main() -> None:
    fast = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    text = json.dumps(transcript(fast), sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(text.encode()).hexdigest()
    print(json.dumps({"compiled": engine.COMPILED, "hands": fast, "digest": digest}))


if __name__ == "__main__":
    main()
