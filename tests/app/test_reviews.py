"""Hand reviews: a review job per finished hand (enqueued by the commit that ends it), claimed
by exactly one process, computed off the event loop, served by
``GET /api/tables/{code}/hands/{n}/review``."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi import FastAPI
from sqlalchemy.ext.asyncio import create_async_engine

import engine
from app.history import review_worker, reviews
from app.history.review_worker import ReviewWorker
from app.jobs import queue
from app.jobs.rows import REVIEW
from app.jobs.runner import JobRunner, Lease
from tests.app import databases
from tests.app.conftest import AppFactory
from tests.app.test_history import AppClient, Table, http, open_table, play
from tests.waiting import wait_until

REPO = Path(__file__).resolve().parents[2]

__all__ = ["http"]  # the fixture, imported from test_history


@pytest.fixture(
    scope="module",
    params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)],
)
def database_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A database of this module's own: a worker reviews every finished hand it finds, and
    these tests count what it does, so other modules' finished hands must not be there."""
    with databases.database(request.param, Path(tmp_path_factory.mktemp("reviews"))) as url:
        yield url


def worker(app: FastAPI, name: str, *, threads: bool = True, lease: float = 600) -> JobRunner:
    """A job loop with the review handler only (a real process pool unless ``threads``)."""
    handler = ReviewWorker(
        db_engine=app.state.db_engine,
        processes=1,
        executor=ThreadPoolExecutor(2) if threads else None,
    )
    return JobRunner(
        db_engine=app.state.db_engine,
        handlers={REVIEW: handler},
        poll_seconds=0.1,
        lease_seconds=lease,
        name=name,
    )


async def close(runner: JobRunner) -> None:
    await runner.close()
    await runner.handlers[REVIEW].close()  # type: ignore[attr-defined]


async def table_id(table: Table) -> int:
    room = await table.app.state.hub.room(table.code)
    return int(room.live.table_id)


async def test_two_claimers_one_wins(http: AppClient) -> None:
    app, client = http
    table = await open_table(app, client, players=3)
    await play(table, "played")
    tid, db = await table_id(table), app.state.db_engine
    now = datetime.now(UTC)
    lease = timedelta(minutes=10)
    won = await asyncio.gather(
        *(queue.claim(db, worker=name, now=now, lease=lease) for name in ("one", "two"))
    )
    assert sorted(job is None for job in won) == [False, True]
    job = next(job for job in won if job is not None)
    assert (job.kind, job.table_id, job.hand_number) == ("review", tid, 1)
    winner, loser = ("one", "two") if won[0] else ("two", "one")
    start = {"db": db, "table_id": tid, "hand_number": 1}
    assert await reviews.start(worker=winner, now=now, **start)
    progress = {"db": db, "table_id": tid, "hand_number": 1, "total": 9, "now": now}
    assert await reviews.report(worker=winner, progress=1, **progress)
    assert not await reviews.report(worker=loser, progress=2, **progress)
    # An abandoned claim (its lease ran out without renewal) is taken over once.
    later = now + timedelta(minutes=20)
    taken = await queue.claim(db, worker=loser, now=later, lease=lease)
    assert taken is not None and taken.id == job.id and taken.attempts == 2
    assert await queue.claim(db, worker=winner, now=later, lease=lease) is None
    assert not await queue.renew(db, job.id, worker=winner, now=later, lease=lease)
    assert await reviews.start(worker=loser, now=later, **start)
    assert not await reviews.finish(db=db, table_id=tid, hand_number=1, worker=winner, result={})
    state = await reviews.read(db=db, table_id=tid, hand_number=1)
    assert state is not None and state.status == "running" and state.progress == 0
    assert await queue.complete(db, job.id, worker=loser, now=later)  # leave nothing queued


async def test_the_review_api_from_pending_to_done(http: AppClient) -> None:
    app, client = http
    table = await open_table(app, client, players=4)
    await play(table, "played")
    await play(table, "played", stop_after=3)  # hand 2 is running
    url = f"/api/tables/{table.code}/hands"

    pending = await client.get(f"{url}/1/review")
    assert pending.status_code == 200
    assert pending.json() == {
        "status": "pending",
        "reason": None,
        "progress": {"done": 0, "total": 0},
        "seats": [],
        "decisions": [],
    }
    assert (await client.get(f"{url}/2/review")).json()["detail"]["code"] == "hand_in_progress"
    missing = await client.get(f"{url}/9/review")
    assert missing.status_code == 404 and missing.json()["detail"]["code"] == "unknown_hand"
    unknown = await client.get("/api/tables/nope/hands/1/review")
    assert unknown.status_code == 404 and unknown.json()["detail"]["code"] == "unknown_table"

    reviewer = worker(app, "solo", threads=False)  # a real process pool
    try:
        assert await reviewer.run_once()
        assert not await reviewer.run_once()  # hand 2 is not over: no job for it
    finally:
        await close(reviewer)
    body = (await client.get(f"{url}/1/review")).json()
    assert body["status"] == "done"
    hand = (await client.get(f"{url}/1")).json()
    actions = hand["actions"]
    assert [d["move"] for d in body["decisions"]] == list(range(len(actions)))
    assert body["progress"] == {"done": len(actions), "total": len(actions)}
    for decision, logged in zip(body["decisions"], actions, strict=True):
        assert decision["seat"] == logged["seat"]
        assert decision["taken"]["type"] == logged["action"]["type"]
        assert decision["loss"] >= 0 and decision["value_best"] >= decision["value_taken"] - 0.01
        assert decision["alternatives"][0]["best"]
        assert sum(a["taken"] for a in decision["alternatives"]) == 1
    assert [s["name"] for s in body["seats"]] == ["Anna", "Ben", "Conny", "Dora"]
    german = (await client.get(f"{url}/1/review?lang=de")).json()
    sentences = [m for s in german["seats"] for m in s["moments"]]
    assert all("Punkt" in m for m in sentences)


async def test_two_workers_review_each_hand_once(http: AppClient) -> None:
    app, client = http
    table = await open_table(app, client, players=3)
    await play(table, "played")
    first, second = worker(app, "first"), worker(app, "second")
    claimed: list[str] = []
    for w in (first, second):
        handler = w.handlers[REVIEW]
        original = handler.run

        async def run(lease: Lease, original=original) -> None:  # type: ignore[no-untyped-def]
            claimed.append(lease.worker)
            await original(lease)

        handler.run = run  # type: ignore[method-assign]
    try:
        results = await asyncio.gather(first.run_once(), second.run_once())
    finally:
        await close(first)
        await close(second)
    assert sorted(results) == [False, True] and len(claimed) == 1
    state = await reviews.read(
        db=app.state.db_engine, table_id=await table_id(table), hand_number=1
    )
    assert state is not None and state.status == "done" and state.result is not None
    assert state.result["players"] == 3 and engine.to_json(state.result["decisions"])


class SlowPool(ThreadPoolExecutor):
    """A pool that a busy machine starves: every task waits a while before it runs."""

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def,override]
        def slow():  # type: ignore[no-untyped-def]
            time.sleep(0.25)  # the starvation under test: a fixed delay before every task
            return fn(*args, **kwargs)

        return super().submit(slow)


async def test_a_starved_review_keeps_renewing_its_lease(
    http: AppClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A review renews its lease every PROGRESS_EVERY_SECONDS while its pool works, whether or
    not a task ended meanwhile: a pool in the idle class on a busy machine is slow, not dead,
    and must not lose its job (and an attempt) to an expired lease."""
    app, client = http
    table = await open_table(app, client, players=3)
    await play(table, "played")
    monkeypatch.setattr(review_worker, "PROGRESS_EVERY_SECONDS", 0.05)
    handler = ReviewWorker(db_engine=app.state.db_engine, processes=1, executor=SlowPool(1))
    reports: list[int] = []
    report = handler._report

    async def counting(lease: Lease, progress: int, total: int) -> None:
        reports.append(progress)
        await report(lease, progress, total)

    monkeypatch.setattr(handler, "_report", counting)
    runner = JobRunner(
        db_engine=app.state.db_engine,
        handlers={REVIEW: handler},
        poll_seconds=0.1,
        lease_seconds=600,
        name="starved",
    )
    try:
        assert await runner.run_once()
    finally:
        await close(runner)
    # Renewed while no task had ended (the same progress again), and to the end.
    assert any(a == b for a, b in zip(reports[1:], reports[2:], strict=False))
    assert reports == sorted(reports) and reports[-1] > 0


async def test_the_hand_page_shows_progress_then_the_review(http: AppClient) -> None:
    app, client = http
    table = await open_table(app, client, players=3)
    await play(table, "played")
    page = (await client.get(f"/t/{table.code}/hands/1")).text
    assert 'data-status="pending"' in page and 'data-testid="review-progress"' in page
    reviewer = worker(app, "page")
    try:
        assert await reviewer.run_once()
    finally:
        await close(reviewer)
    for lang, word in (("en", "Review"), ("de", "Analyse")):
        html = (await client.get(f"/t/{table.code}/hands/1?lang={lang}")).text
        assert f"<h2>{word}</h2>" in html and 'data-status="done"' in html
        assert html.count('data-testid="review-seat-') == 3
        assert html.count('data-testid="review-chart"') == 3 and "<polyline" in html
        assert "<details" in html
    section = (await client.get(f"/t/{table.code}/hands/1?review=1")).text
    assert section.lstrip().startswith("<section") and 'id="review"' in section


def test_the_worker_follows_its_setting(make_app: AppFactory) -> None:
    assert make_app(review_workers=0).state.reviews is None
    worker = make_app(review_workers=2).state.reviews
    assert isinstance(worker, ReviewWorker)


async def test_the_readers_own_moments_say_you(http: AppClient) -> None:
    app, client = http
    table = await open_table(app, client, players=3)
    await play(table, "played")
    reviewer = worker(app, "you")
    try:
        assert await reviewer.run_once()
    finally:
        await close(reviewer)
    body = (await client.get(f"/api/tables/{table.code}/hands/1/review")).json()
    seat = next(s["seat"] for s in body["seats"] if s["moments"])
    client.cookies.set(f"mu_seat_{table.code}", table.tokens[seat])
    html = (await client.get(f"/t/{table.code}/hands/1")).text
    mine = html.split(f'data-testid="review-seat-{seat}"', 1)[1].split("</article>", 1)[0]
    assert " cost you ~" in mine
    assert all(" cost you ~" not in m for s in body["seats"] for m in s["moments"])


@pytest.mark.processes
def test_a_pool_worker_ends_when_its_server_dies(tmp_path: Path) -> None:
    """A server killed with its review pool running leaves no worker waiting forever."""
    script = tmp_path / "dies.py"
    script.write_text(
        "import os\n"
        "from app.history.review_worker import process_pool\n"
        "if __name__ == '__main__':\n"
        "    pool = process_pool(1)\n"
        "    print(pool.submit(os.getpid).result(timeout=60), flush=True)\n"
        "    os._exit(0)  # as a kill would: no shutdown of the pool\n"
    )
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=90, cwd=REPO
    )
    worker_pid = int(done.stdout.split()[0])
    limit = 3 * review_worker.PARENT_CHECK_SECONDS + 5
    wait_until(lambda: not _alive(worker_pid), limit, "the pool worker outlived its server")


def test_closing_the_review_worker_waits_until_its_pool_is_gone() -> None:
    """A stopping server waits for its review pool (off the event loop): a pool left running
    at exit leaked its queues' semaphores, which the interpreter reported on every stop."""
    pool = review_worker.process_pool(1)
    worker_pid = pool.submit(os.getpid).result(timeout=120)
    db = create_async_engine("sqlite+aiosqlite://")
    handler = ReviewWorker(db_engine=db, processes=1, executor=pool)
    asyncio.run(handler.close())
    assert not _alive(worker_pid)
    asyncio.run(db.dispose())


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie has ended: it only waits to be reaped by init)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_the_review_pool_leaves_the_cpu_to_live_play_first() -> None:
    """A review process runs in the idle scheduling class, ``POOL_NICENESS`` below the
    server: the scheduler serves the players' moves first and the reviews from what is left."""
    pool = review_worker.process_pool(1)
    try:
        niceness = pool.submit(os.nice, 0).result(timeout=120)
        policy = pool.submit(os.sched_getscheduler, 0).result(timeout=120)
    finally:
        pool.shutdown()
    assert niceness == min(os.nice(0) + review_worker.POOL_NICENESS, 19)
    # Linux: the idle class, which runs only when no server (or database) thread wants a core.
    assert policy == os.SCHED_IDLE


def test_a_low_priority_review_pool_keeps_a_share_of_the_cpu() -> None:
    """``REVIEW_PRIORITY=low``: nice +10 in the normal class, so a machine busy all the time
    still reviews (slowly)."""
    pool = review_worker.process_pool(1, idle=False)
    try:
        policy = pool.submit(os.sched_getscheduler, 0).result(timeout=120)
    finally:
        pool.shutdown()
    assert policy == os.SCHED_OTHER


@pytest.mark.parametrize(("total", "processes"), [(74, 1), (74, 4), (5, 8), (1, 1), (17, 2)])
def test_a_review_is_split_into_tasks_that_cover_every_decision_once(
    total: int, processes: int
) -> None:
    parts = review_worker._parts(total, processes)
    assert sorted(move for part in parts for move in part) == list(range(total))
    assert all(parts) and len(parts) >= min(total, processes)  # every pool process has work
    assert max(map(len, parts)) <= max(review_worker.DECISIONS_PER_TASK, -(-total // processes))
