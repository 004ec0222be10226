"""Two server processes on one PostgreSQL database (LISTEN/NOTIFY fan-out).

Real uvicorn processes (``tests/app/processes.py``) on a throw-away database; seats of one
table are split across them. Every hand is dealt from one fixed seed, so a run can be
compared view by view with a run on a single process.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from starlette.testclient import TestClient

from app.config import Settings
from app.main import create_app, release
from tests.app import databases
from tests.app.helpers import choose, create_table, next_of_type, seat_everyone, view_at
from tests.app.processes import ROOT, Seat, Server, open_table, running, started

postgres = pytest.mark.postgres


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with databases.postgres_database(databases.postgres_server()) as url:
        yield url


@pytest.fixture
async def servers(pg_url: str) -> AsyncIterator[list[Server]]:
    async with started(pg_url) as pair:
        yield pair


@pytest.fixture(scope="module")
def shared_servers(pg_url: str) -> Iterator[list[Server]]:
    """One pair for this module's tests that neither stop a process nor read its counters:
    each plays at tables of its own, so a pair started once serves them all (a start takes
    about 3 s of both cores). ``servers`` is a fresh pair for the others."""
    with running(pg_url) as pair:
        yield pair


def without_presence(message: dict[str, Any]) -> dict[str, Any]:
    # Who is connected depends on which process a socket is on; the game must not.
    view = message["view"]
    seats = [{**seat, "connected": None, "takeover_at": None} for seat in view["seats"]]
    return {"version": message["version"], "view": {**view, "seats": seats}}


async def connect(servers: list[Server], code: str, tokens: list[str | None]) -> list[Seat]:
    """Socket ``i`` on ``servers[i % len(servers)]``."""
    return [
        await Seat.connect(servers[index % len(servers)].ws, code, token)
        for index, token in enumerate(tokens)
    ]


async def settle(seats: list[Seat], version: int) -> list[dict[str, Any]]:
    return [await seat.at(version) for seat in seats]


async def step(seats: list[Seat], watchers: list[Seat], version: int) -> dict[str, Any]:
    """The seat to move plays ``choose``; waits until every socket shows the next version."""
    view = (await seats[0].at(version))["view"]
    mover = view["to_move"]
    action = choose((await seats[mover].at(version))["view"])
    await seats[mover].send({"type": "action", "version": version, "action": action})
    await settle(seats + watchers, version + 1)
    return {"seat": mover, "action": action}


async def play_to_hand(
    seats: list[Seat], watchers: list[Seat], version: int, hand: int
) -> list[list[dict[str, Any]]]:
    """Play until ``hand`` is dealt; every socket's view (presence aside) after each step."""
    history = []
    while (await seats[0].at(version))["view"]["hand_number"] < hand:
        await step(seats, watchers, version)
        version += 1
        history.append([without_presence(s.view or {}) for s in seats + watchers])
    return history


def log_of(pg_url: str, code: str) -> tuple[int, list[tuple[int, int, Any]]]:
    """The table's version and its action log (seq, seat, action) from the database."""
    with psycopg.connect(databases._admin_conninfo(pg_url)) as conn:
        table_id, version = conn.execute(
            "SELECT id, version FROM tables WHERE invite_code = %s", (code,)
        ).fetchone() or (None, None)
        rows = conn.execute(
            "SELECT seq, seat, action FROM actions WHERE table_id = %s ORDER BY seq", (table_id,)
        ).fetchall()
    assert version is not None
    return version, [(seq, seat, action) for seq, seat, action in rows]


async def close_all(sockets: list[Seat]) -> None:
    await asyncio.gather(*(s.close() for s in sockets))


@postgres
@pytest.mark.processes
async def test_a_hand_across_two_processes_matches_one_process(servers: list[Server]) -> None:
    bases = [server.http for server in servers]
    code, tokens = await asyncio.to_thread(open_table, bases, 5)
    seats = await connect(servers, code, list(tokens))  # seats 0, 2, 4 on A; 1, 3 on B
    watchers = await connect(servers, code, [None, None])  # a spectator on each
    split = await play_to_hand(seats, watchers, 5, hand=2)  # 5 joins, then hand 1 to its end
    await close_all(seats + watchers)

    ref_code, ref_tokens = await asyncio.to_thread(open_table, bases[:1], 5)
    ref_seats = await connect(servers[:1], ref_code, list(ref_tokens))
    ref_watchers = await connect(servers[:1], ref_code, [None, None])
    single = await play_to_hand(ref_seats, ref_watchers, 5, hand=2)
    await close_all(ref_seats + ref_watchers)

    assert len(split) > 20 and split == single
    # Each process took in the other's actions from the notes that carried them, not the log
    # (only a seat taken or a hand dealt is read back).
    for server in servers:
        text = (await asyncio.to_thread(httpx.get, f"{server.http}/metrics")).text
        catch_ups = {
            source: float(line.rsplit(" ", 1)[1])
            for source in ("carried", "log")
            for line in text.splitlines()
            if line.startswith(f'mu_catch_ups_total{{source="{source}"}}')
        }
        assert catch_ups["carried"] >= 8 and catch_ups["carried"] > 2 * catch_ups.get("log", 0)


@postgres
@pytest.mark.processes
async def test_duplicate_actions_to_both_processes_apply_once(
    shared_servers: list[Server], pg_url: str
) -> None:
    code, tokens = await asyncio.to_thread(open_table, [shared_servers[0].http], 3)
    on_a = await connect(shared_servers[:1], code, list(tokens))
    on_b = await connect(shared_servers[1:], code, list(tokens))
    version, steps = 3, 30
    for _ in range(steps):
        view = (await on_a[0].at(version))["view"]
        mover = view["to_move"]
        await on_b[mover].at(version)
        action = choose((await on_a[mover].at(version))["view"])
        message = {"type": "action", "version": version, "action": action}
        await asyncio.gather(on_a[mover].send(message), on_b[mover].send(message))
        # A ping after the action: every reply to the action arrives before its pong.
        await asyncio.gather(on_a[mover].send({"type": "ping"}), on_b[mover].send({"type": "ping"}))
        replies = [await replies_until_pong(seat) for seat in (on_a[mover], on_b[mover])]
        assert sorted(code for reply in replies for code in reply) == ["stale_version"]
        version += 1
        await settle(on_a + on_b, version)
    await close_all(on_a + on_b)
    stored_version, log = log_of(pg_url, code)
    assert stored_version == 3 + steps
    assert [seq for seq, _seat, _action in log] == list(range(1, steps + 1))


async def replies_until_pong(seat: Seat) -> list[str]:
    codes = []
    while (reply := await seat.reply())["type"] != "pong":
        codes.append(reply["code"])
    return codes


@postgres
@pytest.mark.processes
async def test_sigkill_mid_hand_loses_nothing(servers: list[Server], pg_url: str) -> None:
    bases = [server.http for server in servers]
    code, tokens = await asyncio.to_thread(open_table, bases, 5)
    seats = await connect(servers, code, list(tokens))
    version = 5
    for _ in range(9):
        await step(seats, [], version)
        version += 1
    # An action on its way to process A when A dies: committed or not, never half.
    mover = (await seats[0].at(version))["view"]["to_move"]
    on_a = [index for index in range(5) if index % 2 == 0]
    sender = mover if mover in on_a else on_a[0]
    action = choose((await seats[mover].at(version))["view"])
    await seats[sender].send({"type": "action", "version": version, "action": action})
    await asyncio.sleep(random.uniform(0, 0.01))
    servers[0].kill()
    for index in on_a:
        assert await seats[index].closed() is not None
    await asyncio.to_thread(servers[0].start)  # restarted on the same port

    # Seat 0 returns to the restarted process, seats 2 and 4 move to the other one.
    stored, _log = log_of(pg_url, code)
    assert stored >= version  # every acknowledged action is still there
    for index, server in zip(on_a, (servers[0], servers[1], servers[1]), strict=True):
        seats[index] = await Seat.connect(server.ws, code, tokens[index])
    views = await settle(seats, stored)
    assert {view["version"] for view in views} == {stored}
    history = await play_to_hand(seats, [], stored, hand=2)
    final = history[-1]
    await close_all(seats)

    stored, log = log_of(pg_url, code)
    assert [seq for seq, _seat, _action in log] == list(range(1, len(log) + 1))
    assert stored == 5 + len(log)
    # The same actions on one process, from scratch, end in the very same views.
    ref_code, ref_tokens = await asyncio.to_thread(open_table, bases[1:], 5)
    ref = await connect(servers[1:], ref_code, list(ref_tokens))
    for seq, seat, logged in log:
        await ref[seat].at(4 + seq)
        await ref[seat].send({"type": "action", "version": 4 + seq, "action": logged})
    await settle(ref, stored)
    assert [without_presence(s.view or {}) for s in ref] == final
    await close_all(ref)


@postgres
@pytest.mark.processes
async def test_sigterm_closes_sockets_with_going_away(servers: list[Server]) -> None:
    bases = [server.http for server in servers]
    code, tokens = await asyncio.to_thread(open_table, bases, 3)
    seats = await connect(servers, code, list(tokens))  # seats 0, 2 on A
    await step(seats, [], 3)
    # uvicorn re-raises the signal once it has shut down cleanly: "killed by SIGTERM".
    assert await asyncio.to_thread(servers[0].terminate) in (0, -signal.SIGTERM)
    assert [await seats[index].closed() for index in (0, 2)] == [1001, 1001]
    output = servers[0].output()
    events = [json.loads(line)["event"] for line in output.splitlines() if line.startswith("{")]
    assert "draining" in events and "commit" in events
    for index in (0, 2):  # the clients reconnect, here to the other process, and go on
        seats[index] = await Seat.connect(servers[1].ws, code, tokens[index])
    await settle(seats, 4)
    await step(seats, [], 4)
    await close_all(seats)


@pytest.mark.processes
def test_multi_process_on_sqlite_fails_at_start(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'mu.db'}",
        "MULTI_PROCESS": "1",
    }
    done = subprocess.run(
        [sys.executable, "-m", "app", "--port", "1"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "MULTI_PROCESS=1 needs PostgreSQL" in done.stderr


async def connected_on(seat: Seat, wanted: list[bool]) -> None:
    """Wait until this socket's newest view shows exactly ``wanted`` as connected."""
    await seat.until(lambda message: [s["connected"] for s in message["view"]["seats"]] == wanted)


@postgres
@pytest.mark.processes
async def test_presence_is_shared_between_processes(servers: list[Server]) -> None:
    bases = [server.http for server in servers]
    code, tokens = await asyncio.to_thread(open_table, bases, 3)
    seats = await connect(servers, code, list(tokens[:2]))  # seat 0 on A, seat 1 on B
    await connected_on(seats[0], [True, True, False])  # A sees B's seat...
    await connected_on(seats[1], [True, True, False])  # ...and B sees A's
    third = await Seat.connect(servers[1].ws, code, tokens[2])
    await connected_on(seats[0], [True, True, True])
    await third.close()
    await connected_on(seats[0], [True, True, False])
    servers[1].kill()  # its announcements stop: its seats turn away on A by themselves
    await connected_on(seats[0], [True, False, False])
    await seats[0].close()


def test_resync_sends_the_current_view_again(client: TestClient) -> None:
    code = create_table(client, players=3)
    tokens = seat_everyone(client, code)
    with (
        client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as seat,
        client.websocket_connect(f"/ws/{code}") as spectator,
    ):
        for ws, seat_index in ((seat, 0), (spectator, None)):
            first = next_of_type(ws, "view")
            ws.send_json({"type": "resync"})
            again = view_at(ws, first["version"])
            assert again["version"] >= 3 and again["view"]["seat"] == seat_index


async def test_healthz_is_503_without_a_database() -> None:
    # Nothing listens on port 1: the connection is refused at once.  (A SQLite file in a
    # missing folder fails too, but aiosqlite's worker thread may then report the failure
    # after the test's event loop has closed, which turns into a flaky teardown error.)
    unreachable = "postgresql://postgres@127.0.0.1:1/mu_missing"
    app = create_app(Settings(database_url=unreachable))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        response = await http.get("/healthz")
    await release(app)
    assert response.status_code == 503 and response.json()["status"] == "unavailable"


async def _reply_of_type(seat: Seat, kind: str) -> dict[str, Any]:
    while True:
        message = await seat.reply()
        if message["type"] == kind:
            return message


@postgres
@pytest.mark.processes
async def test_talk_reaches_the_sockets_of_the_other_process(shared_servers: list[Server]) -> None:
    """A line said on process A is stored once and pushed to process B's sockets (seated and
    spectators); a reaction too."""
    bases = [server.http for server in shared_servers]
    code, tokens = await asyncio.to_thread(open_table, bases, 3)
    seats = await connect(shared_servers, code, list(tokens))  # seats 0, 2 on A; 1 on B
    watchers = await connect(shared_servers, code, [None, None])
    await settle(seats + watchers, 3)
    await seats[0].send({"type": "chat", "text": "hello from A"})
    for seat in (seats[1], watchers[1], seats[2]):
        heard = await _reply_of_type(seat, "chat")
        assert heard["lines"][0]["text"] == "hello from A" and heard["lines"][0]["seat"] == 0
    await seats[1].send({"type": "react", "reaction": "wow"})
    reaction = await _reply_of_type(watchers[0], "reaction")
    assert reaction == {"type": "reaction", "seat": 1, "reaction": "wow"}
    await close_all(seats + watchers)
    # Stored once: a page opened later on either process gets the one line.
    late = await Seat.connect(shared_servers[1].ws, code, None)
    recent = await _reply_of_type(late, "chat")
    assert recent["recent"] is True and [line["text"] for line in recent["lines"]] == [
        "hello from A"
    ]
    await late.close()


@postgres
@pytest.mark.processes
async def test_an_undo_on_one_process_is_replayed_by_the_other(
    shared_servers: list[Server], pg_url: str
) -> None:
    """The undo marker is committed by the asking socket's process; the other process replays
    it (the fan-out's read of the log) to the same table."""
    bases = [server.http for server in shared_servers]
    code, tokens = await asyncio.to_thread(open_table, bases, 3)
    # Every seat on process A, a spectator on B.
    seats = await connect(shared_servers[:1], code, list(tokens))
    watcher = await Seat.connect(shared_servers[1].ws, code, None)
    await settle([*seats, watcher], 3)
    before = without_presence(await watcher.at(3))
    played = await step(seats, [watcher], 3)
    mover = played["seat"]
    await seats[mover].send({"type": "undo_ask", "version": 4})
    for seat in range(3):
        if seat != mover:
            await seats[seat].send({"type": "undo_answer", "version": 4, "allow": True})
    after = without_presence(await watcher.at(5))
    assert {**after["view"], "version": 0, "undoable_by": None} == {
        **before["view"],
        "version": 0,
        "undoable_by": None,
    }
    version, log = log_of(pg_url, code)
    assert version == 5 and [row[2]["type"] for row in log][-1] == "undo"
    await close_all([*seats, watcher])


@postgres
@pytest.mark.processes
async def test_people_on_the_other_process_answer_an_undo_request(
    shared_servers: list[Server],
) -> None:
    """The request is decided on the asking socket's process; the answer of a person whose
    socket is on the other process is relayed there."""
    bases = [server.http for server in shared_servers]
    code, tokens = await asyncio.to_thread(open_table, bases, 3)
    seats = await connect(shared_servers, code, list(tokens))  # seats 0, 2 on A; 1 on B
    await settle(seats, 3)
    view = (await seats[0].at(3))["view"]
    while view["to_move"] == 1:  # the asker must be on A
        await step(seats, [], seats[0].version)
        view = (await seats[0].at(seats[0].version))["view"]
    version = seats[0].version
    played = await step(seats, [], version)
    mover = played["seat"]
    await seats[mover].send({"type": "undo_ask", "version": version + 1})
    for seat in range(3):
        asked = await _reply_of_type(seats[seat], "undo")
        assert asked["state"] == "asked" and asked["seat"] == mover
    for seat in range(3):
        if seat != mover:
            await seats[seat].send({"type": "undo_answer", "version": version + 1, "allow": True})
    for seat in seats:
        back = await seat.at(version + 2)
        assert back["view"]["to_move"] == mover
    await close_all(seats)


def _pause_of(message: dict[str, Any]) -> dict[str, Any]:
    pause: dict[str, Any] = message["view"].get("pause") or {}
    return pause


def _agreed(message: dict[str, Any]) -> list[int] | None:
    request = _pause_of(message).get("request") or {}
    return request.get("agreed")


@postgres
@pytest.mark.processes
async def test_a_pause_agreed_across_two_processes_holds_on_both(
    shared_servers: list[Server], pg_url: str
) -> None:
    """Issue 40: a pause asked on process A and agreed on process B pauses the table for every
    socket; an action sent through B meanwhile is refused (``paused``) and changes nothing in
    the database; resumed on B, play goes on."""
    bases = [server.http for server in shared_servers]
    code, tokens = await asyncio.to_thread(open_table, bases, 3, takeover_seconds=None)
    seats = await connect(shared_servers, code, list(tokens))  # seats 0, 2 on A; 1 on B
    for seat in seats:  # each process sees the other's people: all three must agree
        await connected_on(seat, [True, True, True])
    await seats[0].send({"type": "pause_ask"})  # asked on A
    await seats[2].until(lambda m: _agreed(m) == [0])
    await seats[2].send({"type": "pause_answer", "agree": True})  # agreed on A
    await seats[1].until(lambda m: _agreed(m) == [0, 2])
    await seats[1].send({"type": "pause_answer", "agree": True})  # the last yes, on B
    views = [await seat.until(lambda m: bool(_pause_of(m).get("paused"))) for seat in seats]
    assert [_pause_of(view)["by"] for view in views] == [[0, 1, 2]] * 3
    stored, log = log_of(pg_url, code)
    assert {view["version"] for view in views} == {stored}
    # The mover's move through B (a second socket of that seat there): refused, nothing stored.
    mover = views[0]["view"]["to_move"]
    on_b = await Seat.connect(shared_servers[1].ws, code, tokens[mover])
    seen = await on_b.at(stored)
    action = choose(seen["view"])
    await on_b.send({"type": "action", "version": stored, "action": action})
    assert (await _reply_of_type(on_b, "error"))["code"] == "paused"
    assert log_of(pg_url, code) == (stored, log)
    await seats[1].send({"type": "resume"})  # resumed on B
    for seat in [*seats, on_b]:
        resumed = await seat.at(stored + 1)
        assert not _pause_of(resumed).get("paused")
    await on_b.send({"type": "action", "version": stored + 1, "action": action})
    await settle([*seats, on_b], stored + 2)
    after, rows = log_of(pg_url, code)
    assert after == stored + 2 and rows[-1][1] == mover and rows[-1][2]["type"] == action["type"]
    marks = [(row[1], row[2]["event"]) for row in rows if row[2]["type"] == "pause"]
    assert marks == [(0, "ask"), (2, "agree"), (1, "paused"), (1, "resume")]
    await close_all([*seats, on_b])
