"""The fan-out's heartbeat: every resync round a process sends ``h:<its id>`` on the notify
connection and its listener should hear it back. One that has not heard its own for
:data:`ROUNDS` rounds is deaf (a listener stuck on a half-dead connection, a notifier that
cannot send): ``/readyz`` says not ready and the listener reconnects."""

from __future__ import annotations

import time
from collections.abc import Callable

# Rounds without one's own heartbeat before the listener counts as deaf.
ROUNDS = 3


class Pulse:
    def __init__(self, *, every: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.bound = ROUNDS * every
        self._clock = clock
        self._heard_at = clock()

    def restart(self) -> None:
        """A fresh listener: give it a whole bound to hear its first heartbeat."""
        self._heard_at = self._clock()

    def heard(self) -> None:
        self._heard_at = self._clock()

    @property
    def alive(self) -> bool:
        return self._clock() - self._heard_at <= self.bound
