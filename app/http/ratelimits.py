"""Request rates per client address for the calls that create things: tables and seats.

One address may open ``CREATE_TABLE_RATE`` tables and take ``JOIN_RATE`` seats (moving
windows, e.g. ``20/minute``); past that the answer is 429 with ``Retry-After`` and nothing is
created. The address is the peer's, or, for a peer in ``FORWARDED_ALLOW_IPS`` (a reverse
proxy), the client it names in ``X-Forwarded-For`` (uvicorn rewrites it before the app sees
it). Counters live where ``RATE_LIMIT_STORAGE`` says: this process's memory (``memory://``, the
default), or a Redis server (``redis://host:port/db``) that several processes share, so that
together they allow the configured rate, not that rate once per process.

Built on ``limits``, the engine under slowapi: slowapi's limiter is one object per process,
bound to routes by decorators at import time, while this app is built from its settings
(tests build many, each with its own limits); a dependency per route does the same job.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Coroutine
from typing import Any, Literal

import limits
from fastapi import Depends, FastAPI, Request
from fastapi.responses import JSONResponse
from limits.aio.storage import Storage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import storage_from_string

from app.http import metrics

Kind = Literal["create_table", "join"]


class TooManyRequests(Exception):
    def __init__(self, retry_after: int) -> None:
        super().__init__(f"retry after {retry_after} s")
        self.retry_after = retry_after


# The storage schemes RATE_LIMIT_STORAGE accepts, and the asynchronous ``limits`` scheme each
# stands for. Redis is served by the redis-py package (``implementation="redispy"``).
_SCHEMES = {
    "memory": "async+memory",
    "redis": "async+redis",
    "rediss": "async+rediss",
    "unix": "async+redis+unix",
}


def storage(uri: str, *, key_prefix: str = "mu-rates") -> Storage:
    """The ``limits`` storage a ``RATE_LIMIT_STORAGE`` URI names (``memory://``, ``redis://…``).

    Raises:
        ValueError: not one of the schemes above.
    """
    scheme, sep, rest = uri.partition("://")
    if not sep or scheme not in _SCHEMES:
        raise ValueError(f"RATE_LIMIT_STORAGE: expected memory:// or redis://…, got {uri!r}")
    target = f"{_SCHEMES[scheme]}://{rest}"
    if scheme == "memory":
        found = storage_from_string(target)
    else:
        found = storage_from_string(target, implementation="redispy", key_prefix=key_prefix)
    assert isinstance(found, Storage)
    return found


class RequestRates:
    """The counters of one app (``app.state.rates``)."""

    def __init__(
        self,
        *,
        enabled: bool,
        create_table: str,
        join: str,
        storage_uri: str = "memory://",
        key_prefix: str = "mu-rates",
    ) -> None:
        self.enabled = enabled
        self._storage = storage(storage_uri, key_prefix=key_prefix)
        self._limiter = MovingWindowRateLimiter(self._storage)
        self._items: dict[Kind, limits.RateLimitItem] = {
            "create_table": limits.parse(create_table),
            "join": limits.parse(join),
        }

    async def close(self) -> None:
        """Close the connections to a Redis storage (nothing to do in memory)."""
        client = getattr(getattr(self._storage, "bridge", None), "storage", None)
        if client is not None:
            await client.aclose()

    async def hit(self, kind: Kind, address: str) -> None:
        """Count one request of ``kind`` from ``address``.

        Raises:
            TooManyRequests: the address is over its rate; this request must not proceed.
        """
        if not self.enabled:
            return
        item = self._items[kind]
        if await self._limiter.hit(item, kind, address):
            return
        metrics.TOO_MANY.labels(kind).inc()
        stats = await self._limiter.get_window_stats(item, kind, address)
        raise TooManyRequests(max(1, math.ceil(stats.reset_time - time.time())))


def limited(kind: Kind) -> Any:
    """A route dependency: count this request against its client address."""

    async def check(request: Request) -> None:
        rates: RequestRates = request.app.state.rates
        await rates.hit(kind, request.client.host if request.client else "unknown")

    return Depends(check)


async def _too_many(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, TooManyRequests)
    message = f"too many requests from your address; try again in {exc.retry_after} s"
    return JSONResponse(
        {"detail": {"code": "rate_limited", "message": message}},
        status_code=429,
        headers={"Retry-After": str(exc.retry_after)},
    )


def install(app: FastAPI, rates: RequestRates) -> None:
    app.state.rates = rates
    handler: Callable[[Request, Exception], Coroutine[Any, Any, JSONResponse]] = _too_many
    app.add_exception_handler(TooManyRequests, handler)
