"""Seconds from the end of a 5-player hand to its review being ready, with a backlog.

Builds issue 25's situation on a fresh PostgreSQL database (created here, dropped after):
1,000 abandoned hands (dealt, never finished: they have no review job) and 50 finished
4-player hands whose reviews are queued; then starts ONE ``python -m app.worker`` (a review
pool of one process, pinned to one core with taskset when available), waits until it is busy
with the backlog, finishes a 5-player hand, opens its review once (as the end-of-hand link and
the hand page do: the review goes before the backlog) and polls until the review is done.

    .venv/bin/python bench/review_queue_bench.py [--server postgresql://postgres@127.0.0.1/postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import shutil
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psycopg
from sqlalchemy.engine import make_url

import engine
from app.config import Settings, libpq_url
from app.history import reviews
from app.main import create_app, release
from app.migrate import upgrade_head
from app.room import changes
from app.tables import tokens
from engine.bots import make_bot

ROOT = Path(__file__).resolve().parents[1]
ABANDONED, QUEUED = 1000, 50


async def act(room, seat: int, action: engine.Action):
    """``action`` by the token holding ``seat``."""
    token_hash = room.live.seats[seat].token_hash
    return await changes.act(room, seat, room.live.version, action, token_hash)


async def play_hand(app, code: str, rng: random.Random) -> int:
    """Play the table's current hand to its end with the heuristic bot; the table id."""
    room = await app.state.hub.room(code)
    bot = make_bot("heuristic")
    number = room.live.hand_number
    while room.live.hand_number == number and not room.live.game.over:
        hand = room.live.hand
        seat = hand.to_move
        action = bot.act(engine.view(hand, seat), rng)
        assert await act(room, seat, action) is None
    return int(room.live.table_id)


async def open_table(client: httpx.AsyncClient, players: int) -> str:
    created = await client.post("/api/tables", json={"players": players})
    code = created.json()["invite_code"]
    for i in range(players):
        await client.post(f"/api/tables/{code}/seats", json={"name": f"P{i}"})
    client.cookies.clear()
    return str(code)


def abandon(url: str) -> None:
    """1,000 dealt hands nobody finished (5 seats, a few actions' worth of nothing)."""
    with psycopg.connect(libpq_url(url), autocommit=True) as conn, conn.cursor() as cur:
        for i in range(ABANDONED):
            cur.execute(
                "INSERT INTO tables (invite_code, short_code, options, version)"
                " VALUES (%s, %s, %s, 6) RETURNING id",
                (f"abandoned-{i}", tokens.new_short_code(), '{"players": 5}'),
            )
            (tid,) = cur.fetchone()  # type: ignore[misc]
            cur.executemany(
                "INSERT INTO seats (table_id, seat, name, token_hash, is_bot)"
                " VALUES (%s, %s, %s, %s, false)",
                [(tid, s, f"A{s}", secrets.token_hex(32)) for s in range(5)],
            )
            cur.execute(
                "INSERT INTO hands (table_id, number, dealer, seed) VALUES (%s, 1, 0, %s)",
                (tid, i),
            )


async def scenario(url: str) -> float:
    abandon(url)
    app = create_app(Settings(database_url=url, review_workers=0, rate_limits=False))
    rng = random.Random(25)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
        for _ in range(QUEUED):  # their commits enqueue 50 reviews
            await play_hand(app, await open_table(client, 4), rng)
        last = await open_table(client, 5)
        room = await app.state.hub.room(last)
        # All but the last action of a 5-player hand, so that the end comes at a known time.
        bot = make_bot("heuristic")
        while True:
            hand = room.live.hand
            seat = hand.to_move
            action = bot.act(engine.view(hand, seat), rng)
            if engine.apply(hand, seat, action).is_over:
                break
            assert await act(room, seat, action) is None

        env = {**os.environ, "DATABASE_URL": url, "REVIEW_WORKERS": "1", "LOG_LEVEL": "WARNING"}
        command = [sys.executable, "-m", "app.worker"]
        if shutil.which("taskset"):
            command = ["taskset", "-c", "0", *command]
        worker = subprocess.Popen(command, cwd=ROOT, env=env)
        try:
            db = app.state.db_engine
            # Wait until the worker is busy with the backlog (one review running).
            while not await _running(db):
                await asyncio.sleep(0.1)
            await asyncio.sleep(1.0)
            assert await act(room, seat, action) is None
            ended, cpu = time.monotonic(), _tree_cpu(worker.pid)
            tid = int(room.live.table_id)
            opened = await client.get(f"/api/tables/{last}/hands/1/review")
            assert opened.json()["status"] in ("pending", "running"), opened.text
            while True:
                state = await reviews.read(db=db, table_id=tid, hand_number=1)
                if state is not None and state.status in ("done", "failed"):
                    break
                await asyncio.sleep(0.1)
            took = time.monotonic() - ended
            cpu = _tree_cpu(worker.pid) - cpu
            print(f"CPU used by the worker and its pool meanwhile: {cpu:.1f} s")
            print(f"load average meanwhile: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
            assert state.status == "done", state
            done = await _done(db)
            print(f"reviews done meanwhile: {done} (of {QUEUED} queued + 1)")
        finally:
            worker.terminate()
            worker.wait(timeout=30)
    await release(app)
    return took


def _tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) of ``pid`` and its children now (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pids = [pid]
    while pids:
        current = pids.pop()
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        pids.extend(int(child) for child in children)
    return total


async def _running(db) -> bool:
    import sqlalchemy as sa

    async with db.connect() as conn:
        query = sa.text("SELECT count(*) FROM hand_reviews WHERE status = 'running'")
        return bool((await conn.execute(query)).scalar())


async def _done(db) -> int:
    import sqlalchemy as sa

    async with db.connect() as conn:
        query = sa.text("SELECT count(*) FROM hand_reviews WHERE status = 'done'")
        return int((await conn.execute(query)).scalar() or 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--server",
        default=os.environ.get("MU_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1/postgres"),
    )
    args = parser.parse_args()
    admin = make_url(args.server).set(drivername="postgresql", database="postgres")
    admin_url = admin.render_as_string(hide_password=False)
    name = f"mu_bench_{secrets.token_hex(4)}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = admin.set(database=name).render_as_string(hide_password=False)
    try:
        upgrade_head(url)
        took = asyncio.run(scenario(url))
        print(f"{ABANDONED} abandoned hands, {QUEUED} queued reviews, one worker (1 core):")
        print(f"review of the just-finished 5-player hand ready {took:.1f} s after it ended")
    finally:
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
