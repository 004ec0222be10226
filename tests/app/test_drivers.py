"""One driver per table (issue 25.3): a stale write catches up by reading only the newer
actions; across processes exactly one process moves a table's bots and runs its takeover
clock (``app/bots/drivers.py``), and that clock survives a restart."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, cast

import engine
from app.realtime.room import Room
from app.tables import live as tables_live
from app.tables.live import LiveTable, SeatInfo, TableOptions
from app.tables.replay import ReplayError
from app.tables.store import Store
from app.tables.writer import Change, StaleWrite
from engine.bots import random_action


def table() -> LiveTable:
    live = tables_live.new_table(table_id=7, invite_code="stale", options=TableOptions(players=3))
    for seat in range(3):
        live = tables_live.seat(live, seat, SeatInfo(f"P{seat}", f"hash{seat}"))
    return tables_live.deal(live, seed=5)


class StaleStore:
    """A database another process wrote first: every commit is stale."""

    def __init__(self, newer: LiveTable | None, *, fits: bool = True) -> None:
        self.db = None
        self.writer = self
        self._newer = newer
        self._fits = fits
        self.full_loads = 0
        self.newer_reads = 0

    async def commit(self, *, table_id: int, expected_version: int, change: Change) -> int:
        raise StaleWrite

    async def newer(self, live: LiveTable) -> LiveTable | None:
        self.newer_reads += 1
        if not self._fits:
            raise ReplayError("rebuilt under us")
        return self._newer

    async def load(self, invite_code: str) -> LiveTable | None:
        self.full_loads += 1
        return self._newer


def a_move(live: LiveTable) -> Any:
    assert live.hand is not None and live.hand.to_move is not None
    seat = live.hand.to_move
    return seat, random_action(engine.view(live.hand, seat), random.Random(1))


async def test_a_stale_commit_reads_only_the_newer_actions() -> None:
    live = table()
    elsewhere = replace(live, version=live.version + 1)
    store = StaleStore(elsewhere)
    room = Room(live, store=cast(Store, store), seeds=lambda: 1)
    seat, action = a_move(live)
    refusal = await room.act(seat, live.version, action)
    assert refusal is not None and refusal.code == "stale_version"
    assert room.live is elsewhere
    assert (store.newer_reads, store.full_loads) == (1, 0)


async def test_a_stale_commit_replays_the_table_only_when_the_news_do_not_fit() -> None:
    live = table()
    elsewhere = replace(live, version=live.version + 3)
    store = StaleStore(elsewhere, fits=False)
    room = Room(live, store=cast(Store, store), seeds=lambda: 1)
    seat, action = a_move(live)
    assert await room.act(seat, live.version, action) is not None
    assert room.live is elsewhere
    assert (store.newer_reads, store.full_loads) == (1, 1)
