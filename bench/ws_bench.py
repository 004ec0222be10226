"""WebSocket table-server benchmark on PostgreSQL.

Starts ``python -m app`` (uvicorn) in a subprocess on a throw-away Postgres database, opens K
tables of five seats each with every seat connected over a real WebSocket, and lets every table
play random legal actions (picked from the prompt in the mover's view). For each action it
measures the time from sending it to the moment the last of the five seats has received a view
at the new version, and it counts accepted actions per second.

    .venv/bin/python bench/ws_bench.py                       # K = 1, 50, 200
    .venv/bin/python bench/ws_bench.py --tables 200 --seconds 20 --think 0
    .venv/bin/python bench/ws_bench.py --processes 2 --tables 50 200 500 --think 1.0

``--processes 2`` starts two server processes on the same database (``MULTI_PROCESS=1``,
PostgreSQL LISTEN/NOTIFY between them): each table is opened on the first, its seats join and
connect alternately through both, so every action reaches the other process's seats through
the fan-out, and the latency counts until the last seat on either process has the new view.
``--profile FILE`` runs the first server under cProfile and writes its statistics to FILE.
``--sample DIR`` samples every server with py-spy during the measured seconds only, setting up
excluded, into ``DIR/K<tables>-<i>.txt`` (``bench/sampling.py``).

``--think`` is each table's mean pause between actions (players think; default 0.8 s, drawn
uniformly from 0..2x, so K = 200 tables offer about 250 actions/s). With ``--think 0`` every
table acts as fast as the server answers, which measures saturation rather than latency
under a given load. The server's CPU time per action is printed too: on a shared machine it
says more than the wall-clock numbers.
Postgres: ``MU_BENCH_POSTGRES_URL``, else ``MU_TEST_POSTGRES_URL``, else the local server.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg
import sampling
from sqlalchemy.engine import make_url
from websockets.asyncio.client import ClientConnection, connect

from app import GC_THRESHOLDS

ROOT = Path(__file__).resolve().parent.parent
SEATS = 5
DEFAULT_SERVER = "postgresql://postgres@127.0.0.1:5432/postgres"


# -- the server under test -------------------------------------------------------------------


@contextmanager
def scratch_database() -> Iterator[str]:
    server = (
        os.environ.get("MU_BENCH_POSTGRES_URL")
        or os.environ.get("MU_TEST_POSTGRES_URL")
        or DEFAULT_SERVER
    )
    admin = make_url(server).set(drivername="postgresql")
    name = f"mu_bench_{secrets.token_hex(6)}"
    admin_dsn = admin.render_as_string(hide_password=False)
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield admin.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin_dsn, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc), to report CPU per action;
    0 for a process that is gone."""
    return sum(cpu_split(pid))


def cpu_split(pid: int) -> tuple[float, float]:
    """User and system CPU time of a process so far (0, 0 for a process that is gone): the
    system share is mostly the sockets' sends and receives."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0, 0.0
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def transactions(database_url: str) -> int:
    """The database's committed and rolled-back transactions so far (each statement of an
    autocommit connection counts as one): round trips the servers made."""
    with psycopg.connect(database_url, autocommit=True) as conn:
        # Statistics reach the view when a backend is idle or every second: wait for them.
        time.sleep(1.1)
        conn.execute("SELECT pg_stat_clear_snapshot()")
        row = conn.execute(
            "SELECT xact_commit + xact_rollback FROM pg_stat_database"
            " WHERE datname = current_database()"
        ).fetchone()
        return int(row[0]) if row else 0


def database_cpu_seconds() -> float:
    """CPU time of the local PostgreSQL processes so far (0 when the server is elsewhere):
    with the database on the same machine it shares the cores the servers run on."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/comm"):
        with contextlib.suppress(OSError):
            if stat.read_text().strip() == "postgres":
                total += cpu_seconds(int(stat.parent.name))
    return total


@contextmanager
def running_server(
    database_url: str,
    *,
    multi_process: bool = False,
    profile: str | None = None,
    jobs: bool = True,
) -> Iterator[tuple[str, int]]:
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "MULTI_PROCESS": str(int(multi_process)),
        # The bench is one client address acting as fast as it can: no per-client limits.
        **BENCH_LIMITS,
        **({} if jobs else {"REVIEW_WORKERS": "0"}),
    }
    python = [sys.executable] + (["-m", "cProfile", "-o", profile] if profile else [])
    command = [*python, "-m", "app", "--host", "127.0.0.1", "--port", str(port)]
    with tempfile.TemporaryFile() as log:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
        base = f"http://127.0.0.1:{port}"
        try:
            wait_until_up(base, server)
            yield base, server.pid
        except BaseException:
            log.seek(0)
            sys.stderr.write(log.read().decode(errors="replace")[-4000:])
            raise
        finally:
            # SIGINT: a clean exit, so that cProfile (if any) writes its statistics.
            server.send_signal(signal.SIGINT)
            server.wait(timeout=30)


@contextmanager
def running_servers(
    database_url: str, count: int, profile: str | None, worker: bool = False
) -> Iterator[list[tuple[str, int]]]:
    """``count`` server processes on one database (the first one migrates it); ``worker``:
    they run no jobs, a ``python -m app.worker`` process does (its pid comes last, port 0)."""
    with ExitStack() as stack:
        servers = [
            stack.enter_context(
                running_server(
                    database_url,
                    multi_process=count > 1 or worker,
                    profile=profile if i == 0 else None,
                    jobs=not worker,
                )
            )
            for i in range(count)
        ]
        if worker:
            servers.append(("", stack.enter_context(running_worker(database_url))))
        yield servers


@contextmanager
def running_worker(database_url: str) -> Iterator[int]:
    """``python -m app.worker`` on the database: the reviews of the hands the bench ends."""
    env = {**os.environ, "DATABASE_URL": database_url, "LOG_LEVEL": "WARNING"}
    command = [sys.executable, "-m", "app.worker"]
    with tempfile.TemporaryFile() as log:
        worker = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
        try:
            yield worker.pid
        finally:
            worker.send_signal(signal.SIGINT)
            try:
                worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                worker.kill()
                log.seek(0)
                sys.stderr.write(log.read().decode(errors="replace")[-4000:])


BENCH_LIMITS = {
    "WS_MESSAGES_PER_SECOND": "1000000",
    "WS_MESSAGE_BURST": "1000000",
    "RATE_LIMITS": "false",
    "SPECTATORS_PER_TABLE": "1000000",
}


def wait_until_up(base: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited with {server.returncode}")
        try:
            if httpx.get(f"{base}/openapi.json", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError("the server did not come up within 30 s")


# -- one table's players ---------------------------------------------------------------------


def random_action(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal action from the prompt; passing is likely, so auctions end."""
    prompt = view["prompt"]
    if prompt["type"] == "bid":
        most = min(prompt["max_cards"], len(view["hand"]))
        if most < 1 or (prompt["can_pass"] and rng.random() < 0.7):
            return {"type": "pass"}
        count = rng.randint(1, most)
        cards = rng.sample([card["id"] for card in view["hand"]], count)
        return {"type": "bid", "cards": cards}
    if prompt["type"] == "trump":
        return {"type": "trump", "trump": rng.choice(prompt["options"])}
    if prompt["type"] == "partner":
        return {"type": "partner", "seat": rng.choice(prompt["options"])}
    return {"type": "play", "card": rng.choice(prompt["cards"])}


VIEW_PREFIX = '{"type":"view","version":'


@dataclass
class Table:
    code: str
    tokens: list[str]
    sockets: list[ClientConnection] = field(default_factory=list)
    raw_views: list[str] = field(default_factory=lambda: [""] * SEATS)
    versions: list[int] = field(default_factory=lambda: [-1] * SEATS)
    waiting: tuple[int, asyncio.Future[None]] | None = None
    errors: int = 0

    def seen(self, seat: int, raw: str) -> None:
        # Only the version is read here; a view is decoded when its seat is about to act,
        # so the client spends its CPU on what a player's browser would, not five times more.
        if not raw.startswith(VIEW_PREFIX):
            self.errors += '"type":"error"' in raw
            return
        self.raw_views[seat] = raw
        self.versions[seat] = int(raw[len(VIEW_PREFIX) : raw.index(",", len(VIEW_PREFIX))])
        if self.waiting and min(self.versions) >= self.waiting[0]:
            if not self.waiting[1].done():
                self.waiting[1].set_result(None)

    def view(self, seat: int) -> dict[str, Any]:
        view: dict[str, Any] = json.loads(self.raw_views[seat])["view"]
        return view


async def post(http: httpx.AsyncClient, url: str, body: dict[str, Any]) -> dict[str, Any]:
    # A loaded machine may reset a connection while 50 are being opened: try again.
    for attempt in range(3):
        try:
            response = await http.post(url, json=body)
            break
        except httpx.TransportError:
            if attempt == 2:
                raise
            await asyncio.sleep(0.5)
    response.raise_for_status()
    result: dict[str, Any] = response.json()
    return result


async def open_table(https: list[httpx.AsyncClient]) -> Table:
    """Created on the first process; seat ``i`` joins through process ``i % len(https)``."""
    created = await post(https[0], "/api/tables", {"players": SEATS, "hands": 1000})
    code = created["invite_code"]
    tokens = []
    for seat in range(SEATS):
        http = https[seat % len(https)]
        joined = await post(http, f"/api/tables/{code}/seats", {"name": f"Bench {seat}"})
        tokens.append(joined["token"])
    return Table(code, tokens)


async def connect_table(table: Table, ws_bases: list[str]) -> None:
    for seat, token in enumerate(table.tokens):
        ws_base = ws_bases[seat % len(ws_bases)]
        ws = await connect(f"{ws_base}/ws/{table.code}?token={token}", max_size=2**20)
        table.sockets.append(ws)
        table.seen(seat, str(await ws.recv()))
    # With several processes a seat may have connected before its process heard of the
    # last join: wait until every seat shows the same version.
    while min(table.versions) < max(table.versions):
        await asyncio.sleep(0.01)


async def spectate(table: Table, ws_base: str, count: int) -> list[Any]:
    """``count`` spectator sockets on ``table`` (they only read), connected one by one."""
    return [await connect(f"{ws_base}/ws/{table.code}", max_size=2**20) for _ in range(count)]


async def drain(ws: Any) -> None:
    async for _raw in ws:
        pass


async def reader(table: Table, seat: int) -> None:
    async for raw in table.sockets[seat]:
        table.seen(seat, str(raw))


async def play(table: Table, until: float, think: float, latencies: list[float]) -> int:
    rng = random.Random()
    actions = 0
    loop = asyncio.get_running_loop()
    while time.monotonic() < until:
        if think:
            await asyncio.sleep(rng.uniform(0, 2 * think))
        version = max(table.versions)
        if min(table.versions) < version:
            await asyncio.sleep(0.001)  # a view still on its way to a seat
            continue
        mover = table.view(0)["to_move"]
        if mover is None:  # the game is over
            break
        action = random_action(table.view(mover), rng)
        done: asyncio.Future[None] = loop.create_future()
        table.waiting = (version + 1, done)
        started = time.perf_counter()
        await table.sockets[mover].send(
            json.dumps({"type": "action", "version": version, "action": action})
        )
        await asyncio.wait_for(done, timeout=30)
        latencies.append(time.perf_counter() - started)
        actions += 1
    return actions


# -- one run ---------------------------------------------------------------------------------


@dataclass
class Result:
    tables: int
    actions: int
    seconds: float
    latencies: list[float]
    errors: int
    server_cpu: float = 0.0
    server_system: float = 0.0
    worker_cpu: float | None = None  # the job worker's own process (not its review pool)
    client_cpu: float = 0.0
    database_cpu: float = 0.0
    transactions: int = 0

    def line(self) -> str:
        ms = sorted(x * 1000 for x in self.latencies)
        p50 = statistics.median(ms)
        p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
        return (
            f"K={self.tables:<4} actions={self.actions:<6}"
            f" {self.actions / self.seconds:8.1f} actions/s"
            f"   latency p50 {p50:6.2f} ms  p99 {p99:7.2f} ms  max {ms[-1]:7.2f} ms"
            f"   CPU per action: server {1000 * self.server_cpu / max(1, self.actions):.2f} ms"
            f" (system {1000 * self.server_system / max(1, self.actions):.2f}),"
            + (
                ""
                if self.worker_cpu is None
                else f" job worker {1000 * self.worker_cpu / max(1, self.actions):.2f} ms,"
            )
            + f" bench client {1000 * self.client_cpu / max(1, self.actions):.2f} ms,"
            f" PostgreSQL {1000 * self.database_cpu / max(1, self.actions):.2f} ms"
            f"   database transactions per action {self.transactions / max(1, self.actions):.1f}"
            f"   errors {self.errors}"
        )


async def run(
    bases: list[str],
    tables: int,
    seconds: float,
    think: float,
    pids: list[int],
    spectators: int = 0,
    sample: Path | None = None,
    database_url: str | None = None,
    worker: list[int] | None = None,
) -> Result:
    ws_bases = [base.replace("http://", "ws://") for base in bases]
    limits = httpx.Limits(max_connections=50)
    async with contextlib.AsyncExitStack() as stack:
        https = [
            await stack.enter_async_context(
                httpx.AsyncClient(base_url=base, limits=limits, timeout=30)
            )
            for base in bases
        ]
        opened = []
        for chunk in range(0, tables, 50):  # not all at once: a 500-table burst resets sockets
            count = min(50, tables - chunk)
            opened += await asyncio.gather(*(open_table(https) for _ in range(count)))
    for chunk in range(0, tables, 25):
        await asyncio.gather(*(connect_table(t, ws_bases) for t in opened[chunk : chunk + 25]))
    readers = [asyncio.create_task(reader(t, s)) for t in opened for s in range(SEATS)]
    watchers = [ws for t in opened for ws in await spectate(t, ws_bases[0], spectators)]
    readers += [asyncio.create_task(drain(ws)) for ws in watchers]
    await asyncio.sleep(0.5)  # let the presence broadcasts settle
    # The client is timing: its own garbage collections must not count as the servers'
    # latency. With CPython's default thresholds, 2,500 sockets' objects made it stop for a
    # full collection of 50-260 ms every few seconds (and 10-60 ms for younger ones), which
    # showed as the servers' p99. Keep what the set-up made out of the collections and collect
    # rarely, as the servers do.
    gc.collect()
    gc.freeze()
    thresholds = gc.get_threshold()
    gc.set_threshold(*GC_THRESHOLDS)
    latencies: list[float] = []
    transactions_before = transactions(database_url) if database_url else 0
    system_before = sum(cpu_split(pid)[1] for pid in pids)
    cpu_before, client_before = sum(map(cpu_seconds, pids)), time.process_time()
    worker_before = sum(map(cpu_seconds, worker or []))
    database_before = database_cpu_seconds()
    started = time.monotonic()
    samplers = sampling.record(sample, f"K{tables}", pids, seconds) if sample else []
    counts = await asyncio.gather(*(play(t, started + seconds, think, latencies) for t in opened))
    elapsed = time.monotonic() - started
    server_cpu = sum(map(cpu_seconds, pids)) - cpu_before
    server_system = sum(cpu_split(pid)[1] for pid in pids) - system_before
    worker_cpu = sum(map(cpu_seconds, worker or [])) - worker_before
    client_cpu = time.process_time() - client_before
    database_cpu = database_cpu_seconds() - database_before
    for done in samplers:
        done.wait(timeout=30)
    transacted = transactions(database_url) - transactions_before if database_url else 0
    gc.set_threshold(*thresholds)
    gc.unfreeze()
    for task in readers:
        task.cancel()
    closing = [ws.close() for t in opened for ws in t.sockets] + [ws.close() for ws in watchers]
    await asyncio.gather(*closing, return_exceptions=True)
    errors = sum(t.errors for t in opened)
    return Result(
        tables,
        sum(counts),
        elapsed,
        latencies,
        errors,
        server_cpu,
        server_system,
        worker_cpu if worker else None,
        client_cpu,
        database_cpu,
        transacted,
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, nargs="*", default=[1, 50, 200])
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--think", type=float, default=0.8, help="mean pause per table (s)")
    parser.add_argument("--processes", type=int, default=1, help="server processes (1 or 2+)")
    parser.add_argument("--profile", help="cProfile the first server process into this file")
    parser.add_argument("--sample", type=Path, help="py-spy every server into this folder")
    parser.add_argument(
        "--spectators", type=int, default=0, help="spectator sockets per table (they only read)"
    )
    parser.add_argument(
        "--worker",
        action="store_true",
        help="the servers run no jobs (REVIEW_WORKERS=0); a python -m app.worker process does",
    )
    args = parser.parse_args()
    with (
        scratch_database() as database_url,
        running_servers(database_url, args.processes, args.profile, args.worker) as servers,
    ):
        bases = [base for base, _ in servers if base]
        pids = [pid for base, pid in servers if base]
        worker = [pid for base, pid in servers if not base]
        database = make_url(database_url).database
        print(f"servers {' '.join(bases)}  database {database}  think {args.think} s")
        print(f"load average before: {' '.join(map(str, os.getloadavg()))}")
        for tables in args.tables:
            # K = 1 measures the bare round trip: one table, no pause.
            think = 0.0 if tables == 1 else args.think
            result = asyncio.run(
                run(
                    bases,
                    tables,
                    args.seconds,
                    think,
                    pids,
                    args.spectators,
                    args.sample,
                    database_url,
                    worker,
                )
            )
            load = " ".join(f"{x:.2f}" for x in os.getloadavg())
            print(f"{result.line()}   load {load}", flush=True)


if __name__ == "__main__":
    main()
