"""What a view costs the server to encode: orjson on the engine's records alone, against
``app/protocol/recordjson.py`` (the deck's cards and the engine's shared records encoded once).

Plays ``--tables`` seeded random 5-player hands (uniformly random legal moves, as
``bench/ws_bench.py`` plays them), then walks them the way a server with that many live tables
does: every table one move further each round, a view for each of its five seats. It prints the
CPU time per view for the JSON alone and with ``engine.view``, both ways, and checks that both
give the same bytes. Then the way the servers render a state's five frames since views are split
(``app/protocol/present.py``): two processes hold the table's seats (three and two), and each
encodes everyone's part (the spectator's view without ``engine.SEAT_FIELDS``) once and then
each of its seats' own part (``engine.seat_part``), against each view built and encoded whole.

    taskset -c 0 .venv/bin/python bench/view_json_bench.py
    taskset -c 0 .venv/bin/python bench/view_json_bench.py --tables 500 --rounds 60 --repeat 3
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from app.protocol import recordjson  # noqa: E402
from engine.state import HandState  # noqa: E402

SEATS = 5


def hands(tables: int, seed: int) -> list[list[HandState]]:
    """Every state of one random hand per table."""
    rng = random.Random(seed)
    played = []
    for _ in range(tables):
        state = engine.deal(SEATS, rng.randrange(SEATS), rng, "classic")
        states = [state]
        while not state.is_over:
            state = state.clone()
            state.apply_action(rng.choice(state.legal_actions()))
            states.append(state)
        played.append(states)
    return played


def per_view(
    played: list[list[HandState]], rounds: int, encode: Callable[[object], bytes], views: bool
) -> float:
    """CPU µs per view: ``encode`` alone on views made beforehand, or with ``engine.view``."""
    steps = [[states[min(r, len(states) - 1)] for states in played] for r in range(rounds)]
    made = (
        None
        if views
        else [
            [engine.view(state, seat) for state in step for seat in range(SEATS)] for step in steps
        ]
    )
    count = 0
    started = time.process_time()
    if made is None:
        for step in steps:
            for state in step:
                for seat in range(SEATS):
                    encode(engine.view(state, seat))
                    count += 1
    else:
        for batch in made:
            for view in batch:
                encode(view)
                count += 1
    return (time.process_time() - started) / count * 1e6


# Which seats of a state's five each server process renders (bench/ws_bench.py --processes 2).
GROUPS = ((0, 2, 4), (1, 3))


def whole_frames(state: HandState) -> list[bytes]:
    return [recordjson.dumps(engine.view(state, seat)) for group in GROUPS for seat in group]


def split_frames(state: HandState) -> list[bytes]:
    frames = []
    for group in GROUPS:  # each process: everyone's part once, then each seat's own
        view = engine.view(state, None)
        shared = recordjson.dumps({name: getattr(view, name) for name in PUBLIC})
        for seat in group:
            frames.append(recordjson.dumps(engine.seat_part(state, seat))[:-1] + b"," + shared[1:])
    return frames


PUBLIC = [f.name for f in dataclasses.fields(engine.HandView) if f.name not in engine.SEAT_FIELDS]


def per_frame(
    played: list[list[HandState]], rounds: int, render: Callable[[HandState], list[bytes]]
) -> float:
    """CPU µs per frame (view and JSON) when ``render`` makes each state's five frames."""
    steps = [[states[min(r, len(states) - 1)] for states in played] for r in range(rounds)]
    count = 0
    started = time.process_time()
    for step in steps:
        for state in step:
            count += len(render(state))
    return (time.process_time() - started) / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=40, help="moves per table walked")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    played = hands(args.tables, args.seed)
    for states in played[:20]:
        for state in states:
            view = engine.view(state, 0)
            assert recordjson.dumps(view) == orjson.dumps(view)
            whole, split = whole_frames(state), split_frames(state)
            assert list(map(orjson.loads, whole)) == list(map(orjson.loads, split))
    print(f"engine {'compiled' if engine.COMPILED else 'interpreted'}, {args.tables} tables")
    for _ in range(args.repeat):
        timings = [
            per_view(played, args.rounds, encode, views)
            for views in (False, True)
            for encode in (orjson.dumps, recordjson.dumps)
        ]
        print(
            "µs per view: JSON orjson {:.1f}, recordjson {:.1f}; "
            "with engine.view: orjson {:.1f}, recordjson {:.1f}".format(*timings)
        )
        whole, split = (per_frame(played, args.rounds, r) for r in (whole_frames, split_frames))
        print(f"µs per frame, views and JSON: whole {whole:.1f}, split {split:.1f}")


if __name__ == "__main__":
    main()
