"""One WebSocket connection's outbox, drained by its own sender task.

The table's writer never awaits a socket: it drops the newest snapshot into each outbox and
moves on. Views are full states, so a slow client that missed a version only needs the latest
one (older pending snapshots are replaced); replies such as errors are queued in order.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque

from starlette.websockets import WebSocket

from app.protocol import messages, present

# Replies waiting to be sent before the socket's next message is read: a client that sends
# without reading its answers is not read any further (TCP pushes back on it) instead of
# growing this queue.
MAX_PENDING_REPLIES = 64


class Connection:
    def __init__(
        self,
        websocket: WebSocket,
        seat: int | None,
        *,
        token_hash: str | None = None,
        sent_away: int = 0,
    ) -> None:
        self.websocket = websocket
        self.seat = seat
        # The seat token's hash: when the seat no longer holds it (the host removed the
        # person), the room closes this socket. Spectators: how often the host had sent the
        # spectators away when this one came (a later time closes it).
        self.token_hash = token_hash
        self.sent_away = sent_away
        self._ending: tuple[int, str] | None = None
        self._snapshot: present.Snapshot | None = None
        self._replies: deque[messages.ServerMessage] = deque()
        self._wake = asyncio.Event()
        self._room = asyncio.Event()  # set while fewer than MAX_PENDING_REPLIES wait
        self._room.set()

    def push_view(self, snapshot: present.Snapshot) -> None:
        self._snapshot = snapshot
        self._wake.set()

    def push(self, message: messages.ServerMessage) -> None:
        self._replies.append(message)
        if len(self._replies) >= MAX_PENDING_REPLIES:
            self._room.clear()
        self._wake.set()

    async def room_for_replies(self) -> None:
        """Return once the replies waiting to be sent are below MAX_PENDING_REPLIES."""
        await self._room.wait()

    async def pump(self) -> None:
        """Send whatever is pending until the task is cancelled or the socket fails."""
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                if self._ending is not None:
                    await self.close(*self._ending)
                    return
                while self._replies:
                    await self._send(self._replies.popleft())
                    if len(self._replies) < MAX_PENDING_REPLIES:
                        self._room.set()
                snapshot, self._snapshot = self._snapshot, None
                if snapshot is not None:
                    await self.websocket.send_text(messages.view_text(snapshot, self.seat))
        finally:
            self._room.set()  # nothing will be sent any more: never hold the reader back

    def end(self, code: int, reason: str) -> None:
        """Close the socket from its sender task (callers need not await); nothing queued
        is sent any more."""
        self._ending = (code, reason)
        self._wake.set()

    async def close(self, code: int, reason: str) -> None:
        """Close the socket (a client that already left is no error)."""
        with contextlib.suppress(Exception):
            await self.websocket.close(code, reason)

    async def _send(self, message: messages.ServerMessage) -> None:
        await self.websocket.send_text(messages.encode(message))
