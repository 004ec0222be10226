"""Seconds of CPU per reviewed hand (engine.review): every decision of every seat.

Plays hands with the heuristic bot (3-6 players, classic and revised), then reviews each
whole hand and prints the CPU seconds per hand (the issue's target: <= 10 s for 5 players).

    .venv/bin/python bench/review_bench.py [--hands N] [--players 5] [--variant classic]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import engine
from engine._guard import describe
from engine.bots import make_bot
from engine.review import review_hand


def played_hand(players: int, variant: str, seed: int) -> tuple[engine.HandState, list]:
    """A hand dealt from ``seed`` and played to its end by heuristic bots."""
    rng = random.Random(seed)
    dealt = engine.deal(players, seed % players, rng, variant)
    bot = make_bot("heuristic")
    state, moves = dealt, []
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        action = bot.act(engine.view(state, seat), rng)
        moves.append((seat, action))
        state = engine.apply(state, seat, action)
    return dealt, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--players", type=int, nargs="*", default=[3, 4, 5, 6])
    parser.add_argument("--variant", nargs="*", default=["classic", "revised"])
    args = parser.parse_args()
    print(describe())
    print("players variant   decisions  cpu s/hand (mean, max)")
    for variant in args.variant:
        for players in args.players:
            times, decisions = [], []
            for i in range(args.hands):
                dealt, moves = played_hand(players, variant, 1000 + i)
                start = time.process_time()
                review = review_hand(dealt, moves, seed=i)
                times.append(time.process_time() - start)
                decisions.append(len(review.decisions))
            print(
                f"{players:7d} {variant:9s} {statistics.mean(decisions):9.0f}"
                f"  {statistics.mean(times):6.2f}  {max(times):6.2f}"
            )


if __name__ == "__main__":
    main()
