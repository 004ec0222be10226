"""Bounds on reading a request head, which uvicorn does not have (slowloris).

uvicorn times out idle keep-alive connections, but not a connection that never finishes its
request line and headers: a client sending a header byte now and then, or nothing at all,
held a socket (and its memory) for ever. :func:`protocol` makes uvicorn's httptools protocol
close a connection whose request head is not complete within ``timeout`` seconds (of the
connection opening, or of the previous response), or grows past ``max_bytes``. The clock
stops once the head is complete: bodies and WebSocket traffic have limits of their own.
"""

from __future__ import annotations

import asyncio
import logging

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app import logging as log


class HeadGuardProtocol(HttpToolsProtocol):
    head_timeout = 10.0
    head_max_bytes = 65_536
    _head_timer: asyncio.TimerHandle | None = None
    _head_bytes = 0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._head_done()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        waiting = self._head_timer is not None
        super().data_received(data)
        if waiting and self._head_timer is not None:  # the head is still incomplete
            self._head_bytes += len(data)
            if self._head_bytes > self.head_max_bytes:
                self._give_up("too_large")

    def on_headers_complete(self) -> None:
        self._head_done()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # Waiting for the next request on this connection (uvicorn's keep-alive timeout closes
        # an idle one first; this one bounds a next head that arrives byte by byte).
        if not self.transport.is_closing() and not self.pipeline:
            self._await_head()

    def _await_head(self) -> None:
        self._head_done()
        self._head_bytes = 0
        self._head_timer = self.loop.call_later(self.head_timeout, self._give_up, "timeout")

    def _head_done(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _give_up(self, reason: str) -> None:
        self._head_done()
        log.event("request_head_refused", level=logging.DEBUG, reason=reason)
        if not self.transport.is_closing():
            self.transport.close()


def protocol(*, timeout: float, max_bytes: int) -> type[HeadGuardProtocol]:
    """uvicorn's ``http`` protocol class with these bounds."""
    attributes = {"head_timeout": timeout, "head_max_bytes": max_bytes}
    return type("HeadGuard", (HeadGuardProtocol,), attributes)
