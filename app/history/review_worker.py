"""Reviews finished hands (``engine.review``): the handler of the ``review`` jobs.

The commit that ends a hand enqueues its review job (``app/jobs``); whichever process runs jobs
(``python -m app.worker``, or a web process with ``REVIEW_WORKERS`` > 0) claims it and:

1. replays that one hand from its rows (``replay.load_hand``, not the whole table) and marks
   the review ``running`` under its own name;
2. judges the decisions in a process pool of ``REVIEW_WORKERS`` processes, a few decisions
   per task (``engine.review.review_moves``: the task gets the hand's record, a few KB, and
   judges each decision from its seat's view alone). The CPU work never runs on the event
   loop, so no table waits for it; sending a view per decision instead cost the server ~5 ms
   of pickling per hand on its own threads, which took the GIL from live play. The pool
   runs in the idle scheduling class (Linux ``SCHED_IDLE``, ``REVIEW_PRIORITY=idle``; else
   :data:`POOL_NICENESS` below the server): on a machine that also serves tables, a review
   takes the CPU the players leave, never their moves' time;
3. writes progress while the pool works (each write renews the job's lease) and the result at
   the end. A failure is retried by the queue, then shown as ``failed`` with its reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import UTC, datetime
from functools import partial
from typing import TypedDict

from sqlalchemy.ext.asyncio import AsyncEngine

import engine
from app.history import reviews, service
from app.jobs.queue import Claimed
from app.jobs.runner import Handler, Lease, LeaseLost, Unrecoverable
from app.tables import replay
from engine.review import DecisionReview, HandReview, review_moves

log = logging.getLogger(__name__)

PROGRESS_EVERY_SECONDS = 1.0
PARENT_CHECK_SECONDS = 1.0  # how soon a pool worker notices its server is gone
# The review pool's ``nice`` increment (Unix): live play first, reviews in the CPU left over.
POOL_NICENESS = 10


DECISIONS_PER_TASK = 8  # a review's progress moves in steps of about this many decisions


def _parts(total: int, processes: int) -> list[list[int]]:
    """The decisions ``0 .. total-1`` dealt into tasks of about DECISIONS_PER_TASK, and at
    least one task per pool process; interleaved, so each task has early and late moves
    (the late ones, with fewer unknown cards, are cheaper)."""
    count = max(1, min(total, max(processes, -(-total // DECISIONS_PER_TASK))))
    return [list(range(first, total, count)) for first in range(count)]


def review_seed(table_id: int, hand_number: int) -> int:
    """The review's random seed: fixed per hand, so a review can be reproduced (it reads
    only the seats' views, so the seed needs no secret)."""
    digest = hashlib.sha256(f"review:{table_id}:{hand_number}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def process_pool(processes: int, *, idle: bool = True) -> Executor:
    """The review pool; ``idle``: in the idle scheduling class (``REVIEW_PRIORITY``)."""
    # spawn: a fork of a process running an event loop and threads is not safe; a spawned
    # child imports only the engine.
    return ProcessPoolExecutor(
        processes,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=pool_worker,
        initargs=(os.getpid(), idle),
    )


def pool_worker(parent: int, idle: bool = True) -> None:
    """Pool initializer: yield the CPU to the server's live work, and end with the server."""
    if hasattr(os, "nice"):
        os.nice(POOL_NICENESS)
    if idle and hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        # Runs only on CPU nobody else wants (any user may lower its own priority this way;
        # a sandbox that forbids it leaves the pool at nice +10 rather than without reviews).
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    exit_with_parent(parent)


def exit_with_parent(parent: int) -> None:
    """End this pool worker once the server process that started it is gone.

    A pool worker holds its own end of the task queue, so a server killed (or stopped without
    waiting for its pool) would leave it waiting on that queue forever, one orphan per worker
    and restart."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="exit with parent", daemon=True).start()


class _Claim(TypedDict):
    db: AsyncEngine
    table_id: int
    hand_number: int
    worker: str


class ReviewWorker(Handler):
    """The ``review`` jobs' handler (see the module doc)."""

    def __init__(
        self,
        *,
        db_engine: AsyncEngine,
        processes: int,
        idle: bool = True,
        executor: Executor | None = None,
    ) -> None:
        self._db = db_engine
        self._processes = processes
        self._idle = idle
        self._executor = executor

    async def close(self) -> None:
        """Stop the pool (tasks not yet started are cancelled) and wait, off the event loop,
        until its workers are gone: the interpreter waits for them at exit anyway, and a pool
        still running then leaked its queues' semaphores, reported on every stop."""
        if self._executor is not None:
            await asyncio.to_thread(self._executor.shutdown, wait=True, cancel_futures=True)

    async def run(self, lease: Lease) -> None:
        job = lease.job
        assert job.table_id is not None and job.hand_number is not None
        # The hand alone, not the table: a long game's later hands cost no more to review.
        hand = await replay.load_hand(
            db_engine=self._db, table_id=job.table_id, number=job.hand_number
        )
        if hand is None or not hand.over:
            raise Unrecoverable(f"hand {job.hand_number} of table {job.table_id} is not finished")
        record = service.HandRecord(hand.number, hand.dealer, hand.dealt, hand.moves, hand.final)
        now = datetime.now(UTC)
        started = await reviews.start(**self._claim(lease), now=now)
        if not started:
            return  # reviewed already (a job enqueued again for a done review)
        try:
            result = await self._compute(lease, record)
        except BrokenProcessPool:
            self._executor = None  # a fresh pool next time; the queue retries this hand
            raise
        # Under this worker's name only: a job taken over meanwhile changes nothing here.
        if not await reviews.finish(**self._claim(lease), result=result):
            raise LeaseLost(f"review of table {job.table_id} hand {job.hand_number}")

    async def failed(self, job: Claimed, reason: str) -> None:
        assert job.table_id is not None and job.hand_number is not None
        await reviews.give_up(db=self._db, table_id=job.table_id, hand_number=job.hand_number)

    async def _compute(self, lease: Lease, record: service.HandRecord) -> dict[str, engine.JSON]:
        job = lease.job
        assert job.table_id is not None and job.hand_number is not None
        seed = review_seed(job.table_id, job.hand_number)
        moves = [(move.seat, move.action) for move in record.moves]
        total = len(moves)  # every move is a decision of its seat
        await self._report(lease, 0, total)
        if self._executor is None:
            self._executor = process_pool(self._processes, idle=self._idle)
        loop = asyncio.get_running_loop()
        # A few decisions per task, each task sent the hand's record (not a view per decision):
        # the server's threads pickle a few kilobytes per hand, so live play does not wait for
        # them, and the progress still moves every few decisions.
        futures = [
            loop.run_in_executor(
                self._executor,
                partial(review_moves, record.dealt, moves, part, seed=seed),
            )
            for part in _parts(total, self._processes)
        ]
        done: list[DecisionReview] = []
        pending: set[asyncio.Future[list[DecisionReview]]] = set(futures)
        last = time.monotonic()
        try:
            while pending:
                # Report (and so renew the lease) every PROGRESS_EVERY_SECONDS even when no
                # task ends meanwhile: a pool starved by live play (the idle class) is slow,
                # not dead, and must not lose its job to an expired lease.
                finished, pending = await asyncio.wait(
                    pending, timeout=PROGRESS_EVERY_SECONDS, return_when=asyncio.FIRST_COMPLETED
                )
                for future in finished:
                    done.extend(future.result())
                if time.monotonic() - last >= PROGRESS_EVERY_SECONDS or not pending:
                    last = time.monotonic()
                    await self._report(lease, len(done), total)
        finally:
            for other in futures:
                other.cancel()  # the lease was lost or a decision failed: stop the rest
        decisions = tuple(sorted(done, key=lambda d: d.move))
        rules = record.dealt.rules
        review = HandReview(rules.name, record.dealt.players, seed, decisions)
        return engine.to_json_object(review)

    async def _report(self, lease: Lease, progress: int, total: int) -> None:
        await lease.renew()
        claim = self._claim(lease)
        now = datetime.now(UTC)
        if not await reviews.report(**claim, progress=progress, total=total, now=now):
            raise LeaseLost(f"review of table {claim['table_id']} hand {claim['hand_number']}")

    def _claim(self, lease: Lease) -> _Claim:
        """Which review ``lease`` holds, as ``reviews.start``, ``report`` and ``finish`` take it."""
        job = lease.job
        assert job.table_id is not None and job.hand_number is not None
        return {
            "db": self._db,
            "table_id": job.table_id,
            "hand_number": job.hand_number,
            "worker": lease.worker,
        }
