"""Bot strength on duplicate deals: each bot's mean Mü score per hand with a 95% CI.

For every deal (seeded, so the deal set is fixed) and every rotation ``r`` of the seats, the
candidate bot sits in seat ``r`` and the baseline bot in all other seats, so the candidate
sits in every position of every deal (one deal = ``players`` hands).  The score is the real
Mü score of the hand: card points + bonus/penalty, or the Eklat points (revised: the
result's ``total``, card points + the winning team's bid and trump bonuses).  Per deal we average
the candidate's score over its hands and the baseline's over its seat-hands; the 95% CIs
(1.96 standard errors) are taken over deals.  Every bot's RNG is seeded from
``(seed, deal, rotation, seat)``, so a run is reproducible (the search bot with
``--search-time 0``, i.e. a fixed world budget instead of a clock).

Usage::

    python bench/bot_arena.py                       # 4 and 5 players, both matchups, 2000 hands
    python bench/bot_arena.py --players 4 --hands 400 --matchups search:heuristic
    python bench/bot_arena.py --search-worlds 24 --search-time 0 --workers 2
    python bench/bot_arena.py --variant revised --players 4     # the 2024 revised edition
    python bench/bot_arena.py --matchups expert:search search:heuristic --search-worlds 12 \
        --search-time 0                             # the expert against the search bot

``--search-worlds`` and ``--search-time`` are the budget of both the search and the expert bot.
``oracle`` (``--matchups oracle:search``) is the search bot handed the true state as its every
world: what a perfect guess of the hidden cards gives this search (sources only).

The decision times printed are wall and CPU times of ``act`` for the search and the expert
seats, each bot on its own line (only the decisions with a real choice; a play with one legal
card is instant and left out).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import platform
import random
import statistics
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import engine  # noqa: E402
from engine._guard import describe  # noqa: E402
from engine.bots import Bot, make_bot  # noqa: E402
from engine.bots.sampling import WorldSampler  # noqa: E402
from engine.bots.search import SearchBot  # noqa: E402
from engine.state import HandState  # noqa: E402

# The result kinds per variant, as the table's column names them.
OUTCOMES = {
    "classic": {"played": "played", "stalemate": "Eklat", "all_passed": "all pass"},
    "revised": {"played": "played", "redeal": "redeal"},
}
Task = tuple[str, str, int, int, int, dict[str, Any], str]


# The levels that take the budget and whose times are shown; "oracle" is this bench's own.
SEARCHERS = ("search", "expert", "oracle")


def oracle(budget: dict[str, Any]) -> SearchBot:
    """The search bot whose every "world" is the true state, set in ``truth`` before each
    decision: what a perfect guess of the hidden cards gives this search (a bench measure
    only: the bot is handed the state it must never see).  From the sources only: a
    compiled class takes no Python subclass, so the classes are made when asked for."""

    class TrueWorld(WorldSampler):
        def __init__(self, view: engine.HandView, truth: HandState) -> None:
            super().__init__(view)
            self.truth = truth

        def sample(self, rng: random.Random) -> HandState:
            return self.truth.clone()

    class OracleBot(SearchBot):
        truth: HandState

        def sampler(self, view: engine.HandView) -> WorldSampler:
            return TrueWorld(view, self.truth)

    bot = OracleBot(**budget)
    bot.name = "oracle"
    return bot


def build(level: str, budget: dict[str, Any]) -> Bot:
    if level == "oracle":
        return oracle(budget)
    return make_bot(level, **budget) if level in SEARCHERS else make_bot(level)


def play_deal(task: Task) -> dict[str, Any]:
    """Play one deal ``players`` times, the candidate rotated through the seats."""
    cand, base, players, deal_no, seed, budget, variant = task
    cand_scores, base_scores = [], []
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in SEARCHERS}
    outcomes: list[str] = []
    for rot in range(players):
        rng = random.Random(seed * 1_000_003 + deal_no)
        state = engine.deal(players, deal_no % players, rng, variant)
        bots = [build(cand if s == rot else base, budget) for s in range(players)]
        rngs = [random.Random(f"{seed}/{deal_no}/{rot}/{s}") for s in range(players)]
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            view = engine.view(state, seat)
            bot = bots[seat]
            if bot.name == "oracle":
                bot.truth = state  # type: ignore[attr-defined]
            t0, c0 = time.perf_counter(), time.process_time()
            action = bot.act(view, rngs[seat])
            dt, dc = time.perf_counter() - t0, time.process_time() - c0
            prompt = view.prompt
            name = bots[seat].name
            if name in times and not (
                isinstance(prompt, engine.PlayPrompt) and len(prompt.cards) == 1
            ):
                times[name].append((dt, dc))
            state = engine.apply(state, seat, action)
        result = engine.result(state)
        assert result is not None
        total = result.total
        cand_scores.append(total[rot])
        base_scores.extend(total[s] for s in range(players) if s != rot)
        outcomes.append(result.kind.value)
    return {
        "cand": statistics.fmean(cand_scores),
        "base": statistics.fmean(base_scores),
        "times": times,
        "outcomes": outcomes,
    }


def ci(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, half


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def ms(values: list[float], q: float) -> str:
    return f"{1000 * pct(values, q):.0f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[4, 5])
    parser.add_argument("--hands", type=int, default=2000, help="hands per table (>=)")
    parser.add_argument("--matchups", nargs="+", default=["heuristic:random", "search:heuristic"])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", choices=["classic", "revised"], default="classic")
    parser.add_argument("--search-worlds", type=int, default=None, help="max worlds/decision")
    parser.add_argument(
        "--search-time", type=float, default=None, help="seconds/decision (0: no clock)"
    )
    args = parser.parse_args()

    budget: dict[str, Any] = {}
    if args.search_worlds is not None:
        budget["max_worlds"] = args.search_worlds
    if args.search_time is not None:
        budget["time_limit"] = args.search_time or None

    print(
        f"bot arena: {platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cpus, {args.workers} workers, {args.variant}, seed {args.seed}, "
        f"search budget {budget or 'default'}, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(describe())
    kinds_shown = OUTCOMES[args.variant]
    print(
        "| players | candidate vs baseline | deals | hands | candidate mean ±95% CI "
        f"| baseline mean ±95% CI | difference ±95% CI | {' / '.join(kinds_shown.values())} "
        "| wall s |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---|---:|")
    all_times: dict[str, list[float]] = {name: [] for name in SEARCHERS}
    all_cpu: dict[str, list[float]] = {name: [] for name in SEARCHERS}
    with multiprocessing.Pool(args.workers) as pool:
        for players in args.players:
            deals = math.ceil(args.hands / players)
            for matchup in args.matchups:
                cand, base = matchup.split(":")
                tasks: list[Task] = [
                    (cand, base, players, d, args.seed, budget, args.variant) for d in range(deals)
                ]
                t0 = time.time()
                rows = pool.map(play_deal, tasks, chunksize=max(1, deals // (8 * args.workers)))
                wall = time.time() - t0
                cm, ch = ci([r["cand"] for r in rows])
                bm, bh = ci([r["base"] for r in rows])
                dm, dh = ci([r["cand"] - r["base"] for r in rows])
                kinds = [k for r in rows for k in r["outcomes"]]
                share = "/".join(f"{100 * kinds.count(k) / len(kinds):.0f}%" for k in kinds_shown)
                print(
                    f"| {players} | {cand} vs {base} | {deals} | {deals * players} "
                    f"| {cm:+.2f} ± {ch:.2f} | {bm:+.2f} ± {bh:.2f} | {dm:+.2f} ± {dh:.2f} "
                    f"| {share} | {wall:.0f} |",
                    flush=True,
                )
                for name in SEARCHERS:
                    times = [t for r in rows for t, _ in r["times"][name]]
                    cpu = [c for r in rows for _, c in r["times"][name]]
                    all_times[name].extend(times)
                    all_cpu[name].extend(cpu)
                    if times:
                        print(
                            f"|   | {name} decisions: {len(times)}; wall p50 {ms(times, 0.5)}, "
                            f"p95 {ms(times, 0.95)}, max {1000 * max(times):.0f} ms; "
                            f"cpu p50 {ms(cpu, 0.5)}, p95 {ms(cpu, 0.95)} | | | | | | | |",
                            flush=True,
                        )
    for name in SEARCHERS:
        times, cpu = all_times[name], all_cpu[name]
        if times:
            print(
                f"{name} decision time over all tables: n={len(times)}, "
                f"wall p50 {ms(times, 0.5)}, p95 {ms(times, 0.95)}; "
                f"cpu p50 {ms(cpu, 0.5)}, p95 {ms(cpu, 0.95)}"
            )
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
