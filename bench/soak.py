"""Soak bench: the server on a database a year of use leaves behind.

Fills a throw-away PostgreSQL database the way months of evenings do (through the HTTP and
WebSocket API, so it is the server's own data): ``--abandoned`` tables that friends left
mid-hand and ``--finished`` correspondence games played to their end; then moves every
timestamp ``--age-days`` into the past through SQL. For each server tree given (``--tree``,
default this checkout; give an older checkout too for before/after in one run) and each process
count (``--processes``), it copies that database (``CREATE DATABASE … TEMPLATE``, so every run
starts from the same history), starts the servers on it and reports:

- idle CPU: each process's CPU over ``--idle`` seconds with nobody connected, once the jobs the
  history left due (the finished games' reviews) are worked off (% of a core);
- connections held: the database's backends while idle;
- resident memory of each process;
- a live table: five people play one hand (seats alternating between the processes);
  action -> all five seats updated, p50/p99;
- review: the time from the end of that hand to its review being ready (polling the review
  API, as a player's open hand page does), or "not after N s".

    .venv/bin/python bench/soak.py                                  # this tree, 1 and 2 processes
    .venv/bin/python bench/soak.py --tree ../before --tree .        # before and after, one run
    .venv/bin/python bench/soak.py --abandoned 600 --finished 12 --processes 1 2

``--sample DIR`` records each idle server with py-spy (``bench/sampling.py``).

Timing is printed, never asserted. Postgres: ``MU_BENCH_POSTGRES_URL``, else
``MU_TEST_POSTGRES_URL``, else the local server.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import psycopg
import sampling
from sqlalchemy.engine import make_url
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ws_bench import (  # noqa: E402  (a sibling script)
    BENCH_LIMITS,
    DEFAULT_SERVER,
    cpu_seconds,
    free_port,
    post,
    random_action,
)

ROOT = Path(__file__).resolve().parent.parent
REVIEW_WAIT = 180.0


# -- databases -------------------------------------------------------------------------------


def admin_dsn() -> str:
    server = (
        os.environ.get("MU_BENCH_POSTGRES_URL")
        or os.environ.get("MU_TEST_POSTGRES_URL")
        or DEFAULT_SERVER
    )
    return make_url(server).set(drivername="postgresql").render_as_string(hide_password=False)


def database_url(name: str) -> str:
    return make_url(admin_dsn()).set(database=name).render_as_string(hide_password=False)


@contextmanager
def database(template: str | None = None) -> Iterator[str]:
    """A new database (a copy of ``template`` if given), dropped afterwards; yields its name."""
    name = f"mu_soak_{secrets.token_hex(5)}"
    copy = f' TEMPLATE "{template}"' if template else ""
    with psycopg.connect(admin_dsn(), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"{copy}')
    try:
        yield name
    finally:
        with psycopg.connect(admin_dsn(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def backends(name: str) -> int:
    with psycopg.connect(admin_dsn(), autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (name,)
        ).fetchone()
    return int(row[0]) if row else 0


def age_history(name: str, days: float) -> None:
    """Move every timestamp of the history ``days`` into the past."""
    with psycopg.connect(database_url(name), autocommit=True) as conn:
        columns = conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = 'public' AND data_type LIKE 'timestamp%%'"
        ).fetchall()
        for table, column in columns:
            conn.execute(
                f'UPDATE "{table}" SET "{column}" = "{column}" - make_interval(secs => %s)'
                f' WHERE "{column}" IS NOT NULL',
                (days * 86400,),
            )


# -- servers ---------------------------------------------------------------------------------


def due_jobs(name: str) -> int:
    """Jobs queued or running that are due now (reviews, reminders)."""
    with psycopg.connect(database_url(name), autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM jobs WHERE status IN ('queued', 'running') AND run_after <= now()"
        ).fetchone()
        return int(row[0]) if row else 0


def drain_jobs(name: str, timeout: float) -> float:
    """Wait until no job is due (the servers worked off the history's backlog); the seconds
    it took (``timeout`` if they did not)."""
    started = time.monotonic()
    while due_jobs(name) and time.monotonic() - started < timeout:
        time.sleep(1.0)
    return time.monotonic() - started


def rss_mib(pid: int) -> float:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


@contextmanager
def servers(tree: Path, url: str, count: int, logs: Path) -> Iterator[list[tuple[str, int]]]:
    """``count`` ``python -m app`` processes of ``tree`` on ``url`` (the first migrates)."""
    started: list[tuple[subprocess.Popen[bytes], str]] = []
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "MULTI_PROCESS": str(int(count > 1)),
        "PYTHONPATH": str(tree),
        "LOG_FORMAT": "json",
        **BENCH_LIMITS,
    }
    try:
        for i in range(count):
            port = free_port()
            log = (logs / f"server-{i}.log").open("wb")
            command = [sys.executable, "-m", "app", "--host", "127.0.0.1", "--port", str(port)]
            process = subprocess.Popen(command, cwd=tree, env=env, stdout=log, stderr=log)
            base = f"http://127.0.0.1:{port}"
            started.append((process, base))
            deadline = time.monotonic() + 60
            while True:
                if process.poll() is not None:
                    raise RuntimeError(f"server {i} exited; see {logs}")
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"{base}/openapi.json", timeout=1).status_code == 200:
                        break
                if time.monotonic() > deadline:
                    raise RuntimeError(f"server {i} did not come up; see {logs}")
                time.sleep(0.2)
        yield [(base, process.pid) for process, base in started]
    finally:
        for process, _ in started:
            process.terminate()
        for process, _ in started:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=30)


# -- players ---------------------------------------------------------------------------------


class Seats:
    """One table's seats on their sockets, each seat's latest view."""

    def __init__(self, code: str, sockets: list[ClientConnection]) -> None:
        self.code = code
        self.sockets = sockets
        self.views: list[dict[str, Any]] = [{} for _ in sockets]
        self.changed = asyncio.Event()
        self.readers = [asyncio.create_task(self._read(s)) for s in range(len(sockets))]

    async def _read(self, seat: int) -> None:
        with contextlib.suppress(Exception):
            async for raw in self.sockets[seat]:
                message = json.loads(raw)
                if message.get("type") == "view":
                    self.views[seat] = message["view"] | {"_version": message["version"]}
                    self.changed.set()

    def versions(self) -> list[int]:
        return [view.get("_version", -1) for view in self.views]

    async def settled(self, at_least: int, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while min(self.versions()) < at_least or len(set(self.versions())) > 1:
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"table {self.code}: seats at {self.versions()}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), timeout=left)

    async def close(self) -> None:
        for task in self.readers:
            task.cancel()
        await asyncio.gather(*(ws.close() for ws in self.sockets), return_exceptions=True)


async def sit(
    https: list[httpx.AsyncClient], bases: list[str], players: int, options: dict[str, Any]
) -> Seats:
    created = await post(https[0], "/api/tables", {"players": players, **options})
    code = created["invite_code"]
    sockets = []
    for seat in range(players):
        http = https[seat % len(https)]
        joined = await post(http, f"/api/tables/{code}/seats", {"name": f"Player {seat}"})
        ws_base = bases[seat % len(bases)].replace("http://", "ws://")
        url = f"{ws_base}/ws/{code}?token={joined['token']}"
        sockets.append(await connect(url, max_size=2**20))
    seats = Seats(code, sockets)
    await seats.settled(0)
    return seats


async def step(
    seats: Seats, rng: random.Random, latencies: list[float] | None = None
) -> dict[str, Any] | None:
    """The seat to move makes a random legal action; returns the view after it (None: over).

    Auctions where everyone passes at once end a hand without card play; a bid is made
    often enough here that most hands are played out.
    """
    view = seats.views[0]
    mover = view.get("to_move")
    if mover is None:
        return None
    version = view["_version"]
    action = random_action(seats.views[mover], rng)
    prompt = seats.views[mover]["prompt"]
    if action["type"] == "pass" and prompt.get("max_cards", 0) >= 1 and rng.random() < 0.4:
        action = {"type": "bid", "cards": [rng.choice(seats.views[mover]["hand"])["id"]]}
    started = time.perf_counter()
    message = {"type": "action", "version": version, "action": action}
    await seats.sockets[mover].send(json.dumps(message))
    await seats.settled(version + 1)
    if latencies is not None:
        latencies.append(time.perf_counter() - started)
    return seats.views[0]


def hand_number(view: dict[str, Any]) -> int:
    return int(view.get("hand_number") or view.get("hand", {}).get("number") or 0)


async def abandoned_table(https: list[httpx.AsyncClient], bases: list[str], seed: int) -> None:
    """Four friends start a hand, play a while, and leave for good (no bot takes over)."""
    rng = random.Random(seed)
    seats = await sit(https, bases, 4, {"takeover_seconds": None})
    try:
        for _ in range(rng.randint(3, 30)):
            before = seats.views[0]
            after = await step(seats, rng)
            if after is None or hand_number(after) != hand_number(before):
                break
    finally:
        await seats.close()


async def finished_game(https: list[httpx.AsyncClient], bases: list[str], seed: int) -> None:
    """A correspondence game of one hand, played to its end."""
    rng = random.Random(seed)
    options = {"pace": "correspondence", "hands": 1}
    seats = await sit(https, bases, 4, options)
    try:
        while await step(seats, rng) is not None:
            pass
    finally:
        await seats.close()


async def fill(base: str, abandoned: int, finished: int) -> None:
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=30) as http:
        jobs = [finished_game([http], [base], i) for i in range(finished)]
        jobs += [abandoned_table([http], [base], 1000 + i) for i in range(abandoned)]
        for chunk in range(0, len(jobs), 20):
            await asyncio.gather(*jobs[chunk : chunk + 20])


# -- one measured run ------------------------------------------------------------------------


async def live_hand(
    bases: list[str], players: int, think: float
) -> tuple[list[float], float | None, str]:
    """A new table of ``players`` people plays one hand; the action latencies, then the seconds
    from the hand's end to its review being ready (None: not within REVIEW_WAIT)."""
    rng = random.Random(7)
    async with contextlib.AsyncExitStack() as stack:
        https = [
            await stack.enter_async_context(httpx.AsyncClient(base_url=base, timeout=30))
            for base in bases
        ]
        seats = await sit(https, bases, players, {"hands": 10})
        latencies: list[float] = []
        try:
            # Play until a hand with card play ends (a hand everyone passed is re-dealt).
            while True:
                number, played = hand_number(seats.views[0]), 0
                while True:
                    await asyncio.sleep(rng.uniform(0, 2 * think))
                    mover = seats.views[0].get("to_move")
                    playing = mover is not None and seats.views[mover]["prompt"]["type"] == "play"
                    after = await step(seats, rng, latencies)
                    played += playing
                    if after is None or hand_number(after) != number:
                        break
                if played or after is None:
                    break
            first = number
            ended = time.monotonic()
        finally:
            await seats.close()
        url = f"/api/tables/{seats.code}/hands/{first}/review"
        status = "?"
        while time.monotonic() - ended < REVIEW_WAIT:
            with contextlib.suppress(httpx.HTTPError):
                response = await https[-1].get(url)
                if response.status_code == 200:
                    status = response.json().get("status", "?")
                    if status in ("done", "failed"):
                        return latencies, time.monotonic() - ended, status
            await asyncio.sleep(0.5)
        return latencies, None, status


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


@contextlib.contextmanager
def log_folder(keep: Path | None, label: str) -> Iterator[Path]:
    """Where a run's servers write their logs: ``keep/label`` (kept), else a temporary one."""
    if keep is not None:
        folder = keep / label
        folder.mkdir(parents=True, exist_ok=True)
        yield folder
        return
    with tempfile.TemporaryDirectory() as temporary:
        yield Path(temporary)


def measure(tree: Path, template: str, count: int, args: argparse.Namespace) -> None:
    kept_as = f"{tree.name or 'tree'}-{count}"
    with database(template) as name, log_folder(args.logs, kept_as) as logs:
        with servers(tree, database_url(name), count, logs) as running:
            bases, pids = [b for b, _ in running], [p for _, p in running]
            time.sleep(args.settle)  # start-up work (migrations, first polls) is not idling
            # Nor is the work the history left due (the finished games' reviews): idle is after.
            backlog = drain_jobs(name, timeout=args.backlog)
            before = [cpu_seconds(pid) for pid in pids]
            label = f"idle-{tree.name}-{count}"
            samplers = sampling.record(args.sample, label, pids, args.idle) if args.sample else []
            time.sleep(args.idle)
            spent = [cpu_seconds(pid) - b for pid, b in zip(pids, before, strict=True)]
            idle = [100 * x / args.idle for x in spent]
            for sampler in samplers:
                sampler.wait(timeout=30)
            held = backends(name)
            rss = [rss_mib(pid) for pid in pids]
            busy_before = sum(map(cpu_seconds, pids))
            latencies, review, status = asyncio.run(live_hand(bases, args.players, args.think))
            busy = sum(map(cpu_seconds, pids)) - busy_before
        lines = sum(len(p.read_text(errors="replace").splitlines()) for p in logs.iterdir())
        tracebacks = sum(p.read_text(errors="replace").count("Traceback") for p in logs.iterdir())
    ms = [x * 1000 for x in latencies]
    waited = f"{review:.1f} s" if review is not None else f"not after {REVIEW_WAIT:.0f} s"
    print(
        f"{tree.name or tree}  processes={count}\n"
        f"  backlog the history left due (its reviews): worked off in {backlog:.0f} s\n"
        f"  idle CPU per process: {', '.join(f'{x:.2f} %' for x in idle)} of a core"
        f" (over {args.idle:.0f} s, nobody connected)\n"
        f"  connections held (idle): {held}\n"
        f"  resident memory: {', '.join(f'{x:.0f} MiB' for x in rss)}\n"
        f"  live hand ({args.players} players, {len(ms)} actions): action -> all seats"
        f" p50 {statistics.median(ms):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms;"
        f" server CPU {busy:.1f} s during the hand and the review wait\n"
        f"  hand end -> review ready: {waited} ({status})\n"
        f"  log lines: {lines}, tracebacks: {tracebacks}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tree", type=Path, action="append", help="server checkout (repeatable)")
    parser.add_argument("--processes", type=int, nargs="*", default=[1, 2])
    parser.add_argument("--abandoned", type=int, default=600)
    parser.add_argument("--finished", type=int, default=12)
    parser.add_argument("--age-days", type=float, default=3.0)
    parser.add_argument("--players", type=int, default=5, help="players at the live table")
    parser.add_argument("--think", type=float, default=0.2, help="mean pause per action (s)")
    parser.add_argument("--idle", type=float, default=30.0, help="idle CPU window (s)")
    parser.add_argument(
        "--sample", type=Path, help="py-spy the idle servers into this folder (bench/sampling.py)"
    )
    parser.add_argument("--settle", type=float, default=10.0, help="pause after start-up (s)")
    parser.add_argument(
        "--logs", type=Path, help="keep each run's server logs in DIR/<tree>-<processes>/"
    )
    parser.add_argument(
        "--backlog", type=float, default=300.0, help="wait at most this long for due jobs (s)"
    )
    args = parser.parse_args()
    trees = [tree.resolve() for tree in (args.tree or [ROOT])]
    with database() as template:
        started = time.monotonic()
        # The history is written by the first tree's server (its schema is migrated first).
        with tempfile.TemporaryDirectory() as logs, ExitStack() as stack:
            running = stack.enter_context(servers(trees[0], database_url(template), 1, Path(logs)))
            asyncio.run(fill(running[0][0], args.abandoned, args.finished))
        age_history(template, args.age_days)
        print(
            f"history: {args.abandoned} abandoned tables, {args.finished} finished games,"
            f" {args.age_days:g} days old (filled in {time.monotonic() - started:.0f} s)",
            flush=True,
        )
        for count in args.processes:
            for tree in trees:
                measure(tree, template, count, args)


if __name__ == "__main__":
    main()
