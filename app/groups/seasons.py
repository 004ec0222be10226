"""A group's seasons (docs/groups.md): how the group cuts its games into seasons, and which
season each game belongs to.

A *game* here is a table of the group with at least one hand dealt; it belongs to a season by
the day its table was opened (``tables.created_at``, in UTC). The group chooses the cut:

- ``year``: the calendar year (the default: a group without a rule row);
- ``dates``: seasons start on the dates the group lists (the games before the first date make
  a season of their own);
- ``games``: every ``every`` games, in the order the tables were opened.

Cutting reads one short row per game (id, version, date), never a table's history.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Literal

from sqlalchemy import Select, exists, func, select

from app.db import SessionFactory
from app.groups.kept import Kept
from app.groups.models import GroupSeasonRule
from app.groups.service import GroupInfo
from app.tables.models import Hand, Table

Kind = Literal["year", "dates", "games"]
KINDS: tuple[Kind, ...] = ("year", "dates", "games")
MAX_STARTS = 30  # dates a group may list (each 10 characters and a comma: 330 < 400)
EVERY_MIN, EVERY_MAX = 1, 1000


@dataclass(frozen=True, slots=True)
class Rule:
    kind: Kind = "year"
    starts: tuple[date, ...] = ()  # kind "dates": sorted, distinct
    every: int | None = None  # kind "games"


@dataclass(frozen=True, slots=True)
class Game:
    """One game of the group as the seasons see it: no history, just its row."""

    table_id: int
    version: int
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Season:
    """One season: ``number`` counts from 1 (the key in ``?season=``); ``start``/``end`` are
    the first day and the day after the last (None: open), for the dated kinds; ``first`` is
    the number of its first game (from 1) for ``games``."""

    number: int
    games: tuple[Game, ...]
    current: bool
    start: date | None = None
    end: date | None = None
    first: int | None = None
    last: int | None = None  # the number its last game will have (kind "games")


def parse_rule(kind: str, starts: str, every: str) -> Rule:
    """The rule from the settings form (``ValueError``: not a rule the page offers)."""
    if kind == "year":
        return Rule()
    if kind == "dates":
        days = sorted({date.fromisoformat(s.strip()) for s in starts.split(",") if s.strip()})
        if not days or len(days) > MAX_STARTS:
            raise ValueError(f"1 to {MAX_STARTS} start dates")
        return Rule("dates", tuple(days))
    if kind == "games":
        count = int(every)
        if not EVERY_MIN <= count <= EVERY_MAX:
            raise ValueError(f"{EVERY_MIN} to {EVERY_MAX} games")
        return Rule("games", every=count)
    raise ValueError("unknown kind")


def cut(rule: Rule, games: Sequence[Game], today: date) -> list[Season]:
    """The seasons of ``games`` (oldest first), oldest season first; the last one is the
    current season (it may have no game yet)."""
    if rule.kind == "games":
        return _by_count(rule.every or EVERY_MAX, games)
    days = [_day(g) for g in games]  # in order: the games come oldest first
    starts = _starts(rule, days, today)
    seasons: list[Season] = []
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else None
        stop = len(days) if end is None else bisect_left(days, end)
        inside = tuple(games[bisect_left(days, start) : stop])
        current = start <= today and (end is None or today < end)
        seasons.append(Season(index + 1, inside, current, start, end))
    if not any(s.current for s in seasons):  # today before the first listed date
        seasons[-1] = _replace_current(seasons[-1])
    return seasons


def _starts(rule: Rule, days: Sequence[date], today: date) -> list[date]:
    first_day = min(days[0], today) if days else today
    if rule.kind == "year":
        return [date(year, 1, 1) for year in range(first_day.year, today.year + 1)]
    listed = list(rule.starts)
    # The games before the first listed date make a season of their own.
    return ([first_day] if first_day < listed[0] else []) + listed


def _by_count(every: int, games: Sequence[Game]) -> list[Season]:
    seasons = [
        Season(i // every + 1, tuple(games[i : i + every]), False, first=i + 1, last=i + every)
        for i in range(0, len(games), every)
    ]
    if not seasons or len(seasons[-1].games) == every:  # full: the next one has begun
        n = len(seasons) * every
        seasons.append(Season(len(seasons) + 1, (), True, first=n + 1, last=n + every))
    else:
        seasons[-1] = _replace_current(seasons[-1])
    return seasons


def _replace_current(season: Season) -> Season:
    return Season(
        season.number, season.games, True, season.start, season.end, season.first, season.last
    )


def _day(game: Game) -> date:
    at = game.created_at
    return (at if at.tzinfo is None else at.astimezone(UTC)).date()


def today() -> date:
    return datetime.now(UTC).date()


async def load_rule(*, session_factory: SessionFactory, group: GroupInfo) -> Rule:
    async with session_factory() as session:
        row = await session.get(GroupSeasonRule, group.id)
    if row is None or row.kind not in KINDS:
        return Rule()
    if row.kind == "dates":
        return Rule("dates", tuple(date.fromisoformat(s) for s in row.starts.split(",")))
    if row.kind == "games":
        return Rule("games", every=row.every)
    return Rule()


async def save_rule(*, session_factory: SessionFactory, group: GroupInfo, rule: Rule) -> None:
    async with session_factory() as session, session.begin():
        row = await session.get(GroupSeasonRule, group.id)
        if row is None:
            row = GroupSeasonRule(group_id=group.id)
            session.add(row)
        row.kind = rule.kind
        row.starts = ",".join(day.isoformat() for day in rule.starts)
        row.every = rule.every


# The games of the groups whose pages were seen lately, each with the mark of what it was read
# from (``_mark``): a thousand games are read once, not on every visit of the page.
_GAMES: Kept[list[Game]] = Kept(128)


async def load_games(*, session_factory: SessionFactory, group: GroupInfo) -> list[Game]:
    """The group's games (tables with a hand dealt), oldest first: one short row each, read
    again only when the group's tables changed."""
    async with session_factory() as session:
        mark = tuple((await session.execute(_mark(group.id))).one())
        kept = _GAMES.get(group.code, mark)
        if kept is not None:
            return kept
        dealt = exists().where(Hand.table_id == Table.id)
        query = (
            select(Table.id, Table.version, Table.created_at)
            .where(Table.group_id == group.id, dealt)
            .order_by(Table.created_at, Table.id)
        )
        rows = (await session.execute(query)).all()
    return _GAMES.put(
        group.code, mark, [Game(table_id, version, at) for table_id, version, at in rows]
    )


def _mark(group_id: int) -> Select[int, int, int]:
    """What changes whenever the group's games do, counted by the database in one row: every
    accepted change bumps a table's version (a table's first deal too: its hand is written
    by the change that bumps it, app/tables/writer.py), a new table has the highest id, and a
    deleted one lowers the count."""
    return select(
        func.count(Table.id),
        func.coalesce(func.sum(Table.version), 0),
        func.coalesce(func.max(Table.id), 0),
    ).where(Table.group_id == group_id)


def forget_games() -> None:
    """Empty the kept games (as a restart does)."""
    _GAMES.clear()
