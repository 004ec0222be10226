"""Undo by consent: one pending request per table, and who still has to say yes.

The player who made the last action asks; every other person at the table who is connected
and playing for themselves must allow it within ``UNDO_SECONDS``; bots (and bots standing in
for away people) allow at once. Any refusal, the time running out, or any further change to
the table (its version moves on) cancels it. The room (the table's single writer) owns the
request and commits the undo marker; this module only keeps the tally.
"""

from __future__ import annotations

from dataclasses import dataclass, field

UNDO_SECONDS = 10.0


@dataclass
class UndoRequest:
    seat: int  # who asks (made the last action)
    version: int  # the table version it applies to; any change cancels it
    deadline: float  # Unix time
    waiting: set[int] = field(default_factory=set)  # people who have not allowed it yet
    token_hash: str = ""  # the asking seat's token: the marker is committed only while it holds

    def allow(self, seat: int) -> bool:
        """Note ``seat``'s yes; True once nobody else has to agree."""
        self.waiting.discard(seat)
        return not self.waiting


def who_must_agree(
    *, asking: int, people: list[int], connected: tuple[bool, ...], stand_ins: frozenset[int]
) -> set[int]:
    """The people other than ``asking`` who play for themselves right now."""
    return {seat for seat in people if seat != asking and connected[seat] and seat not in stand_ins}
