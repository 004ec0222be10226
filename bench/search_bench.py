"""Search bot cost per decision and per world, independent of the clock and the machine's load.

The arena (bench/bot_arena.py) times the search bot under its wall-clock budget, so on a
loaded machine it simply does fewer worlds.  This bench fixes the work instead: seeded 4- and
5-player classic hands, the search bot in seat 0 with ``time_limit=None`` and a fixed world
budget (deterministic: the same decisions in every tree), the heuristic bot elsewhere.  It
prints the CPU time per decision (p50, p95) and per world, and how many worlds fit in the
default budget at that rate.  Pin it (``taskset -c 0``) and compare trees in the same run.

Usage: ``python bench/search_bench.py [hands-per-table] [worlds] [level]`` (defaults 6, 24
and ``search``; ``expert`` times the search over weighted worlds the same way).
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import engine  # noqa: E402
from engine._guard import describe  # noqa: E402
from engine.bots import make_bot  # noqa: E402
from engine.bots.search import DEFAULT_TIME_LIMIT, SearchBot  # noqa: E402


def main() -> None:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    worlds = int(sys.argv[2]) if len(sys.argv) > 2 else 24
    level = sys.argv[3] if len(sys.argv) > 3 else "search"
    search = SearchBot(time_limit=None, max_worlds=worlds, weighted=level == "expert")
    heuristic = make_bot("heuristic")
    cpu: list[float] = []
    used = 0
    for players in (4, 5):
        rng = random.Random(2026 + players)
        for hand in range(hands):
            state = engine.deal(players, hand % players, rng)
            while not state.is_over:
                seat = state.to_move
                assert seat is not None
                view = engine.view(state, seat)
                if seat == 0:
                    start = time.process_time()
                    action = search.act(view, rng)
                    if search.last_worlds:  # a real choice (one legal card is instant)
                        cpu.append(time.process_time() - start)
                        used += search.last_worlds
                else:
                    action = heuristic.act(view, rng)
                state = engine.apply(state, seat, action)
    per_world = sum(cpu) / used
    p95 = statistics.quantiles(cpu, n=20)[-1]
    print(describe())
    print(f"{search.name} bench: 4 and 5 players, {hands} hands each, {worlds} worlds per decision")
    print(
        f"decisions: {len(cpu)}, cpu p50 {1000 * statistics.median(cpu):.1f} ms, "
        f"p95 {1000 * p95:.1f} ms"
    )
    print(
        f"per world: {1000 * per_world:.2f} ms cpu; worlds in {DEFAULT_TIME_LIMIT} s: "
        f"{DEFAULT_TIME_LIMIT / per_world:.0f}"
    )


if __name__ == "__main__":
    main()
