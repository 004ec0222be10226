"""Per table, what a group's pages read of it (docs/groups.md, "Summaries"): the engine's typed
results of its finished hands (with each hand's finish time), its score sheet's totals and end,
its seats' names, its status; stored in ``table_summaries`` with the table's ``version``.

A summary is a cache of the server's own replay: made the first time a group page needs the
table at a version (the table replayed once, ``app.groups.replays``), then read as it is, after
a restart too, until the table's version moves on (every accepted change bumps it) or
:data:`FORMAT` changes. Nothing here scores a hand: a result is the engine's
``engine.HandResult``, stored as ``engine.to_json`` writes it and read back field by field;
the totals and winners are the engine's sheet's. Nothing of a hand in progress is kept.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

import engine
from app.db import SessionFactory
from app.groups import replays
from app.groups.kept import Kept
from app.groups.models import TableSummaryRow
from app.history.service import TableHistory
from app.tables.models import Action

# The stored form: a summary stored in another form is made again. It follows this module's
# layout (``_LAYOUT``, raised by hand) and the fields of the engine's result (a new one, say).
_LAYOUT = 1
_RESULT_FIELDS = ",".join(f.name for f in fields(engine.HandResult))
FORMAT = zlib.crc32(f"{_LAYOUT}:{_RESULT_FIELDS}".encode()) & 0x7FFFFFFF


@dataclass(frozen=True, slots=True)
class HandLine:
    """One finished hand: its number, when its last action was taken, the engine's result."""

    number: int
    finished_at: datetime | None
    result: engine.HandResult


@dataclass(frozen=True, slots=True)
class TableSummary:
    """What the standings, ratings and head-to-head count of one table, and what the group
    page lists of it."""

    table_id: int
    invite_code: str
    created_at: datetime | None
    variant: str
    players: int
    names: tuple[str, ...]
    status: str
    running: int | None  # the number of the hand in progress, if any
    totals: tuple[int, ...]  # the sheet's running totals
    over: bool
    winners: tuple[int, ...]  # once over
    hands: tuple[HandLine, ...]


def summarize(history: TableHistory, finished_at: Mapping[int, datetime]) -> TableSummary:
    """The summary of a replayed table; ``finished_at``: hand number -> its last action's time."""
    game = history.game
    return TableSummary(
        history.live.table_id, history.invite_code, history.created_at,
        history.live.options.variant, history.players, tuple(history.names), history.status,
        history.running, game.totals, game.over, game.winners,
        tuple(HandLine(r.number, finished_at.get(r.number), r.result) for r in history.hands),
    )  # fmt: skip


# HandResult's fields whose JSON form is an enum's value, and the fields' defaults: a result
# is stored without the fields at their default (most of a classic hand's revised keys).
_ENUMS: dict[str, Any] = {
    "kind": engine.Outcome,
    "vice_trump": engine.TrumpKind,
    "chief_trump": engine.TrumpKind,
    "winning_team": engine.Role,
}
_DEFAULTS = {f.name: f.default for f in fields(engine.HandResult)}


def result_to_json(result: engine.HandResult) -> dict[str, Any]:
    """``engine.to_json`` of the result, without the fields at their default."""
    plain = engine.to_json_object(result)
    return {name: v for name, v in plain.items() if getattr(result, name) != _DEFAULTS[name]}


def result_from_json(data: Mapping[str, Any]) -> engine.HandResult:
    """The result :func:`result_to_json` wrote (lists are the engine's tuples)."""
    values: dict[str, Any] = {}
    for name, value in data.items():
        if isinstance(value, list):
            value = tuple(value)
        elif value is not None and name in _ENUMS:
            value = _ENUMS[name](value)
        values[name] = value
    return engine.HandResult(**values)


def to_json(summary: TableSummary) -> dict[str, Any]:
    return {
        "code": summary.invite_code,
        "created_at": _time(summary.created_at),
        "variant": summary.variant,
        "players": summary.players,
        "names": list(summary.names),
        "status": summary.status,
        "running": summary.running,
        "totals": list(summary.totals),
        "over": summary.over,
        "winners": list(summary.winners),
        "hands": [
            [h.number, _time(h.finished_at), result_to_json(h.result)] for h in summary.hands
        ],
    }


def from_json(table_id: int, data: Mapping[str, Any]) -> TableSummary:
    return TableSummary(
        table_id, data["code"], _parse_time(data["created_at"]), data["variant"],
        data["players"], tuple(data["names"]), data["status"], data["running"],
        tuple(data["totals"]), data["over"], tuple(data["winners"]),
        tuple(HandLine(n, _parse_time(at), result_from_json(r)) for n, at, r in data["hands"]),
    )  # fmt: skip


def _time(at: datetime | None) -> str | None:
    return None if at is None else at.isoformat()


def _parse_time(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


# Summaries read in this process, by invite code (unique across databases, unlike a table's
# id) with their version, so that a page shown again decodes nothing.
KEPT: Kept[TableSummary] = Kept(4096)

Wanted = tuple[int, str, int]  # (table id, invite code, version)


async def current(
    *, session_factory: SessionFactory, session: AsyncSession, tables: Sequence[Wanted]
) -> list[TableSummary]:
    """The summaries of ``tables`` at their versions, in their order (a table gone since is
    left out): kept in this process, else the stored row, else made from a replay and stored."""
    found = {tid: s for tid, code, v in tables if (s := KEPT.get(code, v)) is not None}
    wanted = [t for t in tables if t[0] not in found]
    if wanted:
        found |= await _stored(session, wanted)
        missing = [t for t in wanted if t[0] not in found]
        if missing:
            made = await _made(session, missing)
            await _store(session_factory, made)
            found |= {tid: summary for tid, (_, summary) in made.items()}
    return [found[tid] for tid, _, _ in tables if tid in found]


async def _stored(session: AsyncSession, wanted: Sequence[Wanted]) -> dict[int, TableSummary]:
    versions = {tid: version for tid, _, version in wanted}
    codes = {tid: code for tid, code, _ in wanted}
    query = select(
        TableSummaryRow.table_id, TableSummaryRow.version, TableSummaryRow.summary
    ).where(
        TableSummaryRow.table_id.in_(versions),
        TableSummaryRow.format == FORMAT,
    )
    found = {}
    for tid, version, data in await session.execute(query):
        if versions[tid] == version:
            found[tid] = from_json(tid, data)
            KEPT.put(codes[tid], version, found[tid])
    return found


async def _made(
    session: AsyncSession, missing: Sequence[Wanted]
) -> dict[int, tuple[int, TableSummary]]:
    """Each missing table replayed (continuing a replay kept in this process, if any) and
    summarized, with the version it was read at."""
    histories = {}
    codes = {tid: code for tid, code, _ in missing}
    for tid, code, version in missing:
        history = await replays.replayed(session, tid, code, version)
        if history is not None:
            histories[tid] = (version, history)
    times = await finish_times(session, list(histories))
    made = {}
    for tid, (version, history) in histories.items():
        made[tid] = (version, summarize(history, times.get(tid, {})))
        KEPT.put(codes[tid], version, made[tid][1])
    return made


async def _store(
    session_factory: SessionFactory, made: Mapping[int, tuple[int, TableSummary]]
) -> None:
    """Write the summaries (a row newer than ours, written meanwhile, stays)."""
    if not made:
        return
    rows = [
        {"table_id": tid, "version": v, "format": FORMAT, "summary": to_json(s)}
        for tid, (v, s) in made.items()
    ]
    async with session_factory() as session, session.begin():
        dialect = session.get_bind().dialect.name
        insert = (postgresql.insert if dialect == "postgresql" else sqlite.insert)(TableSummaryRow)
        statement = insert.values(rows)
        new = statement.excluded
        await session.execute(
            statement.on_conflict_do_update(
                index_elements=["table_id"],
                set_={"version": new.version, "format": new.format, "summary": new.summary},
                where=(TableSummaryRow.version < new.version)
                | (TableSummaryRow.format != new.format),
            )
        )


async def finish_times(
    session: AsyncSession, table_ids: Sequence[int]
) -> dict[int, dict[int, datetime]]:
    """Per table, per hand number, the time of the hand's last action."""
    if not table_ids:
        return {}
    rows = await session.execute(
        select(Action.table_id, Action.hand_number, func.max(Action.created_at))
        .where(Action.table_id.in_(table_ids))
        .group_by(Action.table_id, Action.hand_number)
    )
    times: dict[int, dict[int, datetime]] = {}
    for table_id, number, at in rows:
        times.setdefault(table_id, {})[number] = at
    return times
