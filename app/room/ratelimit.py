"""Per-connection message budget: a token bucket (``rate`` per second, holding ``burst``).

A person at a table sends a few messages a minute (actions, a ping every 20 s); a client that
sends more than the bucket allows is answered ``rate_limited`` for each message over it, and
one that keeps doing so (``abuse_limit`` refused messages) is disconnected.
"""

from __future__ import annotations

import time
from collections.abc import Callable


class TokenBucket:
    """``take()`` is True while the sender is within its budget.

    >>> now = [0.0]
    >>> bucket = TokenBucket(rate=1.0, burst=2, clock=lambda: now[0])
    >>> [bucket.take() for _ in range(3)]
    [True, True, False]
    >>> now[0] = 1.0
    >>> bucket.take(), bucket.take()
    (True, False)
    """

    def __init__(
        self, *, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._rate = rate
        self._burst = float(burst)
        self._clock = clock
        self._tokens = float(burst)
        self._at = clock()

    def take(self) -> bool:
        now = self._clock()
        self._tokens = min(self._burst, self._tokens + (now - self._at) * self._rate)
        self._at = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True
