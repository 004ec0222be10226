"""Waiting for a state, never for a time: the suite's one poll loop.

A test that must see something happen (a server answering, a row written, a process gone)
asks for it with :func:`wait_until` (or :func:`eventually` in async code), which returns as
soon as the condition holds and fails with ``what`` once ``timeout`` seconds have passed. The
timeouts are generous (a loaded two-core machine is slow); an idle one never waits them out.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

# How long to let the machine work before asking again: short enough not to lengthen a test,
# long enough not to steal the CPU from the process being waited for.
POLL_S = 0.02


def wait_until(condition: Callable[[], T], timeout: float, what: str) -> T:
    """The condition's first truthy value; AssertionError(``what``) after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < deadline, f"{what} (waited {timeout} s)"
        time.sleep(POLL_S)


async def eventually(condition: Callable[[], T | Awaitable[T]], timeout: float, what: str) -> T:
    """:func:`wait_until` for async tests; ``condition`` may be a coroutine function."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value  # type: ignore[return-value]
        assert time.monotonic() < deadline, f"{what} (waited {timeout} s)"
        await asyncio.sleep(POLL_S)
