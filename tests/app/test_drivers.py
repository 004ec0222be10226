"""One driver per table (issue 25.3): a stale write catches up by reading only the newer
actions; across processes exactly one process moves a table's bots and runs its takeover
clock (``app/bots/drivers.py``), and that clock survives a restart."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import replace
from typing import Any, cast

import httpx
import psycopg
import pytest

import engine
from app.bots.drivers import Hooks, Leases
from app.room.room import Room
from app.tables import live as tables_live
from app.tables.live import LiveTable, SeatInfo, TableOptions
from app.tables.replay import ReplayError
from app.tables.store import Store
from app.tables.writer import Change, StaleWrite
from engine.bots import random_action
from tests.app import databases
from tests.app.helpers import act_as_seated, choose
from tests.app.processes import Seat, Server, post, started
from tests.app.test_multiprocess import log_of
from tests.waiting import eventually

postgres = pytest.mark.postgres


def table() -> LiveTable:
    live = tables_live.new_table(table_id=7, invite_code="stale", options=TableOptions(players=3))
    for seat in range(3):
        live = tables_live.seat(live, seat, SeatInfo(f"P{seat}", f"hash{seat}"))
    return tables_live.deal(live, seed=5)


class StaleStore:
    """A database another process wrote first: every commit is stale."""

    def __init__(self, newer: LiveTable | None, *, fits: bool = True) -> None:
        self.db = None
        self.writer = self
        self._newer = newer
        self._fits = fits
        self.full_loads = 0
        self.newer_reads = 0

    async def commit(self, *, table_id: int, expected_version: int, change: Change) -> int:
        raise StaleWrite

    async def newer(self, live: LiveTable) -> LiveTable | None:
        self.newer_reads += 1
        if not self._fits:
            raise ReplayError("rebuilt under us")
        return self._newer

    async def load(self, invite_code: str) -> LiveTable | None:
        self.full_loads += 1
        return self._newer


def a_move(live: LiveTable) -> Any:
    assert live.hand is not None and live.hand.to_move is not None
    seat = live.hand.to_move
    return seat, random_action(engine.view(live.hand, seat), random.Random(1))


async def test_a_stale_commit_reads_only_the_newer_actions() -> None:
    live = table()
    elsewhere = replace(live, version=live.version + 1)
    store = StaleStore(elsewhere)
    room = Room(live, store=cast(Store, store), seeds=lambda: 1)
    seat, action = a_move(live)
    refusal = await act_as_seated(room, seat, live.version, action)
    assert refusal is not None and refusal.code == "stale_version"
    assert room.live is elsewhere
    assert (store.newer_reads, store.full_loads) == (1, 0)


async def test_a_stale_commit_replays_the_table_only_when_the_news_do_not_fit() -> None:
    live = table()
    elsewhere = replace(live, version=live.version + 3)
    store = StaleStore(elsewhere, fits=False)
    room = Room(live, store=cast(Store, store), seeds=lambda: 1)
    seat, action = a_move(live)
    assert await act_as_seated(room, seat, live.version, action) is not None
    assert room.live is elsewhere
    assert (store.newer_reads, store.full_loads) == (1, 1)


# -- two real processes on PostgreSQL -------------------------------------------------------

RESYNC_SECONDS = 1.0  # what tests/app/processes.py runs the servers with
ENV = {"BOT_DELAY_MS": "50", "LOG_FORMAT": "json"}


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with databases.postgres_database(databases.postgres_server()) as url:
        yield url


@pytest.fixture
async def servers(pg_url: str) -> AsyncIterator[list[Server]]:
    async with started(pg_url, env=ENV) as pair:
        yield pair


def events(server: Server, name: str, table_id: int) -> list[dict[str, Any]]:
    """The server's log events ``name`` of the table (JSON lines)."""
    found = []
    for line in server.output().splitlines():
        if not line.startswith("{"):
            continue
        record = json.loads(line)
        if record.get("event") == name and record.get("table") == table_id:
            found.append(record)
    return found


def add_bot(server: Server, code: str, seat: int, host_token: str) -> None:
    response = httpx.post(
        f"{server.http}/api/tables/{code}/bots",
        json={"seat": seat},
        headers={"Authorization": f"Bearer {host_token}"},
        timeout=10,
    )
    assert response.status_code == 201, response.text


def table_id_of(pg_url: str, code: str) -> int:
    with psycopg.connect(databases._admin_conninfo(pg_url)) as conn:
        row = conn.execute("SELECT id FROM tables WHERE invite_code = %s", (code,)).fetchone()
    assert row is not None
    return int(row[0])


def my_turn(index: int, *, after: int) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["version"] > after and m["view"]["to_move"] == index


async def play(seat: Seat, index: int) -> None:
    """A person at ``index`` who plays at once whenever it is their turn (until cancelled or
    the socket closes)."""
    done = -1
    with contextlib.suppress(ConnectionError):
        while True:
            message = await seat.until(my_turn(index, after=done), timeout=120)
            done = message["version"]
            await seat.send({"type": "action", "version": done, "action": choose(message["view"])})


async def stop(tasks: list[asyncio.Task[None]]) -> None:
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


@postgres
@pytest.mark.processes
async def test_one_process_moves_the_bots_and_the_other_takes_over_when_it_dies(
    servers: list[Server], pg_url: str
) -> None:
    a, b = servers
    created = post(a.http, "/api/tables", {"players": 4})
    code = created["invite_code"]
    tokens = [
        post(server.http, f"/api/tables/{code}/seats", {"name": "P"})["token"] for server in (a, b)
    ]
    add_bot(a, code, 2, created["host_token"])
    add_bot(b, code, 3, created["host_token"])
    table_id = table_id_of(pg_url, code)
    seats = [
        await Seat.connect(server.ws, code, token)
        for server, token in zip(servers, tokens, strict=True)
    ]
    players = [asyncio.create_task(play(seat, index)) for index, seat in enumerate(seats)]
    await seats[0].at(40, timeout=60)
    await seats[1].at(40, timeout=60)
    _stored, log = log_of(pg_url, code)

    # Every bot move was computed on one process only, once, and accepted.
    moves = {
        server.port: [e["version"] for e in events(server, "bot_move", table_id)]
        for server in servers
    }
    drivers = [server for server in servers if moves[server.port]]
    assert len(drivers) == 1
    driver = drivers[0]
    survivor = b if driver is a else a
    decided = moves[driver.port]
    assert len(decided) == len(set(decided))
    offset = 4  # the four joins' versions: the first action is decided on version 4
    bot_seqs = [seq for seq, seat, _action in log if seat in (2, 3)]
    # The move decided on version v is the action of seq v - offset + 1 (the last may be in flight).
    assert [v - offset + 1 for v in decided if v - offset + 1 <= len(log)] == bot_seqs
    assert "bot refused" not in driver.output()

    # The driver dies: the other process drives (within about 3 x RESYNC_SECONDS; how soon
    # is bench/recovery.py's to print, never a test's to assert).
    gone = servers.index(driver)
    driver.kill()
    await stop([players[gone]])
    await eventually(lambda: events(survivor, "driving", table_id), 30, "no takeover")
    seats[gone] = await Seat.connect(survivor.ws, code, tokens[gone])
    players[gone] = asyncio.create_task(play(seats[gone], gone))
    version = seats[1 - gone].version
    await seats[1 - gone].at(version + 20, timeout=60)  # the bots keep playing
    await stop(players)
    after = [e["version"] for e in events(survivor, "bot_move", table_id)]
    assert after and min(after) >= max(decided) and len(after) == len(set(after))
    await asyncio.gather(*(seat.close() for seat in seats))


def takeover_of(seat: int) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["view"]["seats"][seat]["takeover_at"] is not None


@postgres
@pytest.mark.processes
async def test_the_takeover_clock_survives_a_restart_of_every_process(
    servers: list[Server], pg_url: str
) -> None:
    a, b = servers
    code = post(a.http, "/api/tables", {"players": 3, "takeover_seconds": 300})["invite_code"]
    tokens = [
        post(server.http, f"/api/tables/{code}/seats", {"name": f"P{i}"})["token"]
        for i, server in enumerate((a, b, a))
    ]
    # Seat 2 never comes: away from the start. Seat 0 on A, seat 1 on B.
    seats = [
        await Seat.connect(server.ws, code, token)
        for server, token in zip(servers, tokens, strict=False)
    ]
    views = [await seat.until(takeover_of(2)) for seat in seats]
    before = views[0]["view"]["seats"][2]["takeover_at"]
    # The process that does not drive shows the driver's deadline too.
    assert abs(views[1]["view"]["seats"][2]["takeover_at"] - before) <= 1
    await asyncio.sleep(2)  # a clock restarted by the deploy would show a later deadline

    for server in servers:  # a deploy: every process goes, new ones come
        server.kill()
    await asyncio.gather(*(asyncio.to_thread(server.start) for server in servers))
    seats = [
        await Seat.connect(server.ws, code, token)
        for server, token in zip(servers, tokens, strict=False)
    ]
    for seat in seats:
        view = await seat.until(takeover_of(2))
        assert abs(view["view"]["seats"][2]["takeover_at"] - before) <= 1
    await asyncio.gather(*(seat.close() for seat in seats))


@postgres
async def test_one_lease_per_table_and_it_passes_on_when_its_holder_goes(pg_url: str) -> None:
    conninfo = databases._admin_conninfo(pg_url)
    first, second = (Leases(conninfo=conninfo, resync_seconds=0.1) for _ in range(2))
    gained: list[tuple[str, int]] = []
    await first.start(Hooks(lambda: [5, 6], lambda t: gained.append(("first", t))))
    await eventually(lambda: first.held == {5, 6}, 10, "the first holder took no lease")
    await second.start(Hooks(lambda: [6, 7], lambda t: gained.append(("second", t))))
    await eventually(lambda: second.drives(7), 10, "the second holder took no lease")
    await asyncio.sleep(0.3)  # a few rounds: table 6 stays with its holder
    assert not second.drives(6) and first.drives(6)
    await first.close()  # its connection goes, and its locks with it
    await eventually(lambda: second.drives(6), 10, "table 6 did not pass on")
    assert gained == [("first", 5), ("first", 6), ("second", 7), ("second", 6)]
    await second.close()
    assert second.held == frozenset()
