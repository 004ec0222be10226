"""A change to a live table as a build function makes it (see ``Room.apply``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from app.tables.live import LiveTable
from app.tables.writer import Change

R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Edit(Generic[R]):
    """What a build function makes of the table: the caller's ``reply`` and, unless nothing
    changes (a refusal, a request noted), the table ``after`` and the rows of the ``change``;
    ``then`` runs under the lock once the change is committed and broadcast."""

    reply: R
    after: LiveTable | None = None
    change: Change = field(default_factory=Change)
    then: Callable[[], None] | None = None


# Computes a change from the table as committed (it may run twice: see ``Room.apply``).
Build = Callable[[LiveTable], Edit[R]]
# Run before each build: raises to refuse (the host's token checked against the database).
Check = Callable[[LiveTable], Awaitable[None]]
