"""The database goes away mid-hand and comes back: how soon does each process accept actions?

Shared by ``tests/app/test_db_restart.py`` (which checks that nothing acknowledged is lost and
nothing is applied twice) and ``bench/recovery.py`` (which prints the times). One or two server
processes run on a database of a private cluster (``pgcluster.py``); four seats of one table
alternate between them. After a few actions the cluster is crashed (``immediate`` stop, then
start: crash recovery), restarted cleanly (``fast``), or has every connection cut
(``pg_terminate_backend``); from the moment it accepts connections again, the seat to move keeps
trying its action (as the browser does after an ``unavailable`` error) until one is accepted
through every process.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass
from typing import Any, Literal

from tests.app.helpers import choose
from tests.app.pgcluster import Cluster
from tests.app.processes import Seat, Server, open_table

Disruption = Literal["crash", "restart", "cut"]
PLAYERS = 4


@dataclass
class Recovery:
    """Seconds from the database accepting connections again to the first action accepted
    through each process; the table's stored version and action log afterwards."""

    accepted_after: list[float]
    acknowledged: int  # actions whose new view every seat saw
    stored_version: int
    log_seqs: list[int]


def disrupt(cluster: Cluster, kind: Disruption) -> float:
    """Do ``kind`` to the cluster; returns when (monotonic) it accepts connections again."""
    if kind == "cut":
        cluster.terminate_connections()
        return time.monotonic()
    cluster.stop("immediate" if kind == "crash" else "fast")
    time.sleep(0.5)  # the processes notice (sockets fail) before the database is back
    cluster.start()
    return cluster.wait_ready()


async def _try_action(seat: Seat, mover: int, version: int) -> bool:
    """One try of the mover's action at ``version``; True once its view moved past it."""
    view = seat.view
    if view is None or view["version"] != version or view["view"]["to_move"] != mover:
        return seat.version > version
    action = choose(view["view"])
    with contextlib.suppress(ConnectionError):
        await seat.send({"type": "action", "version": version, "action": action})
    with contextlib.suppress(TimeoutError):
        await seat.at(version + 1, timeout=0.25)
        return True
    # No new view yet: an ``unavailable`` or ``stale_version`` answer; ask for the current view
    # (a process whose listener was away may have missed the other's commit).
    while not seat.others.empty():
        seat.others.get_nowait()
    with contextlib.suppress(ConnectionError):
        await seat.send({"type": "resync"})
    return False


async def _next_action(seats: list[Seat], timeout: float) -> float:
    """Play the next action, retrying until it is accepted; returns when (monotonic)."""
    deadline = time.monotonic() + timeout
    start = max(seat.version for seat in seats)
    while time.monotonic() < deadline:
        # A version past ``start`` is the action tried there, accepted after a try stopped
        # waiting for it (its commit waited for a new connection, or the connection broke
        # after the commit and the room read it back from the log): nobody else moves the
        # table, so it was applied, once.
        if max(seat.version for seat in seats) == start:
            mover = _mover(seats, start)
            if not await _try_action(seats[mover], mover, start):
                await asyncio.sleep(0.05)  # then try again, as the browser does after a refusal
                continue
        accepted = time.monotonic()
        with contextlib.suppress(TimeoutError):
            for seat in seats:
                await seat.at(start + 1, timeout=0.5)
        return accepted
    raise TimeoutError("no action was accepted")


def _mover(seats: list[Seat], version: int) -> int:
    view = next((s.view for s in seats if s.version == version), None)
    assert view is not None
    mover: int = view["view"]["to_move"]
    return mover


async def run(cluster: Cluster, servers: list[Server], kind: Disruption) -> Recovery:
    bases = [server.http for server in servers]
    code, tokens = await asyncio.to_thread(open_table, bases, PLAYERS, takeover_seconds=None)
    seats = [
        await Seat.connect(servers[i % len(servers)].ws, code, token)
        for i, token in enumerate(tokens)
    ]
    try:
        for seat in seats:
            await seat.at(PLAYERS)
        acknowledged = 0
        for _ in range(4):
            await _next_action(seats, 10)
            acknowledged += 1
        back = await asyncio.to_thread(disrupt, cluster, kind)
        # Through every process: the actions of seats on each one, until each had one accepted.
        accepted: dict[int, float] = {}
        while len(accepted) < len(servers):
            moved_at = await _next_action(seats, 60)
            acknowledged += 1
            version = max(seat.version for seat in seats)
            mover_seat = _last_mover(seats, version)
            accepted.setdefault(mover_seat % len(servers), moved_at - back)
        for _ in range(3):
            await _next_action(seats, 10)
            acknowledged += 1
    finally:
        await asyncio.gather(*(seat.close() for seat in seats), return_exceptions=True)
    stored, seqs = _log(cluster, servers[0].database_url, code)
    return Recovery(sorted(accepted.values()), acknowledged, stored, seqs)


def _last_mover(seats: list[Seat], version: int) -> int:
    # The seat whose action made ``version``: the one to move in the view just before it.
    for seat in seats:
        for message in reversed(seat.views):
            if message["version"] == version - 1:
                mover: int = message["view"]["to_move"]
                return mover
    return 0


def _log(cluster: Cluster, database_url: str, code: str) -> tuple[int, list[int]]:
    import psycopg

    name = database_url.rsplit("/", 1)[1]
    with psycopg.connect(cluster.dsn(name)) as conn:
        row = conn.execute("SELECT id, version FROM tables WHERE invite_code = %s", (code,))
        table_id, version = row.fetchone() or (None, -1)
        seqs = conn.execute(
            "SELECT seq FROM actions WHERE table_id = %s ORDER BY seq", (table_id,)
        ).fetchall()
    return int(version), [int(seq) for (seq,) in seqs]


def describe(result: Recovery) -> dict[str, Any]:
    return {
        "accepted_after_s": [round(x, 2) for x in result.accepted_after],
        "acknowledged": result.acknowledged,
        "stored_version": result.stored_version,
        "actions": len(result.log_seqs),
    }
