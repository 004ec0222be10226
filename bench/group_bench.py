"""Server time of a group page: a 6-player game of 40 hands in the database (target <= 100 ms).

Builds a throw-away SQLite database (or the PostgreSQL one given by --database-url), migrated
like production; writes a group with one table whose 40 hands were played by the heuristic bot
(stored as the server stores them: seeds and the action log), and times ``GET /g/{code}``
in-process (the app's own handling, no network), printing the median and the 95th percentile:
with the table unchanged, while it is being played (one more action of its last hand before
each request), and replayed whole each time (as without the kept replays).

    .venv/bin/python bench/group_bench.py [--hands 40] [--players 6] [--runs 30]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa

import engine
from app.config import Settings
from app.db import create_engine, create_session_factory
from app.groups import boards, replays
from app.groups.kept import Kept
from app.groups.models import Group
from app.main import create_app, release
from app.migrate import upgrade_head
from app.tables import live as live_mod
from app.tables import tokens
from app.tables.models import Action, Hand, Seat, Table
from app.tables.options import TableOptions
from engine.bots import make_bot

NAMES = ["Anna", "Ben", "Conny", "Dora", "Emil", "Frieda"]


async def fill(database_url: str, players: int, hands: int) -> tuple[str, list[Any], int]:
    """A group with one game of ``hands`` hands, its last hand's last actions held back: the
    group's code, the held-back action rows and the table's id."""
    db = create_engine(database_url)
    sessions = create_session_factory(db)
    options = TableOptions(players=players, hands=hands)
    live = live_mod.new_table(table_id=0, invite_code="bench", options=options)
    for seat in range(players):
        live = live_mod.seat(live, seat, live_mod.SeatInfo(NAMES[seat], f"h{seat}"))
    bot, rng = make_bot("heuristic"), random.Random(7)
    hand_rows, action_rows, seq = [], [], 0
    while not live.game.over:
        seed = rng.randrange(2**62)
        number = live.game.hand_number + 1
        hand_rows.append((number, live.game.next_dealer, seed))
        live = live_mod.deal(live, seed)
        while live.hand is not None and not live.hand.is_over:
            seat = live.hand.to_move
            assert seat is not None
            action = bot.act(engine.view(live.hand, seat), rng)
            live = live_mod.play(live, seat, action)
            seq += 1
            action_rows.append((seq, number, seat, engine.action_to_json(action)))
    # Held back: all but the first action of the last hand (the table is being played).
    last_hand = [row for row in action_rows if row[1] == hands]
    held_back = last_hand[1:]
    action_rows = action_rows[: len(action_rows) - len(held_back)]
    seq = len(action_rows)
    code = tokens.new_invite_code()
    async with sessions() as session, session.begin():
        group = Group(code=code, name="Bench")
        session.add(group)
        await session.flush()
        table = Table(
            invite_code=tokens.new_invite_code(), options=options.to_json(), version=seq,
            group_id=group.id,
        )  # fmt: skip
        session.add(table)
        await session.flush()
        for seat in range(players):
            session.add(Seat(table_id=table.id, seat=seat, name=NAMES[seat], token_hash=f"h{seat}"))
        for number, dealer, seed in hand_rows:
            session.add(Hand(table_id=table.id, number=number, dealer=dealer, seed=seed))
        for s, number, seat, action in action_rows:
            session.add(
                Action(table_id=table.id, seq=s, hand_number=number, seat=seat, action=action)
            )
        table_id = table.id
    await db.dispose()
    return code, held_back, table_id


async def measure(
    database_url: str,
    code: str,
    runs: int,
    *,
    replay: bool = False,
    moves: tuple[int, list[Any]] | None = None,
) -> list[float]:
    """Server times of ``runs + 2`` requests; ``replay``: every request replays the whole table
    (the kept replays are dropped before each); ``moves`` (table id, action rows): one more
    action is committed before each request (not timed)."""
    app = create_app(Settings(database_url=database_url, review_workers=0, rate_limits=False))
    transport = httpx.ASGITransport(app=app)
    times = []
    replays.REPLAYS = replays._Replays()
    db = create_engine(database_url)
    async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
        for run in range(runs + 2):
            if replay:  # neither the kept replays nor the kept standings
                replays.REPLAYS = replays._Replays()
                boards.BOARDS = Kept(boards.BOARDS.size)
            if moves is not None and run > 0:
                await commit_action(db, moves[0], moves[1][run - 1])
            start = time.perf_counter()
            response = await client.get(f"/g/{code}")
            times.append(time.perf_counter() - start)
            assert response.status_code == 200, response.status_code
    await db.dispose()
    await release(app)
    return times


async def commit_action(db: Any, table_id: int, row: tuple[int, int, int, Any]) -> None:
    """One action appended to the log and the version bumped, as the table's writer does."""
    seq, number, seat, action = row
    async with db.begin() as conn:
        await conn.execute(
            sa.insert(Action).values(
                table_id=table_id, seq=seq, hand_number=number, seat=seat, action=action
            )
        )
        await conn.execute(
            sa.update(Table).where(Table.id == table_id).values(version=Table.version + 1)
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = args.database_url or f"sqlite:///{Path(folder) / 'bench.db'}"
        upgrade_head(url)
        code, held_back, table_id = asyncio.run(fill(url, args.players, args.hands))
        measured = asyncio.run(measure(url, code, args.runs))
        replayed = sorted(asyncio.run(measure(url, code, args.runs, replay=True))[2:])
        runs = min(args.runs, len(held_back) - 2)
        moving = asyncio.run(measure(url, code, runs, moves=(table_id, held_back)))
        moving = sorted(moving[2:])
    # The first request replays the table (and warms templates and catalogs); later ones reuse
    # the replay while the table's version is unchanged (app/groups/service.py).
    first, times = measured[0], sorted(measured[2:])
    p95 = _p95(times)
    print(f"group page, {args.players} players, {args.hands} hands, {len(times)} requests:")
    print(f"  first (replays the table) {first * 1000:.1f} ms")
    print(f"  median {statistics.median(times) * 1000:.1f} ms   p95 {p95 * 1000:.1f} ms")
    print(
        f"  while the table is played (one new action before each of {len(moving)} requests):"
        f" median {statistics.median(moving) * 1000:.1f} ms   p95 {_p95(moving) * 1000:.1f} ms"
    )
    print(
        f"  replaying the whole table every time: median"
        f" {statistics.median(replayed) * 1000:.1f} ms   p95 {_p95(replayed) * 1000:.1f} ms"
    )


def _p95(times: list[float]) -> float:
    return times[min(len(times) - 1, round(0.95 * len(times)) - 1)]


if __name__ == "__main__":
    main()
