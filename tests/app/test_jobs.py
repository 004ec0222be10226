"""The job queue (app/jobs): a finished hand's review is enqueued by the commit that ends it,
claims are exclusive leases taken over when they run out, failures are retried then shown with
their reason, a review somebody waits for goes first, reminders only touch tables in play, and
``python -m app.worker`` does the work without serving HTTP."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings, libpq_url
from app.history import reviews
from app.history.review_worker import ReviewWorker
from app.jobs import queue
from app.jobs.models import Job
from app.jobs.rows import NORMAL, REVIEW, JobRow, review_job
from app.jobs.runner import Handler, JobRunner, Lease
from app.main import create_app, release
from app.notify.pace import Reminders
from app.tables import tokens
from tests.app import databases
from tests.app.conftest import counting_seeds
from tests.app.test_history import AppClient, open_table, play

__all__ = ["http"]

from tests.app.test_history import http  # noqa: E402  (the fixture)
from tests.waiting import eventually

LEASE = timedelta(minutes=1)


@pytest.fixture(
    scope="module",
    params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)],
)
def database_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A database of this module's own (its tests count jobs)."""
    with databases.database(request.param, Path(tmp_path_factory.mktemp("jobs"))) as url:
        yield url


async def clear(db: AsyncEngine) -> None:
    async with db.begin() as conn:
        await conn.execute(sa.delete(Job))


async def jobs_of(db: AsyncEngine, table_id: int) -> list[tuple[str, int | None, str]]:
    query = sa.select(Job.kind, Job.hand_number, Job.status).where(Job.table_id == table_id)
    async with db.connect() as conn:
        return [tuple(row) for row in await conn.execute(query.order_by(Job.id))]  # type: ignore[misc]


async def table_id(app: FastAPI, code: str) -> int:
    room = await app.state.hub.room(code)
    return int(room.live.table_id)


async def test_a_hand_ending_enqueues_exactly_one_review(http: AppClient) -> None:
    app, client = http
    db = app.state.db_engine
    await clear(db)
    table = await open_table(app, client, players=3)
    tid = await table_id(app, table.code)
    await play(table, "played", stop_after=5)
    assert await jobs_of(db, tid) == []  # a hand still being played has none
    await play(table, "played")  # ends hand 1 (and deals hand 2 in the same commit)
    assert await jobs_of(db, tid) == [("review", 1, "queued")]
    await play(table, "played", stop_after=2)
    assert await jobs_of(db, tid) == [("review", 1, "queued")]


async def test_a_failed_commit_enqueues_nothing(http: AppClient) -> None:
    app, client = http
    db = app.state.db_engine
    await clear(db)
    table = await open_table(app, client, players=3)
    tid = await table_id(app, table.code)
    room = await app.state.hub.room(table.code)
    from app.tables.writer import Change, StaleWrite

    with pytest.raises(StaleWrite):  # the version guard fails: the job goes with it
        await app.state.writer.commit(
            table_id=tid,
            expected_version=room.live.version - 1,
            change=Change(jobs=[review_job(tid, 7)]),
        )
    assert await jobs_of(db, tid) == []
    await app.state.writer.commit(
        table_id=tid,
        expected_version=room.live.version,
        change=Change(jobs=[review_job(tid, 7), review_job(tid, 7)]),  # the key: once
    )
    assert await jobs_of(db, tid) == [("review", 7, "queued")]
    await clear(db)


async def _two_tables(app: FastAPI, client: Any) -> tuple[int, int]:
    first = await open_table(app, client, players=3)
    second = await open_table(app, client, players=3)
    return await table_id(app, first.code), await table_id(app, second.code)


async def test_claims_are_exclusive(http: AppClient) -> None:
    app, client = http
    db = app.state.db_engine
    await clear(db)
    one, two = await _two_tables(app, client)
    now = datetime.now(UTC)
    for tid in (one, two):
        assert await queue.enqueue(db, review_job(tid, 1), table_id=tid, now=now)
    assert not await queue.enqueue(db, review_job(one, 1), table_id=one, now=now)
    claims = await asyncio.gather(
        *(queue.claim(db, worker=f"w{i}", now=now, lease=LEASE) for i in range(4))
    )
    taken = sorted(job.table_id for job in claims if job is not None)
    assert taken == [one, two]  # each job to one claimer, nobody got nothing twice
    await clear(db)


@pytest.mark.postgres
async def test_postgres_claims_skip_locked_rows(http: AppClient) -> None:
    """A claimer does not wait for a row another transaction holds: it takes the next one."""
    app, client = http
    db = app.state.db_engine
    if db.dialect.name != "postgresql":
        pytest.skip("SKIP LOCKED is PostgreSQL's")
    await clear(db)
    one, two = await _two_tables(app, client)
    now = datetime.now(UTC)
    for tid in (one, two):
        await queue.enqueue(db, review_job(tid, 1), table_id=tid, now=now)
    url = libpq_url(app.state.settings.database_url)
    async with await psycopg.AsyncConnection.connect(url) as holder:
        # Another claimer's transaction, still open, holding the first job's row.
        await holder.execute(
            "SELECT id FROM jobs WHERE table_id = %s FOR UPDATE SKIP LOCKED", (one,)
        )
        job = await asyncio.wait_for(queue.claim(db, worker="b", now=now, lease=LEASE), 5)
        assert job is not None and job.table_id == two
        assert await asyncio.wait_for(queue.claim(db, worker="c", now=now, lease=LEASE), 5) is None
        await holder.rollback()
    await clear(db)


async def test_an_expired_lease_is_taken_over(http: AppClient) -> None:
    app, client = http
    db = app.state.db_engine
    await clear(db)
    tid, _ = await _two_tables(app, client)
    now = datetime.now(UTC)
    await queue.enqueue(db, review_job(tid, 1), table_id=tid, now=now)
    job = await queue.claim(db, worker="dies", now=now, lease=LEASE)
    assert job is not None
    assert await queue.claim(db, worker="other", now=now + LEASE / 2, lease=LEASE) is None
    assert await queue.renew(db, job.id, worker="dies", now=now + LEASE / 2, lease=LEASE)
    later = now + LEASE * 2
    taken = await queue.claim(db, worker="other", now=later, lease=LEASE)
    assert taken is not None and taken.id == job.id and taken.attempts == 2
    assert not await queue.renew(db, job.id, worker="dies", now=later, lease=LEASE)
    assert not await queue.complete(db, job.id, worker="dies", now=later)
    assert await queue.complete(db, job.id, worker="other", now=later)
    await clear(db)


class Flaky(Handler):
    def __init__(self) -> None:
        self.runs: list[int | None] = []
        self.gave_up: list[str] = []

    async def run(self, lease: Lease) -> None:
        self.runs.append(lease.job.table_id)
        if lease.job.hand_number == 1:
            raise RuntimeError("boom")

    async def failed(self, job: Any, reason: str) -> None:
        self.gave_up.append(reason)


async def test_retries_then_failed_with_its_reason(http: AppClient) -> None:
    app, client = http
    db = app.state.db_engine
    await clear(db)
    bad, good = await _two_tables(app, client)
    clock = [datetime.now(UTC)]
    await queue.enqueue(db, review_job(bad, 1), table_id=bad, now=clock[0])
    await queue.enqueue(db, review_job(good, 2), table_id=good, now=clock[0])
    flaky = Flaky()
    runner = JobRunner(db_engine=db, handlers={REVIEW: flaky}, clock=lambda: clock[0])
    assert await runner.run_once()  # the bad one first (older) ...
    assert await runner.run_once()  # ... which does not hold the good one back
    assert not await runner.run_once()  # the retry waits for its backoff
    assert flaky.runs == [bad, good]
    for _attempt in (2, 3):
        clock[0] += timedelta(hours=1)
        assert await runner.run_once()
    assert flaky.runs == [bad, good, bad, bad] and flaky.gave_up == ["RuntimeError: boom"]
    clock[0] += timedelta(days=1)
    assert not await runner.run_once()  # failed for good: never again
    state = await queue.state(db, review_job(bad, 1).key)
    assert state is not None and (state.status, state.last_error) == (
        "failed",
        "RuntimeError: boom",
    )
    await clear(db)


async def test_a_failed_review_says_why(http: AppClient, monkeypatch: pytest.MonkeyPatch) -> None:
    app, client = http
    db = app.state.db_engine
    await clear(db)
    table = await open_table(app, client, players=3)
    await play(table, "played")

    async def broken(*_args: Any) -> None:
        raise RuntimeError("the pool is gone")

    monkeypatch.setattr(ReviewWorker, "_compute", broken)
    handler = ReviewWorker(db_engine=db, processes=1)
    clock = [datetime.now(UTC)]
    runner = JobRunner(db_engine=db, handlers={REVIEW: handler}, clock=lambda: clock[0])
    for _attempt in range(3):
        assert await runner.run_once()
        clock[0] += timedelta(hours=1)
    url = f"/api/tables/{table.code}/hands/1/review"
    body = (await client.get(url)).json()
    assert body["status"] == "failed" and body["reason"] == "RuntimeError: the pool is gone"
    page = (await client.get(f"/t/{table.code}/hands/1")).text
    assert 'data-testid="review-failed"' in page and "the pool is gone" in page
    await clear(db)


async def test_a_review_somebody_waits_for_goes_first(http: AppClient) -> None:
    app, client = http
    db = app.state.db_engine
    await clear(db)
    backlog = await _two_tables(app, client)
    now = datetime.now(UTC)
    for tid in backlog:
        await queue.enqueue(db, review_job(tid, 1), table_id=tid, now=now)
    table = await open_table(app, client, players=3)
    await play(table, "played")  # queued last, behind the backlog
    waited = await table_id(app, table.code)
    assert (await client.get(f"/api/tables/{table.code}/hands/1/review")).json()[
        "status"
    ] == "pending"
    job = await queue.claim(db, worker="w", now=datetime.now(UTC), lease=LEASE)
    assert job is not None and (job.table_id, job.hand_number) == (waited, 1)
    await clear(db)


async def test_a_hand_from_before_the_queue_is_enqueued_when_opened(http: AppClient) -> None:
    app, client = http
    db = app.state.db_engine
    table = await open_table(app, client, players=3)
    await play(table, "played")
    await clear(db)  # as if the hand had ended before the jobs table existed
    tid = await table_id(app, table.code)
    assert await reviews.read(db=db, table_id=tid, hand_number=1) is None
    body = (await client.get(f"/api/tables/{table.code}/hands/1/review")).json()
    assert body["status"] == "pending"
    assert await jobs_of(db, tid) == [("review", 1, "queued")]
    await clear(db)


async def test_reminders_only_touch_tables_in_play(http: AppClient) -> None:
    """Finished (or abandoned) correspondence tables have no open reminder job: a reminder run
    loads no table but the one whose turn is due."""
    app, client = http
    db = app.state.db_engine
    await clear(db)
    async with db.begin() as conn:  # 40 correspondence tables with history, none in play
        for i in range(40):
            code = f"old-{i}-{os.getpid()}-{time.monotonic_ns()}"
            tid = (
                await conn.execute(
                    sa.text(
                        "INSERT INTO tables (invite_code, short_code, options, version) VALUES"
                        " (:code, :short, :options, 9) RETURNING id"
                    ),
                    {
                        "code": code,
                        "short": tokens.new_short_code(),
                        "options": '{"players": 3, "pace": "correspondence"}',
                    },
                )
            ).scalar_one()
            await conn.execute(
                sa.text("INSERT INTO hands (table_id, number, dealer, seed) VALUES (:t, 1, 0, 1)"),
                {"t": tid},
            )
    created = await client.post(
        "/api/tables", json={"players": 3, "pace": "correspondence", "move_hours": 24}
    )
    code = created.json()["invite_code"]
    for name in ("Anna", "Ben", "Conny"):
        seat = await client.post(f"/api/tables/{code}/seats", json={"name": name})
        assert seat.status_code in (200, 201), seat.text
    client.cookies.clear()
    hub = app.state.hub
    opened: list[str] = []
    original = hub.room

    async def room(invite_code: str) -> Any:
        opened.append(invite_code)
        return await original(invite_code)

    hub.room = room
    reminders = Reminders(
        db_engine=db,
        hub=hub,
        notifier=app.state.notifier,
        clock=lambda: datetime.now(UTC) + timedelta(hours=23),
    )
    await reminders.scan()
    assert opened == [code]  # nothing else was loaded
    opened.clear()
    await reminders.scan()
    assert opened == []  # and once only
    await clear(db)


@pytest.mark.postgres
@pytest.mark.processes
def test_python_m_app_worker_reviews_a_hand(tmp_path: Path) -> None:
    with databases.database("postgres", tmp_path) as url:
        app = create_app(Settings(database_url=url, review_workers=0), seeds=counting_seeds())

        async def finish_a_hand() -> tuple[int, str]:
            import httpx

            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
                table = await open_table(app, client, players=3)
                await play(table, "played")
                tid = await table_id(app, table.code)
            await release(app)
            return tid, table.code

        tid, _code = asyncio.run(finish_a_hand())
        env = {
            **os.environ,
            "DATABASE_URL": url,
            "REVIEW_WORKERS": "1",
            "JOB_POLL_SECONDS": "0.2",
            "REVIEW_PRIORITY": "low",  # a share of the CPU even while the other tests run
        }
        worker = subprocess.Popen(
            [sys.executable, "-m", "app.worker"],
            cwd=databases.ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        try:
            state = asyncio.run(_wait_for_review(url, tid, worker))
        finally:
            worker.terminate()
            output = worker.communicate(timeout=30)[0].decode()
        assert state is not None and state.status == "done", output
        assert worker.returncode == 0, output
        assert "worker_stopped" in output


async def _wait_for_review(url: str, tid: int, worker: subprocess.Popen[bytes]) -> Any:
    from app import db as dbm

    engine = dbm.create_engine(url)
    try:

        async def finished() -> Any:
            if worker.poll() is not None:
                return "the worker exited"
            state = await reviews.read(db=engine, table_id=tid, hand_number=1)
            return state if state is not None and state.status in ("done", "failed") else None

        state = await eventually(finished, 90, "the worker did not review the hand")
        return None if isinstance(state, str) else state
    finally:
        await engine.dispose()


def test_job_rows_carry_no_cards() -> None:
    """A review job names the table and the hand, nothing else."""
    row = review_job(5, 3)
    assert row == JobRow("review", "review:5:3", 3, None, NORMAL, None)
