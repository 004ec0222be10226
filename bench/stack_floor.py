"""The stack's floor: what one action costs the servers when they run no game at all.

``bench/ws_bench.py`` measures the app: per action, the servers parse the message, check and
apply it with the engine, commit it, announce it to the other processes, which replay it, and
each process renders and sends the views of its seats. Part of that is the app's own work; the
rest is what the required stack (CPython, uvicorn with websockets and permessage-deflate,
psycopg, PostgreSQL LISTEN/NOTIFY) spends whatever the app does. This bench measures that rest
on the same machine, under the same client, at the same load:

- ``--serve`` runs a *floor server*: FastAPI and uvicorn configured as ``python -m app`` is
  (the same deflate, frame limit, pings and garbage collector thresholds), and per action only
  what cannot be left out: the message decoded, one autocommit statement that bumps the table's
  version and inserts the action (one round trip, as the app's writer), a note
  ``table:version`` queued for the other processes and sent in batches with the app's own
  ``Outbox`` (one ``pg_notify`` round trip per batch), and each local seat sent a real view
  frame (the five seats' frames of every state of 20 seeded random hands, rendered once at start
  by the app's own path, so sizes and contents change over a hand as the app's do). The other
  process hears the note on its LISTEN connection and sends its seats their frames. No engine,
  no view rendering, no rooms, presence, metrics or logs. ``--small``: each seat is sent only
  its prompt (about 100 bytes), the least a frame per seat and action can carry.
- Without ``--serve`` it starts a scratch database and the floor servers, then runs
  ``bench/ws_bench.py``'s own client against them (``ws_bench.run``: the same tables of five,
  seats alternating between the processes, the same think time and CPU accounting), and with
  ``--compare`` the app itself in the same run (configured by the environment, as
  ``ws_bench``'s servers are), so the two lines are comparable::

      REVIEW_WORKERS=0 .venv/bin/python bench/stack_floor.py --processes 2 --tables 500 \\
          --think 1.0 --seconds 15 --compare --rounds 3

The difference of the two "server" figures is the app's own CPU per action: the budget any
target below the app's figure has to come out of.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from contextlib import ExitStack, asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import uvicorn
from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from psycopg_pool import AsyncConnectionPool
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import ws_bench  # noqa: E402
from frames_bench import table_states  # noqa: E402

from app import GC_THRESHOLDS  # noqa: E402
from app.cluster.dedicated import Outbox, keep_connected  # noqa: E402
from app.config import Settings, libpq_url  # noqa: E402
from app.protocol import messages  # noqa: E402
from app.protocol.present import Snapshot  # noqa: E402

SEATS = ws_bench.SEATS
CHANNEL = "mu_floor"
SCHEMA = """
CREATE TABLE IF NOT EXISTS floor_tables (
    id serial PRIMARY KEY, code text UNIQUE NOT NULL, version int NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS floor_actions (
    table_id int NOT NULL, seq int NOT NULL, action jsonb NOT NULL,
    PRIMARY KEY (table_id, seq));
"""
COMMIT = """
WITH bump AS (
    UPDATE floor_tables SET version = version + 1 WHERE id = %(id)s AND version = %(expected)s
    RETURNING id
)
INSERT INTO floor_actions (table_id, seq, action)
SELECT bump.id, %(seq)s, %(action)s::jsonb FROM bump
"""


# -- the floor server ------------------------------------------------------------------------


def frame_templates(small: bool = False) -> list[list[str]]:
    """Per state of real hands (seeded, every action of them) and per seat, the rest of that
    seat's view frame after its version and mover (see ``Floor.frame``): the frames change and
    vary in size over the hand as the app's do. Every seat is given a play prompt of its own
    cards (the bench client acts from the mover's prompt). ``small``: the prompt alone, about
    the least a frame per seat and action can carry (a protocol of changes would send that)."""
    templates = []
    for seed in range(20):
        previous = None
        for live in table_states(seed=seed, most=200):
            snapshot = Snapshot.of(live, (True,) * SEATS, frozenset(), {}, previous=previous)
            previous = snapshot
            templates.append([_rest(snapshot, seat, small) for seat in range(SEATS)])
    return templates


def _rest(snapshot: Snapshot, seat: int, small: bool) -> str:
    view = json.loads(messages.view_text(snapshot, seat))["view"]
    view.pop("to_move", None)
    view["prompt"] = {"type": "play", "cards": [card["id"] for card in view["hand"]]}
    if small:
        view = {"prompt": view["prompt"]}
    return json.dumps(view, separators=(",", ":"), ensure_ascii=False)[1:] + "}"


@dataclass
class FloorTable:
    id: int
    version: int
    sockets: dict[int, WebSocket] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class Floor:
    """One process's tables, its writer pool, its notes out and in."""

    def __init__(self, conninfo: str, *, small: bool = False) -> None:
        self.conninfo = conninfo
        self.templates = frame_templates(small)
        self.tables: dict[str, FloorTable] = {}
        self.by_id: dict[int, FloorTable] = {}
        self.outbox = Outbox(CHANNEL)
        self.sending: set[asyncio.Task[None]] = set()
        self.pool = AsyncConnectionPool(
            conninfo, min_size=1, max_size=3, kwargs={"autocommit": True}, open=False
        )

    def frame(self, seat: int, version: int) -> str:
        rest = self.templates[version % len(self.templates)][seat]
        return f'{{"type":"view","version":{version},"view":{{"to_move":{version % SEATS},{rest}'

    async def table(self, code: str) -> FloorTable | None:
        table = self.tables.get(code)
        if table is None:
            async with self.pool.connection() as conn:
                cursor = await conn.execute(
                    "SELECT id, version FROM floor_tables WHERE code = %s", (code,)
                )
                row = await cursor.fetchone()
            if row is None:
                return None
            table = self.tables.setdefault(code, FloorTable(row[0], row[1]))
            self.by_id[table.id] = table
        return table

    async def send_all(self, table: FloorTable) -> None:
        version = table.version
        for seat, ws in list(table.sockets.items()):
            with contextlib.suppress(Exception):
                await ws.send_text(self.frame(seat, version))

    async def act(self, table: FloorTable, ws: WebSocket, text: str) -> None:
        message = json.loads(text)
        async with table.lock:
            if message.get("version") != table.version:
                await ws.send_text('{"type":"error","code":"stale"}')
                return
            params = {
                "id": table.id,
                "expected": table.version,
                "seq": table.version + 1,
                "action": json.dumps(message["action"]),
            }
            async with self.pool.connection() as conn:
                cursor = await conn.execute(COMMIT, params)
            if cursor.rowcount != 1:
                await ws.send_text('{"type":"error","code":"stale"}')
                return
            table.version += 1
            self.outbox.put(f"{table.id}:{table.version}")
        await self.send_all(table)

    async def listen(self, conn: psycopg.AsyncConnection[Any]) -> None:
        await conn.execute(f"LISTEN {CHANNEL}")
        async for note in conn.notifies():
            table_id, _, version = note.payload.partition(":")
            table = self.by_id.get(int(table_id))
            if table is not None and int(version) > table.version:
                table.version = int(version)
                task = asyncio.get_running_loop().create_task(self.send_all(table))
                self.sending.add(task)
                task.add_done_callback(self.sending.discard)

    @asynccontextmanager
    async def running(self, _app: FastAPI) -> AsyncIterator[None]:
        await self.pool.open()
        tasks = [
            asyncio.create_task(keep_connected(self.conninfo, "floor_listen_down", self.listen)),
            asyncio.create_task(
                keep_connected(self.conninfo, "floor_notify_down", self.outbox.send_forever)
            ),
        ]
        yield
        for task in tasks:
            task.cancel()
        await self.pool.close()


def floor_app(conninfo: str, *, small: bool = False) -> FastAPI:
    floor = Floor(conninfo, small=small)
    app = FastAPI(lifespan=floor.running)

    @app.get("/openapi.json")  # ws_bench waits for this
    async def up() -> dict[str, str]:
        return {}

    @app.post("/api/tables")
    async def open_table() -> dict[str, str]:
        code = secrets.token_urlsafe(8)
        async with floor.pool.connection() as conn:
            await conn.execute("INSERT INTO floor_tables (code) VALUES (%s)", (code,))
        return {"invite_code": code}

    @app.post("/api/tables/{code}/seats")
    async def take_seat(code: str) -> dict[str, str]:
        # Seats in order, as the bench client takes them: the token names the seat.
        async with floor.pool.connection() as conn:
            cursor = await conn.execute(
                "UPDATE floor_tables SET version = version + 1 WHERE code = %s RETURNING version",
                (code,),
            )
            row = await cursor.fetchone()
        assert row is not None
        return {"token": str(row[0] - 1)}

    @app.websocket("/ws/{code}")
    async def socket(ws: WebSocket, code: str, token: str) -> None:
        await ws.accept()
        table = await floor.table(code)
        if table is None:
            await ws.close(4404)
            return
        seat = int(token)
        async with floor.pool.connection() as conn:  # joins may have moved it on since
            cursor = await conn.execute(
                "SELECT version FROM floor_tables WHERE id = %s", (table.id,)
            )
            row = await cursor.fetchone()
        assert row is not None
        table.version = max(table.version, row[0])
        table.sockets[seat] = ws
        await ws.send_text(floor.frame(seat, table.version))
        try:
            while True:
                await floor.act(table, ws, await ws.receive_text())
        except WebSocketDisconnect:
            pass
        finally:
            table.sockets.pop(seat, None)

    return app


def serve(port: int, database_url: str, *, small: bool = False) -> None:
    settings = Settings()
    app = floor_app(libpq_url(database_url), small=small)
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        ws_per_message_deflate=settings.ws_deflate,
        ws_max_size=settings.ws_max_frame_bytes,
        ws_ping_interval=settings.ws_ping_interval,
        ws_ping_timeout=settings.ws_ping_timeout,
        log_level="warning",
    )
    uvicorn.Server(config).run()


# -- the run ---------------------------------------------------------------------------------


@contextmanager
def floor_servers(
    database_url: str, count: int, *, small: bool = False
) -> Iterator[list[tuple[str, int]]]:
    with psycopg.connect(libpq_url(database_url), autocommit=True) as conn:
        conn.execute(SCHEMA)
    with ExitStack() as stack:
        servers = []
        for _ in range(count):
            port = ws_bench.free_port()
            log = stack.enter_context(tempfile.TemporaryFile())
            command = [sys.executable, __file__, "--serve", str(port), "--database", database_url]
            command += ["--small"] if small else []
            server = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=log)
            stack.callback(server.wait, timeout=30)
            stack.callback(server.send_signal, signal.SIGINT)
            base = f"http://127.0.0.1:{port}"
            try:
                ws_bench.wait_until_up(base, server)
            except RuntimeError:
                log.seek(0)
                sys.stderr.write(log.read().decode(errors="replace")[-4000:])
                raise
            servers.append((base, server.pid))
        yield servers


def measure(label: str, servers: list[tuple[str, int]], args: argparse.Namespace, url: str) -> None:
    bases = [base for base, _ in servers]
    pids = [pid for _, pid in servers]
    for tables in args.tables:
        result = asyncio.run(
            ws_bench.run(bases, tables, args.seconds, args.think, pids, 0, None, url)
        )
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"{label:<6} {result.line()}   load {load}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--serve", type=int, metavar="PORT", help="run one floor server")
    parser.add_argument("--database", help="with --serve: its database URL")
    parser.add_argument("--tables", type=int, nargs="*", default=[500])
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--think", type=float, default=1.0, help="mean pause per table (s)")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--compare", action="store_true", help="then the app, in the same run")
    parser.add_argument("--rounds", type=int, default=1, help="floor then app, this many times")
    parser.add_argument(
        "--small", action="store_true", help="the floor sends each seat its prompt alone"
    )
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.database, small=args.small)
        return
    print(f"load average before: {' '.join(map(str, os.getloadavg()))}")
    for _ in range(args.rounds):
        with (
            ws_bench.scratch_database() as url,
            floor_servers(url, args.processes, small=args.small) as servers,
        ):
            print(f"floor servers {' '.join(b for b, _ in servers)}  think {args.think} s")
            measure("small" if args.small else "floor", servers, args, url)
        if args.compare:
            with (
                ws_bench.scratch_database() as url,
                ws_bench.running_servers(url, args.processes, None, worker=False) as servers,
            ):
                database = make_url(url).database
                print(f"app servers {' '.join(b for b, _ in servers)}  database {database}")
                measure("app", servers, args, url)


if __name__ == "__main__":
    main()
