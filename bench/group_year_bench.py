"""Server time of a group's pages on a group with 1,000 games (issue 40): the group page (its
current season), an earlier season's page and a head-to-head page.

Builds a throw-away SQLite database (or the PostgreSQL one given by --database-url), migrated
like production; writes a group of six friends whose 1,000 four-player games (``--hands``
hands each, played by the heuristic bot and stored as the server stores them) were opened
over four calendar years (250 a year, the default seasons), and times each page in-process
(the app's own handling, no network):

- *first*: the very first request, which replays the tables it needs and stores their
  summaries (app/groups/summaries.py);
- *cold*: a request after every in-process cache of the group pages was emptied (as a
  restart or a full LRU leaves them), the summaries in the database: ``--cold`` times, median
  and 95th percentile (the app itself started: its templates compiled);
- *warm*: the next ``--runs`` requests of one app, median and 95th percentile.

Each with the median CPU time of the process (SQLite runs in it): on a shared, loaded machine
the wall times grow with the load, the CPU times much less.

    taskset -c 0 .venv/bin/python bench/group_year_bench.py [--games 1000] [--runs 30]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa

import engine
from app.config import Settings
from app.db import create_engine
from app.groups import boards, headtohead, replays, seasons, summaries
from app.groups.models import Group
from app.main import create_app, release
from app.migrate import upgrade_head
from app.tables import live as live_mod
from app.tables import tokens
from app.tables.models import Action, Hand, Seat, Table
from app.tables.options import TableOptions
from engine.bots import make_bot

FRIENDS = ["Anna", "Ben", "Conny", "Dora", "Emil", "Frieda"]
DISTINCT = 24  # distinct games played by the bot; the 1,000 tables repeat them


def play(seed: int, hands: int) -> tuple[list[tuple[int, int, int]], list[tuple[Any, ...]]]:
    """One 4-player game of ``hands`` hands: its hand rows and action rows."""
    options = TableOptions(players=4, hands=hands)
    live = live_mod.new_table(table_id=0, invite_code="bench", options=options)
    for seat in range(4):
        live = live_mod.seat(live, seat, live_mod.SeatInfo(FRIENDS[seat], f"h{seat}"))
    bot, rng = make_bot("heuristic"), random.Random(seed)
    hand_rows, action_rows = [], []
    while not live.game.over:
        number, deal = live.game.hand_number + 1, rng.randrange(2**62)
        hand_rows.append((number, live.game.next_dealer, deal))
        live = live_mod.deal(live, deal)
        while live.hand is not None and not live.hand.is_over:
            seat = live.hand.to_move
            assert seat is not None
            action = bot.act(engine.view(live.hand, seat), rng)
            live = live_mod.play(live, seat, action)
            action_rows.append((len(action_rows) + 1, number, seat, engine.action_to_json(action)))
    return hand_rows, action_rows


async def fill(database_url: str, games: int, hands: int) -> str:
    """The group's code; its ``games`` games spread over four years ending today."""
    played = [play(seed, hands) for seed in range(DISTINCT)]
    db = create_engine(database_url)
    code, rng = tokens.new_invite_code(), random.Random(1)
    now = datetime.now(UTC)
    first = datetime(now.year - 3, 1, 1, 19, tzinfo=UTC)
    step = (now - timedelta(hours=2) - first) / games
    async with db.begin() as conn:
        group_id = (
            await conn.execute(sa.insert(Group).values(code=code, name="Bench").returning(Group.id))
        ).scalar_one()
        for index in range(games):
            at = first + step * index
            hand_rows, action_rows = played[index % DISTINCT]
            names = rng.sample(FRIENDS, 4)
            table_id = (
                await conn.execute(
                    sa.insert(Table)
                    .values(
                        invite_code=tokens.new_invite_code(),
                        options=TableOptions(players=4, hands=hands).to_json(),
                        version=len(action_rows), group_id=group_id, created_at=at,
                    )
                    .returning(Table.id)
                )
            ).scalar_one()  # fmt: skip
            await conn.execute(
                sa.insert(Seat),
                [
                    {"table_id": table_id, "seat": s, "name": n, "token_hash": f"{table_id}.{s}"}
                    for s, n in enumerate(names)
                ],
            )
            await conn.execute(
                sa.insert(Hand),
                [
                    {"table_id": table_id, "number": n, "dealer": d, "seed": seed, "created_at": at}
                    for n, d, seed in hand_rows
                ],
            )
            await conn.execute(
                sa.insert(Action),
                [
                    {
                        "table_id": table_id, "seq": seq, "hand_number": number, "seat": seat,
                        "action": action, "created_at": at + timedelta(seconds=seq),
                    }
                    for seq, number, seat, action in action_rows
                ],
            )  # fmt: skip
    await db.dispose()
    return code


Timed = tuple[float, float]  # (wall, CPU) seconds of one request


async def measure(database_url: str, paths: list[str], runs: int) -> dict[str, list[Timed]]:
    """Per path: the server times of ``runs + 1`` requests of one app (the first makes what
    it needs)."""
    app = create_app(Settings(database_url=database_url, review_workers=0, rate_limits=False))
    times: dict[str, list[Timed]] = {}
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
        for path in paths:
            for _ in range(runs + 1):
                start, cpu = time.perf_counter(), time.process_time()
                response = await client.get(path)
                spent = (time.perf_counter() - start, time.process_time() - cpu)
                times.setdefault(path, []).append(spent)
                assert response.status_code == 200, (path, response.status_code)
    await release(app)
    return times


def forget() -> None:
    """Empty every in-process cache of the group pages, as a restart does."""
    for kept in (
        boards.BOARDS,
        boards.CARRIED,
        headtohead.KEPT,
        headtohead.SEATS,
        summaries.KEPT,
        replays.REPLAYS,
    ):
        kept.clear()
    seasons.forget_games()


async def measure_cold(database_url: str, paths: list[str], times: int) -> dict[str, list[Timed]]:
    """Per path: ``times`` requests of a running app, each after :func:`forget` (the summaries
    in the database: what a restart or a full LRU leaves)."""
    app = create_app(Settings(database_url=database_url, review_workers=0, rate_limits=False))
    cold: dict[str, list[Timed]] = {}
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
        assert (await client.get(paths[0])).status_code == 200  # the app's own first request
        for _ in range(times):
            for path in paths:
                forget()
                start, cpu = time.perf_counter(), time.process_time()
                response = await client.get(path)
                spent = (time.perf_counter() - start, time.process_time() - cpu)
                cold.setdefault(path, []).append(spent)
                assert response.status_code == 200, (path, response.status_code)
    await release(app)
    return cold


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--cold", type=int, default=10, help="cold first requests per page")
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--only-group-page", action="store_true", help="the group page alone")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = args.database_url or f"sqlite:///{Path(folder) / 'bench.db'}"
        upgrade_head(url)
        code = asyncio.run(fill(url, args.games, args.hands))
        pages = {"group page (current season)": f"/g/{code}"}
        if not args.only_group_page:
            pages["an earlier season's page"] = f"/g/{code}?season=1"
            pages["head to head"] = f"/g/{code}/vs?a=anna&b=ben"
        measured = asyncio.run(measure(url, list(pages.values()), args.runs))
        cold = asyncio.run(measure_cold(url, list(pages.values()), args.cold))
    print(f"{args.games} games of {args.hands} hands, 4 of 6 friends each, over four years:")
    for label, path in pages.items():
        first = measured[path][0][0]
        print(
            f"  {label}: first {first * 1000:.0f} ms; cold {_spread(cold[path])};"
            f" warm {_spread(measured[path][1:])}"
        )


def _spread(times: list[Timed]) -> str:
    """Median and 95th percentile of the wall times, and the median CPU time (the process's
    own work: what a loaded machine does not inflate)."""
    walls = sorted(wall for wall, _ in times)
    p95 = walls[min(len(walls) - 1, round(0.95 * len(walls)) - 1)]
    cpu = statistics.median(cpu for _, cpu in times)
    return (
        f"median {statistics.median(walls) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms"
        f" (CPU median {cpu * 1000:.1f} ms)"
    )


if __name__ == "__main__":
    main()
