"""The group pages' replays of their tables, kept between requests.

A table whose summary (``app.groups.summaries``) is missing or older than the table is
replayed (``app.history.service``, the server's own replay); a replay kept from an earlier
page is used as it is, or continued by the rows committed since (a table being played costs
its newest moves).
"""

from __future__ import annotations

import contextlib
from collections import OrderedDict

from sqlalchemy.ext.asyncio import AsyncSession

from app.history.service import (
    ResumableHistory,
    TableHistory,
    continue_history,
    resumable_history,
)
from app.tables import replay, repository


class _Replays:
    """Replayed tables by invite code, each labelled with the table's ``version`` it shows.

    Every accepted change bumps a table's version in the database (one writer per table): a
    kept replay at the current version is used as it is; an older one is continued by the rows
    committed since (a table being played costs its newest moves, not a whole replay); a
    finished game is never replayed again. Bounded: the least recently used goes first."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._kept: OrderedDict[str, tuple[int, ResumableHistory]] = OrderedDict()

    def get(self, code: str) -> tuple[int, ResumableHistory] | None:
        kept = self._kept.get(code)
        if kept is not None:
            self._kept.move_to_end(code)
        return kept

    def put(self, code: str, version: int, history: ResumableHistory) -> None:
        self._kept[code] = (version, history)
        self._kept.move_to_end(code)
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)

    def clear(self) -> None:
        self._kept.clear()


REPLAYS = _Replays()


async def replayed(
    session: AsyncSession, table_id: int, code: str, version: int
) -> TableHistory | None:
    """The table's history at ``version`` (read in this session) or later: the kept replay,
    continued if the table moved on, else a whole replay."""
    kept = REPLAYS.get(code)
    if kept is not None and kept[0] == version:
        return kept[1].history
    resumed = None
    if kept is not None:
        base = kept[1].base
        seats, hands, actions = await repository.load_after(
            session=session, table_id=table_id, hand_number=base.hand_number, seq=base.seq
        )
        # The version read first labels rows read after it: at worst an older label, and the
        # next page continues from the base again (by hand and seq, so nothing twice).
        with contextlib.suppress(replay.ReplayError):  # not a continuation: replay it all
            resumed = continue_history(
                kept[1], version=version, seats=seats, hands=hands, actions=actions
            )
    if resumed is None:
        rows = await repository.load_table(session=session, invite_code=code)
        if rows is None:
            return None
        resumed = resumable_history(rows)
        version = rows.table.version
    REPLAYS.put(code, version, resumed)
    return resumed.history
