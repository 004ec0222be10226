"""Sends the pushes: a seat's turn while nobody sits at it, the end of a game, "play again".

The notifier listens to every room (a ``RoomListener`` registered with the hub): each room
tells :meth:`Notifier.committed` after each of its commits (one process commits each
version). That event only schedules a background task: reading subscriptions, claiming each
push in the database (exactly once across processes, see ``store.claim``) and the HTTP request
to the push service (in a worker thread) never hold up the table. A push service answering
404 or 410 has dropped the subscription: so do we.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from app import logging as log
from app.config import Settings
from app.notify import store, vapid
from app.notify.texts import Kind, payload
from app.notify.vapid import VapidKeys
from app.protocol.present import Snapshot
from app.room.room import Room, RoomListener
from app.tables.live import LiveTable
from app.tables.writer import Change

# Sends one encrypted push; the push service's HTTP status (raises OSError when unreachable).
Send = Callable[[dict[str, Any], str, VapidKeys], int]
GONE = frozenset({404, 410})
# Seconds a push service may keep an undelivered push (a turn a day later is still news).
_TTL = 24 * 3600
PUSH_THREADS = 4  # pushes sent at once per process; more wait for a thread


def webpush_send(subscription: dict[str, Any], data: str, keys: VapidKeys) -> int:
    """One push through pywebpush (aes128gcm, VAPID-signed); blocking.

    pywebpush (with requests and aiohttp under it) is imported at the first push, not with the
    app: a fifth of a second of every process start that most processes never use."""
    import requests
    from py_vapid import Vapid
    from pywebpush import WebPushException, webpush

    vapid = Vapid.from_raw(keys.private_key.encode("ascii"))
    try:
        # A session of its own, closed at once: no connection outlives the push.
        with requests.Session() as session:
            response = webpush(
                subscription,
                data,
                vapid_private_key=vapid,
                vapid_claims={"sub": keys.subject},
                content_encoding="aes128gcm",
                ttl=_TTL,
                timeout=10,
                requests_session=session,
            )
    except WebPushException as exc:
        if exc.response is None:
            raise OSError("push service unreachable") from exc
        return int(exc.response.status_code)
    return int(getattr(response, "status_code", 201))


class Notifier(RoomListener):
    """The process's push sender (``app.state.notifier``)."""

    def __init__(self, *, db_engine: AsyncEngine, settings: Settings, send: Send = webpush_send):
        self._db = db_engine
        self._settings = settings
        self._keys: VapidKeys | None = None
        self._keys_lock = asyncio.Lock()
        self._send = send
        self._tasks: set[asyncio.Task[None]] = set()
        self._threads: ThreadPoolExecutor | None = None

    async def keys(self) -> VapidKeys:
        """The VAPID keys (the settings', else the stored pair, made on first use)."""
        if self._keys is None:
            async with self._keys_lock:
                if self._keys is None:
                    self._keys = await vapid.load_or_create(self._db, self._settings)
        return self._keys

    # -- what happened at a table ----------------------------------------------------------

    def committed(self, room: Room, before: LiveTable, after: Snapshot, change: Change) -> None:
        """A room committed a change (``before`` → ``after.live``): schedule its pushes."""
        live = after.live
        if live.status == "over" and before.status != "over":
            self._spawn(self._to_seats("game_over", live, _people(live)))
            return
        seat = _turn_begun(before, live)
        if seat is None or after.connected[seat]:
            return
        info = live.seats[seat]
        if info is not None and not info.bot:
            self._spawn(self._to_seats("turn", live, [seat]))

    async def notify_play_again(
        self, *, live: LiveTable, seats: Sequence[int], asker: str, version: int | None = None
    ) -> int:
        """Tell ``seats`` that ``asker`` wants to play again; the pushes sent. Once per
        (subscription, ``version``): pass the version of the request that asked."""
        return await self._to_seats("play_again", live, list(seats), name=asker, version=version)

    def play_again_asked(
        self, *, live: LiveTable, seats: Sequence[int], asker: str, version: int
    ) -> None:
        """Schedule :meth:`notify_play_again` (the asking request does not wait for the push
        services)."""
        self._spawn(self.notify_play_again(live=live, seats=seats, asker=asker, version=version))

    async def remind(self, *, live: LiveTable, seat: int) -> int:
        """The correspondence reminder: the seat's time for this move runs out soon."""
        return await self._to_seats("reminder", live, [seat])

    async def close(self) -> None:
        """Let the pushes under way finish (shutdown)."""
        await self.idle()
        if self._threads is not None:
            self._threads.shutdown(wait=False)
            self._threads = None

    async def idle(self) -> None:
        """Wait for every push scheduled so far, and for those they schedule."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    # -- sending ---------------------------------------------------------------------------

    def _spawn(self, work: Any) -> None:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _to_seats(
        self,
        kind: Kind,
        live: LiveTable,
        seats: list[int],
        *,
        name: str = "",
        version: int | None = None,
    ) -> int:
        at = live.version if version is None else version
        sent = 0
        try:
            subscriptions = await store.of_seats(self._db, table_id=live.table_id, seats=seats)
            for sub in subscriptions:
                if not await store.claim(
                    self._db,
                    subscription_id=sub.id,
                    table_id=live.table_id,
                    version=at,
                    kind=kind,
                ):
                    continue  # another process (or an earlier call) sent this one
                data = json.dumps(payload(kind, code=live.invite_code, lang=sub.lang, name=name))
                sent += await self._deliver(sub, data, kind=kind, table=live.table_id)
        except Exception as exc:  # a push must never take a table down; log and go on
            log.event(
                "push_failed",
                level=logging.ERROR,
                table=live.table_id,
                kind=kind,
                error=type(exc).__name__,
            )
        return sent

    async def _deliver(self, sub: store.Subscription, data: str, *, kind: str, table: int) -> int:
        try:
            keys = await self.keys()
            if self._threads is None:
                self._threads = ThreadPoolExecutor(PUSH_THREADS, thread_name_prefix="push")
            loop = asyncio.get_running_loop()
            status = await loop.run_in_executor(self._threads, self._send, sub.info(), data, keys)
        except OSError as exc:
            # Not the message: it names the endpoint, which is the subscriber's capability.
            log.event("push_unreachable", table=table, kind=kind, error=type(exc).__name__)
            return 0
        if status in GONE:
            await store.forget(self._db, sub.id)
            log.event("push_gone", table=table, kind=kind, status=status)
            return 0
        log.event("push_sent", table=table, kind=kind, status=status)
        return 1 if 200 <= status < 300 else 0


def _people(live: LiveTable) -> list[int]:
    return [i for i, info in enumerate(live.seats) if info is not None and not info.bot]


def _turn_begun(before: LiveTable, after: LiveTable) -> int | None:
    """The seat whose turn began with this change, or None (same seat still, or no hand)."""
    if after.status != "playing" or after.hand is None or after.hand.to_move is None:
        return None
    seat = after.hand.to_move
    was = before.hand.to_move if before.hand is not None and before.status == "playing" else None
    if was == seat and before.hand_number == after.hand_number:
        return None
    return seat
