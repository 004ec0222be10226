"""Fit the card-location model of the expert bot (engine/bots/inference.py) on self-play hands,
measure its guess on held-out hands, and write engine/bots/_card_model_data.py.

For every edition and player count, self-play hands are played (seeded: every rerun gives the
same tables) by heuristic tables and, where ``--search-hands`` asks for them, by tables of
search bots (a fixed budget of ``--search-worlds`` worlds, no clock), whose auction is closer
to the strong players' the expert meets.  At every decision of every hand the deciding seat's
view is read by a ``WorldSampler``; for each other seat ``s`` and each unseen card ``c`` the
pair's bucket (``inference.bucket``) counts whether ``s`` really held ``c`` and how likely a
uniform deal of the unseen cards (by free places, voids respected) made it.  A bucket's entry
is ``(held + K) / (expected + K)`` with ``K = 10`` (a bucket seen little stays near 1).

Then the guess is measured on other hands (other seeds, search bots at the arena's budget):
the mean log-likelihood per hidden card of where it really was (the per-card chance
``free places x affinity``, normalised over the seats that may hold it, against the uniform
``free places``), and the share of hidden cards one sampled world puts in the right hand,
weighted against uniform.

Rerun (about 13 minutes on 2 cores, or 4 with the self-play hands cached)::

    .venv/bin/python tools/fit_card_model.py --workers 2
    .venv/bin/python tools/fit_card_model.py --evaluate-only   # the guess of the shipped model

Cached self-play hands are kept under ``--cache`` (default ``.cache/card_model``), so a change
of the features refits without replaying the bots.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import pickle
import random
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import engine  # noqa: E402
from engine.bots import inference, make_bot  # noqa: E402
from engine.bots.sampling import SamplingError, WorldSampler  # noqa: E402
from engine.state import HandState  # noqa: E402

CONFIGS = [(v, n) for v in ("classic", "revised") for n in (3, 4, 5, 6)]
ARENA = {("classic", 4), ("classic", 5), ("revised", 4)}
K = 10.0
OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "engine", "bots")

Hand = tuple[str, int, int, str, list[tuple[int, Any]]]  # variant, players, dealer, seed, moves


def play(task: tuple[str, int, str, str, int]) -> Hand:
    """One self-play hand: ``level`` in every seat (search: a fixed world budget)."""
    variant, players, level, seed, worlds = task
    dealer = random.Random(seed).randrange(players)
    state = engine.deal(players, dealer, random.Random(seed), variant)
    budget = {"max_worlds": worlds, "time_limit": None} if level == "search" else {}
    bot = make_bot(level, **budget)
    rngs = [random.Random(f"{seed}/{s}") for s in range(players)]
    moves: list[tuple[int, Any]] = []
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        action = bot.act(engine.view(state, seat), rngs[seat])
        moves.append((seat, action))
        state = engine.apply(state, seat, action)
    return variant, players, dealer, seed, moves


def positions(hand: Hand) -> list[tuple[HandState, int]]:
    """Every decision of a hand: the state before it and the deciding seat."""
    variant, players, dealer, seed, moves = hand
    state = engine.deal(players, dealer, random.Random(seed), variant)
    out = []
    for seat, action in moves:
        out.append((state, seat))
        state = engine.apply(state, seat, action)
    return out


def holders(state: HandState) -> dict[int, int]:
    """Where every hidden card really is: a seat, or the pile (index ``players``)."""
    where = dict.fromkeys((*state.kitty, *state.discarded), state.players)
    for s, hand in enumerate(state.hands):  # a kitty taken up is in the Crown's hand
        for c in hand:
            where[c] = s
    return where


def chances(
    sampler: WorldSampler, card: int, affinity: list[list[float]] | None
) -> dict[int, float]:
    """The per-card chance of each slot holding ``card``: free places (x affinity)."""
    weights = {
        s: sampler.room[s] * (affinity[s][card] if affinity else 1.0)
        for s in sampler._eligible(card)
    }
    total = sum(weights.values())
    return {s: w / total for s, w in weights.items()}


def count(hand: Hand) -> tuple[tuple[str, int], list[float], list[float]]:
    """held and expected per bucket over every decision of a hand."""
    variant, players = hand[0], hand[1]
    held = [0.0] * inference.BUCKETS
    expected = [0.0] * inference.BUCKETS
    for state, seat in positions(hand):
        try:
            sampler = WorldSampler(engine.view(state, seat))
        except SamplingError:
            continue
        where = holders(state)
        for c in sampler.unseen:
            for s, p in chances(sampler, c, None).items():
                if s == players:
                    continue
                b = inference.bucket(sampler, s, c)
                expected[b] += p
                if where.get(c) == s:
                    held[b] += 1.0
    return (variant, players), held, expected


def evaluate(hand: Hand) -> tuple[tuple[str, int], list[float]]:
    """Per hand: [cards, log-lik uniform, log-lik weighted, right uniform, right weighted]."""
    variant, players = hand[0], hand[1]
    sums = [0.0] * 5
    rng = random.Random(hand[3])
    for state, seat in positions(hand):
        try:
            uniform = WorldSampler(engine.view(state, seat))
            weighted = WorldSampler(engine.view(state, seat), weighted=True)
        except SamplingError:
            continue
        where = holders(state)
        for c in uniform.unseen:
            true = where[c]
            sums[0] += 1
            sums[1] += math.log(chances(uniform, c, None)[true])
            sums[2] += math.log(chances(weighted, c, weighted.affinity)[true])
        for i, sampler in ((3, uniform), (4, weighted)):
            hidden = sampler.sample_hidden(rng)
            sums[i] += sum(1 for s in sampler.slots for c in hidden[s] if where[c] == s)
    return (variant, players), sums


def load_or_play(
    pool: Any, cache: str, name: str, tasks: list[tuple[str, int, str, str, int]]
) -> list[Hand]:
    path = os.path.join(cache, f"{name}.pickle")
    if os.path.exists(path):
        with open(path, "rb") as f:
            hands: list[Hand] = pickle.load(f)
        if len(hands) == len(tasks):
            return hands
    t0 = time.time()
    hands = pool.map(play, tasks, chunksize=max(1, len(tasks) // 64))
    os.makedirs(cache, exist_ok=True)
    with open(path, "wb") as f:
        pickle.dump(hands, f)
    print(f"  played {len(tasks)} hands ({name}) in {time.time() - t0:.0f} s", flush=True)
    return hands


def write(tables: dict[tuple[str, int], list[float]], hands: dict[tuple[str, int], int]) -> None:
    lines = []
    for (variant, players), values in sorted(tables.items()):
        lines.append(f"{variant} {players}")
        cells: list[str] = []
        for v in values:  # a run of buckets never seen: "*n"
            if v is not None:
                cells.append(f"{v:.3f}")
            elif cells and cells[-1][0] == "*":
                cells[-1] = f"*{int(cells[-1][1:]) + 1}"
            else:
                cells.append("*1")
        lines += [" ".join(cells[i : i + 16]) for i in range(0, len(cells), 16)]
    counts = [f"{v} {n}: {k}" for (v, n), k in sorted(hands.items())]
    text = (
        '"""The card-location model\'s tables (engine.bots.inference), written by\n'
        "``tools/fit_card_model.py``; do not edit by hand.  Self-play hands per table:\n"
        + ",\n".join(counts)
        + '.\n"""\n\nDATA = """\n'
        + "\n".join(lines)
        + '\n"""\n'
    )
    with open(os.path.join(OUT, "_card_model_data.py"), "w") as f:
        f.write(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=3000, help="heuristic hands per table")
    parser.add_argument("--search-hands", type=int, default=400, help="search hands (arena tables)")
    parser.add_argument("--search-worlds", type=int, default=4)
    parser.add_argument("--test-hands", type=int, default=150, help="held-out search hands")
    parser.add_argument("--test-worlds", type=int, default=12)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cache", default=".cache/card_model")
    parser.add_argument("--evaluate-only", action="store_true")
    args = parser.parse_args()

    with multiprocessing.Pool(args.workers) as pool:
        if not args.evaluate_only:
            tables: dict[tuple[str, int], list[float]] = {}
            used: dict[tuple[str, int], int] = {}
            for variant, players in CONFIGS:
                tasks = [
                    (variant, players, "heuristic", f"fit/{variant}/{players}/h{i}", 0)
                    for i in range(args.hands)
                ]
                hands = load_or_play(pool, args.cache, f"{variant}{players}-h{args.hands}", tasks)
                if (variant, players) in ARENA and args.search_hands:
                    tasks = [
                        (
                            variant,
                            players,
                            "search",
                            f"fit/{variant}/{players}/s{i}",
                            args.search_worlds,
                        )
                        for i in range(args.search_hands)
                    ]
                    name = f"{variant}{players}-s{args.search_hands}w{args.search_worlds}"
                    hands += load_or_play(pool, args.cache, name, tasks)
                held = [0.0] * inference.BUCKETS
                expected = [0.0] * inference.BUCKETS
                for _, h, e in pool.imap_unordered(count, hands, chunksize=16):
                    for b in range(inference.BUCKETS):
                        held[b] += h[b]
                        expected[b] += e[b]
                tables[(variant, players)] = [
                    (held[b] + K) / (expected[b] + K) if expected[b] else None  # type: ignore[misc]
                    for b in range(inference.BUCKETS)
                ]
                used[(variant, players)] = len(hands)
                print(f"fitted {variant} {players}: {len(hands)} hands", flush=True)
            write(tables, used)
    # The fresh tables, for this process and the evaluation's workers (forked after this).
    import importlib

    from engine.bots import _card_model_data

    importlib.reload(_card_model_data)
    importlib.reload(inference)
    print(
        "| edition | players | held-out hands | hidden cards | log-lik/card uniform | weighted "
        "| right hand (one world) uniform | weighted |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    with multiprocessing.Pool(args.workers) as pool:
        for variant, players in CONFIGS:
            if (variant, players) not in ARENA:
                continue
            tasks = [
                (variant, players, "search", f"test/{variant}/{players}/{i}", args.test_worlds)
                for i in range(args.test_hands)
            ]
            name = f"test-{variant}{players}-{args.test_hands}w{args.test_worlds}"
            hands = load_or_play(pool, args.cache, name, tasks)
            sums = [0.0] * 5
            for _, s in pool.imap_unordered(evaluate, hands, chunksize=8):
                sums = [a + b for a, b in zip(sums, s, strict=True)]
            n = sums[0]
            print(
                f"| {variant} | {players} | {len(hands)} | {int(n)} | {sums[1] / n:.4f} "
                f"| {sums[2] / n:.4f} | {100 * sums[3] / n:.1f}% | {100 * sums[4] / n:.1f}% |",
                flush=True,
            )


if __name__ == "__main__":
    main()
