"""Actions carried in the commit notes: another process's action replayed without reading it.

Most commits are one action (a bid, a card). Their note carries the action itself
(:class:`wire.Played`, made by :func:`note`), and every other process with a socket at the
table replays it onto the room it holds (``replay.advance``, the same replay as the log's)
instead of reading it back: one statement less per action on each of them, and on the
database. Everything else (a seat taken, a hand dealt with the action that ended the last one,
a host's marker) is announced as a bare :class:`wire.Commit` and read from the log.

A carried action is used only when it continues the state held exactly: the room is at the
version before it (the writer's version guard computed it on that state) and it is the next
``seq``. A note lost, heard out of order (two processes' batches race) or not understood falls
back to the log read, which reads whatever is missing.

A process of an older release ignores this kind of note (``wire.decode`` skips kinds it does
not know): during a rolling deploy its rooms catch up with the new processes' actions at its
periodic check, within ``RESYNC_SECONDS`` (logged as ``gap``).
"""

from __future__ import annotations

from app.protocol import wire
from app.tables.live import LiveTable, is_host_mark
from app.tables.replay import ReplayError, advance
from app.tables.rows import ActionRow
from app.tables.writer import Change


def carried(change: Change) -> ActionRow | None:
    """The action a commit's note carries: the change's one action, if it is nothing else."""
    if change.seats or change.hands or change.replaced or change.host_token_hash is not None:
        return None
    if len(change.actions) != 1 or is_host_mark(change.actions[0].action):
        return None
    return change.actions[0]


def note(table_id: int, version: int, change: Change) -> str:
    """The NOTIFY payload that announces ``change``, committed as ``version``."""
    row = carried(change)
    if row is not None:
        text = wire.encode(wire.Played(table_id, version, row))
        if wire.fits(text):
            return text
    return wire.encode(wire.Commit(table_id, version))


class CarriedActions:
    """The carried actions heard for the rooms being brought up to date, by table and version.

    The fan-out keeps a note's action while it wakes the room (:meth:`keep`), the room's
    catch-up takes what continues its state (:meth:`advance`), and the fan-out drops the
    table's actions once the room is current (:meth:`forget`): nothing is held for a table
    that is not being caught up.
    """

    def __init__(self) -> None:
        self._held: dict[int, dict[int, ActionRow]] = {}

    def keep(self, played: wire.Played) -> None:
        self._held.setdefault(played.table_id, {})[played.version] = played.row

    def forget(self, table_id: int) -> None:
        self._held.pop(table_id, None)

    def __len__(self) -> int:
        return sum(map(len, self._held.values()))

    def advance(self, live: LiveTable) -> LiveTable | None:
        """``live`` plus the carried actions that continue it, up to the newest one that
        does; None when none does (then the log is read)."""
        held = self._held.get(live.table_id)
        if not held:
            return None
        for version in [version for version in held if version <= live.version]:
            del held[version]  # already applied (or read from the log)
        rows: list[ActionRow] = []
        while (row := held.get(live.version + len(rows) + 1)) is not None:
            rows.append(row)
        if not rows:
            return None
        try:
            after = advance(live, version=live.version + len(rows), actions=rows)
        except ReplayError:
            return None  # not the state they were computed on after all: read the log
        return None if after.needs_deal else after
