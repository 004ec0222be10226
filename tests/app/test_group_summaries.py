"""Table summaries (app/groups/summaries.py): the engine's results round-trip exactly through
the stored form, the group pages read the stored summaries (and the stored ratings at a
season's start, app/groups/boards.py) after a restart without replaying a table, and a table
whose version moved on is summarized again."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select, update

import engine
from app.groups import boards, headtohead, replays, seasons, service, standings, summaries
from app.groups.models import GroupRatingStart, TableSummaryRow
from app.history.service import HandRecord, TableHistory
from app.tables import live as live_mod
from app.tables.models import Table
from app.tables.options import TableOptions
from engine.bots import make_bot
from tests.app.test_group_seasons import store_game
from tests.app.test_groups import new_group
from tests.app.test_history import http  # noqa: F401  (fixture)

AppClient = tuple[FastAPI, httpx.AsyncClient]


def played(variant: str, players: int, seed: int, hands: int = 5) -> TableHistory:
    """A game played through by the heuristic bot, in memory."""
    options = TableOptions(players=players, variant=variant, hands=hands)
    live = live_mod.new_table(table_id=7, invite_code="t", options=options)
    for seat in range(players):
        live = live_mod.seat(live, seat, live_mod.SeatInfo(f"P{seat}", f"h{seat}"))
    rng, bot = random.Random(seed), make_bot("heuristic")
    records = []
    while not live.game.over:
        live = live_mod.deal(live, rng.randrange(2**32))
        dealt = live.hand
        assert dealt is not None
        while live.hand is not None and not live.hand.is_over:
            seat = live.hand.to_move
            assert seat is not None
            live = live_mod.play(live, seat, bot.act(engine.view(live.hand, seat), rng))
        assert live.hand is not None
        records.append(HandRecord(len(records) + 1, dealt.dealer, dealt, (), live.hand))
    return TableHistory(live, datetime(2026, 11, 27, 20, tzinfo=UTC), tuple(records), None)


@pytest.mark.parametrize(("variant", "players"), [("classic", 4), ("revised", 3), ("revised", 5)])
def test_summaries_keep_the_engine_results_exactly(variant: str, players: int) -> None:
    history = played(variant, players, seed=players)
    times = {r.number: datetime(2026, 11, 27, 21, r.number, tzinfo=UTC) for r in history.hands}
    summary = summaries.summarize(history, times)
    stored = json.loads(json.dumps(summaries.to_json(summary)))  # as the database keeps it
    assert summaries.from_json(summary.table_id, stored) == summary
    assert [h.result for h in summary.hands] == [r.result for r in history.hands]
    assert (summary.totals, summary.over, summary.winners) == (
        history.game.totals, history.game.over, history.game.winners,
    )  # fmt: skip
    eklat = engine.HandResult(
        kind=engine.Outcome.STALEMATE, provocateur=1, bid=9, tied=(0, 1), bids=(9, 9, 2),
        bonus=(5, -10, 5), total=(5, -10, 5),
    )  # fmt: skip
    assert summaries.result_from_json(summaries.result_to_json(eklat)) == eklat


def forget() -> None:
    """Every in-process cache of the group pages emptied, as a restart leaves them."""
    for kept in (
        boards.BOARDS,
        boards.CARRIED,
        headtohead.KEPT,
        headtohead.SEATS,
        summaries.KEPT,
        replays.REPLAYS,
    ):
        kept.clear()
    seasons.forget_games()


@pytest.fixture
def replay_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The invite codes the group pages replay (``app.groups.replays.replayed``)."""
    calls: list[str] = []
    real: Callable[..., Any] = replays.replayed

    async def counting(session: Any, table_id: int, code: str, version: int) -> Any:
        calls.append(code)
        return await real(session, table_id, code, version)

    monkeypatch.setattr(replays, "replayed", counting)
    return calls


async def test_pages_after_a_restart_read_the_summaries(
    http: AppClient,  # noqa: F811
    replay_calls: list[str],
) -> None:
    app, client = http
    sessions = app.state.session_factory
    code = await new_group(client)
    now = datetime.now(UTC)
    ids = [
        await store_game(sessions, code, datetime(now.year - 1, 5, 1, tzinfo=UTC), 31),
        await store_game(sessions, code, now - timedelta(hours=3), 32, hands=3),
        await store_game(
            sessions, code, now - timedelta(hours=2), 33, names=("Anna", "Ben", "Eva")
        ),
    ]
    pages = [
        f"/g/{code}",
        f"/g/{code}?season=1",
        f"/g/{code}?season=all",
        f"/g/{code}/vs?a=anna&b=ben",
    ]
    forget()
    first = [(await client.get(page)).text for page in pages]
    assert len(set(replay_calls)) == len(replay_calls) == 3  # each table once
    async with sessions() as session:
        # This test's tables only: the worker's database holds other tests' tables too.
        mine = TableSummaryRow.table_id.in_(ids)
        query = select(TableSummaryRow.table_id, TableSummaryRow.version).where(mine)
        stored = dict((await session.execute(query)).all())
        query = select(Table.id, Table.version).where(Table.id.in_(ids))
        versions = dict((await session.execute(query)).all())
    assert stored == {tid: versions[tid] for tid in ids}
    async with sessions() as session:  # this season's ratings start from last year's
        group = await service.find_group(session_factory=sessions, code=code)
        assert group is not None
        query = select(GroupRatingStart).where(GroupRatingStart.group_id == group.id)
        starts = (await session.execute(query)).scalars().all()
    assert [set(s.ratings) for s in starts] == [{"anna", "ben", "cleo", "dan"}]

    forget()  # a restart: the summaries are in the database, nothing is replayed
    replay_calls.clear()
    assert [(await client.get(page)).text for page in pages] == first
    assert replay_calls == []

    # A table moved on (its version), and a summary of an older format: both made again.
    async with sessions() as session, session.begin():
        await session.execute(
            update(Table).where(Table.id == ids[1]).values(version=Table.version + 1)
        )
        await session.execute(
            update(TableSummaryRow).where(TableSummaryRow.table_id == ids[2]).values(format=0)
        )
    forget()
    assert [(await client.get(page)).text for page in pages] == first
    assert len(replay_calls) == 2
    async with sessions() as session:
        query = select(TableSummaryRow).where(TableSummaryRow.table_id.in_(ids))
        rows = (await session.execute(query)).scalars().all()
        assert {r.table_id: (r.version, r.format) for r in rows} == {
            tid: (versions[tid] + (tid == ids[1]), summaries.FORMAT) for tid in ids
        }


async def test_standings_from_stored_and_replayed_summaries_agree(http: AppClient) -> None:  # noqa: F811
    app, client = http
    sessions = app.state.session_factory
    code = await new_group(client)
    start = datetime(2026, 3, 1, 20, tzinfo=UTC)
    for n in range(3):
        await store_game(sessions, code, start + timedelta(days=n), 40 + n, hands=2)
    group = await service.find_group(session_factory=sessions, code=code)
    assert group is not None
    forget()
    made = await service.load_tables(session_factory=sessions, group=group)  # replayed
    forget()
    read = await service.load_tables(session_factory=sessions, group=group)  # stored rows
    assert read == made and all(t.summary.hands for t in read)
    everyone = standings.Filter()
    assert standings.build(read, [], everyone) == standings.build(made, [], everyone)
