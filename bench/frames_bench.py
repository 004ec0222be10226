"""The servers' view frames on the app's own path: seeded random 5-player tables, every state
rendered the way two processes holding its seats render it.

Each table's states are made with ``app.tables.live.play`` (bids like the seeded random play
of the tests: often a pass). Each process keeps its chain of snapshots as a room does
(``Snapshot.of`` with the previous one, so what is carried over between snapshots is carried
here too) and renders ``messages.view_text`` for its seats: 0, 2, 4 on one and 1, 3 on
the other, as ``bench/ws_bench.py --processes 2`` seats them. Prints the CPU µs per frame of
each round (pin it: ``taskset -c 0``).

Seconds move with the machine's neighbours; instructions do not. To compare two trees, count
with callgrind in each (a worktree per tree) and subtract the run that renders nothing::

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python bench/frames_bench.py --tables 30 --rounds 1   # "Collected : N"
    valgrind ... bench/frames_bench.py --tables 30 --rounds 0           # set-up alone
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "engine")]

from randomplay import random_action  # noqa: E402

from app.protocol import messages  # noqa: E402
from app.protocol.present import Snapshot  # noqa: E402
from app.tables import live as tables_live  # noqa: E402
from app.tables.live import LiveTable, SeatInfo  # noqa: E402
from app.tables.options import TableOptions  # noqa: E402

SEATS = 5
PROCESSES = ((0, 2, 4), (1, 3))
CONNECTED = (True,) * SEATS


def table_states(seed: int, most: int) -> list[LiveTable]:
    """One table's states from its deal, one per action, at most ``most``."""
    rng = random.Random(seed)
    live = tables_live.new_table(
        table_id=seed, invite_code=f"b{seed}", options=TableOptions(players=SEATS)
    )
    for seat in range(SEATS):
        live = tables_live.seat(live, seat, SeatInfo(f"P{seat}", f"hash{seat}"))
    live = tables_live.deal(live, seed=seed)
    states: list[LiveTable] = []
    while len(states) < most and not live.game.over:
        hand = live.game.hand
        if hand is None or hand.to_move is None:
            break
        live = tables_live.play(live, hand.to_move, random_action(hand, rng))
        states.append(replace(live, version=len(states) + 1))
    return states


def render(tables: list[list[LiveTable]]) -> float:
    """CPU µs per frame: every state's five frames, snapshots chained per process."""
    frames = 0
    started = time.process_time()
    for states in tables:
        shown: list[Snapshot | None] = [None] * len(PROCESSES)
        for live in states:
            for process, seats in enumerate(PROCESSES):
                snapshot = Snapshot.of(live, CONNECTED, frozenset(), {}, previous=shown[process])
                for seat in seats:
                    messages.view_text(snapshot, seat)
                    frames += 1
                shown[process] = snapshot
    return (time.process_time() - started) / max(frames, 1) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=150)
    parser.add_argument("--actions", type=int, default=120, help="states per table at most")
    parser.add_argument("--rounds", type=int, default=3, help="0: set up only (callgrind)")
    args = parser.parse_args()
    tables = [table_states(seed, args.actions) for seed in range(args.tables)]
    states = sum(map(len, tables))
    for _ in range(args.rounds):
        print(f"{render(tables):.2f} µs per frame ({states} states, {SEATS} frames each)")


if __name__ == "__main__":
    main()
