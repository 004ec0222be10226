"""The background worker that reviews every finished hand once (``engine.review``).

One asyncio task per server process (started in the app's lifespan when ``REVIEW_WORKERS`` is
above 0) polls the database:

1. hands without a review row are replayed (the history's own replay); each one that is over
   gets a ``pending`` row (a table whose last hand is still being played is looked at again
   only once its version moved);
2. a pending review is claimed with a conditional UPDATE (``app.history.reviews``): with several
   processes on one PostgreSQL database, exactly one of them reviews each hand;
3. the decisions' views are built here and each decision is judged in a process pool of
   ``REVIEW_WORKERS`` processes: the CPU work never runs on the event loop, so no table waits
   for it, and a pool process gets one seat's view, never a hand's hidden cards;
4. progress is written while the pool works (which renews the claim) and the result at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import multiprocessing
import os
import secrets
import socket
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import UTC, datetime, timedelta
from functools import partial

from sqlalchemy.ext.asyncio import AsyncEngine

import engine
from app.db import SessionFactory
from app.history import reviews, service
from engine.review import DecisionReview, HandReview, decision_views, review_move

log = logging.getLogger(__name__)

CANDIDATES_PER_POLL = 500  # hands without a review row looked at per poll
PROGRESS_EVERY_SECONDS = 1.0
PARENT_CHECK_SECONDS = 1.0  # how soon a pool worker notices its server is gone


def review_seed(table_id: int, hand_number: int) -> int:
    """The review's random seed: fixed per hand, so a review can be reproduced (it reads
    only the seats' views, so the seed needs no secret)."""
    digest = hashlib.sha256(f"review:{table_id}:{hand_number}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def worker_name() -> str:
    """This process's name on its claims (host, pid and a random tag: unique per start)."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"


def process_pool(processes: int) -> Executor:
    # spawn: a fork of a process running an event loop and threads is not safe; a spawned
    # child imports only the engine.
    return ProcessPoolExecutor(
        processes,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=exit_with_parent,
        initargs=(os.getpid(),),
    )


def exit_with_parent(parent: int) -> None:
    """Pool initializer: end this worker once the server process that started it is gone.

    A pool worker holds its own end of the task queue, so a server killed (or stopped without
    waiting for its pool) would leave it waiting on that queue forever, one orphan per worker
    and restart."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="exit with parent", daemon=True).start()


class ReviewWorker:
    """Finds finished hands, claims them and reviews them in a pool (see the module doc)."""

    def __init__(
        self,
        *,
        db_engine: AsyncEngine,
        sessions: SessionFactory,
        processes: int,
        poll_seconds: float,
        stale_seconds: float,
        executor: Executor | None = None,
        name: str | None = None,
    ) -> None:
        self._db = db_engine
        self._sessions = sessions
        self._processes = processes
        self._poll = poll_seconds
        self._stale = timedelta(seconds=stale_seconds)
        self._executor = executor
        self.name = name or worker_name()
        self._unfinished: dict[int, int] = {}  # table id -> version whose last hand runs
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="hand reviews")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)

    async def _run(self) -> None:
        while True:
            try:
                while await self.run_once():
                    pass  # more may be waiting
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("hand review poll failed")
            await asyncio.sleep(self._poll)

    async def run_once(self) -> bool:
        """Queue the hands that ended, then review one claimable hand; whether one was."""
        await self.discover()
        now = datetime.now(UTC)
        for item in await reviews.claimable(db=self._db, stale_before=now - self._stale, limit=10):
            if await self._claim(item.table_id, item.hand_number):
                await self.review(item)
                return True
        return False

    async def discover(self) -> None:
        """A ``pending`` row for every finished hand that has none."""
        candidates = await reviews.unreviewed(db=self._db, limit=CANDIDATES_PER_POLL)
        tables: dict[int, list[reviews.Candidate]] = {}
        for candidate in candidates:
            tables.setdefault(candidate.table_id, []).append(candidate)
        self._unfinished = {t: v for t, v in self._unfinished.items() if t in tables}
        for table_id, hands in tables.items():
            code, version = hands[0].invite_code, hands[0].version
            if self._unfinished.get(table_id) == version:
                continue  # nothing happened at this table since its last hand was running
            history = await service.load(session_factory=self._sessions, invite_code=code)
            if history is None:
                continue
            for hand in hands:
                if history.hand(hand.hand_number) is None:
                    self._unfinished[table_id] = version
                else:
                    await reviews.add_pending(
                        db=self._db, table_id=table_id, hand_number=hand.hand_number
                    )

    async def _claim(self, table_id: int, hand_number: int) -> bool:
        now = datetime.now(UTC)
        return await reviews.claim(
            db=self._db,
            table_id=table_id,
            hand_number=hand_number,
            worker=self.name,
            now=now,
            stale_before=now - self._stale,
        )

    async def review(self, item: reviews.Claimable) -> None:
        """Review a claimed hand and store the result (``failed`` if it cannot be done)."""
        result: dict[str, engine.JSON] | None = None
        try:
            result = await self._compute(item)
        except asyncio.CancelledError:
            raise
        except BrokenProcessPool:
            log.exception(
                "the review pool broke (table %s hand %s)", item.table_id, item.hand_number
            )
            self._executor = None  # a fresh pool next time; this hand is marked failed
        except Exception:
            log.exception("review of table %s hand %s failed", item.table_id, item.hand_number)
        # Under this worker's claim only: a claim taken over meanwhile changes nothing here.
        await reviews.finish(
            db=self._db,
            table_id=item.table_id,
            hand_number=item.hand_number,
            worker=self.name,
            result=result,
        )

    async def _compute(self, item: reviews.Claimable) -> dict[str, engine.JSON] | None:
        history = await service.load(session_factory=self._sessions, invite_code=item.invite_code)
        record = None if history is None else history.hand(item.hand_number)
        if record is None:
            return None
        seed = review_seed(item.table_id, item.hand_number)
        moves = [(move.seat, move.action) for move in record.moves]
        todo = list(decision_views(record.dealt, moves))
        if not await self._report(item, 0, len(todo)):
            return None
        if self._executor is None:
            self._executor = process_pool(self._processes)
        loop = asyncio.get_running_loop()
        futures = [
            loop.run_in_executor(
                self._executor, partial(review_move, seen, action, seed=seed, move=index)
            )
            for index, seen, action in todo
        ]
        done: list[DecisionReview] = []
        last = time.monotonic()
        for future in asyncio.as_completed(futures):
            done.append(await future)
            if time.monotonic() - last >= PROGRESS_EVERY_SECONDS or len(done) == len(todo):
                last = time.monotonic()
                if not await self._report(item, len(done), len(todo)):
                    for other in futures:
                        other.cancel()
                    return None  # another process took the claim over
        decisions = tuple(sorted(done, key=lambda d: d.move))
        rules = record.dealt.rules
        review = HandReview(rules.name, record.dealt.players, seed, decisions)
        return engine.to_json_object(review)

    async def _report(self, item: reviews.Claimable, progress: int, total: int) -> bool:
        return await reviews.report(
            db=self._db,
            table_id=item.table_id,
            hand_number=item.hand_number,
            worker=self.name,
            progress=progress,
            total=total,
            now=datetime.now(UTC),
        )
