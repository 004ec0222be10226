"""What engine_bench's fast loop costs before the engine does any rule work.

``bench/engine_bench.py`` counts played hands per second of the whole loop: the seeded deal,
then per action ``legal_actions()``, the bench's random choice and ``apply_action()``, then the
result.  Two parts of that are fixed whatever the engine does:

* the loop itself: the bench's own ``fast_action`` driving a state whose ``legal_actions``
  returns a 12-card list and whose ``apply_action`` only counts, for the mean number of
  actions of engine_bench's seeded hands (measured here by playing them: about 59);
* the shuffle of the deal: ``random.Random.shuffle`` of the 60 cards.  Stored games are
  re-dealt from their seeds (app/tables/replay.py), so the deal must keep exactly this shuffle.

The rest of the budget is what is left for the rules: legal actions, applying them, scoring.

Usage: ``taskset -c 0 python bench/loop_floor.py [target-played-hands-per-s]`` (default 10000).
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from engine_bench import fast_action, fast_hand, timed_round  # noqa: E402

from engine.state import PLAY  # noqa: E402

HANDS, ROUNDS = 20_000, 7
BENCH_HANDS = 3000  # engine_bench's default batch: its mean actions and played share


class EmptyState:
    """Looks like a hand in play to ``fast_action``; does no rule work at all."""

    __slots__ = ("applied", "actions", "phase_id", "turn_cards", "is_over", "cards")

    def __init__(self, actions: int) -> None:
        self.applied, self.actions, self.phase_id, self.turn_cards = 0, actions, PLAY, []
        self.is_over, self.cards = False, list(range(3, 51, 4))

    def legal_actions(self) -> list[int]:
        return self.cards[:]

    def apply_action(self, action: int) -> None:
        self.applied += 1
        self.is_over = self.applied == self.actions


def empty_hands(actions: int) -> Callable[[random.Random], None]:
    def empty_hand(rng: random.Random) -> None:
        state = EmptyState(actions)
        while not state.is_over:
            state.apply_action(fast_action(state, rng))  # type: ignore[arg-type]

    return empty_hand


def shuffle_only(rng: random.Random) -> None:
    rng.shuffle(list(range(60)))


def per_hand_us(work: Callable[[random.Random], None]) -> float:
    best = float("inf")
    for _ in range(ROUNDS):
        rng, start = random.Random(1), time.process_time()
        for _ in range(HANDS):
            work(rng)
        best = min(best, time.process_time() - start)
    return best / HANDS * 1e6


def main() -> None:
    target = float(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    _, total_actions, played = timed_round(fast_hand, BENCH_HANDS)
    actions, share = round(total_actions / BENCH_HANDS), played / BENCH_HANDS
    budget = share / target * 1e6
    loop, shuffle = per_hand_us(empty_hands(actions)), per_hand_us(shuffle_only)
    left = budget - loop - shuffle
    print(f"target {target:,.0f} played hands/s at {share:.0%} played: {budget:.1f} µs/hand")
    print(f"loop of {actions} actions with an empty engine: {loop:.1f} µs/hand")
    print(f"shuffle of the deal: {shuffle:.1f} µs/hand")
    print(
        f"left for the rules: {left:.1f} µs/hand "
        f"({left / actions * 1000:.0f} ns per action, scoring included)"
    )


if __name__ == "__main__":
    main()
