""" "My tables": the tables this browser holds a seat at, and statistics per player name.

A browser's seats are its ``mu_seat_{invite_code}`` cookies; a cookie counts only when its
token's hash matches a seat of that table, so a forged cookie name reveals nothing.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

import sqlalchemy as sa

import engine
from app.db import SessionFactory
from app.history import service
from app.history.service import TableHistory
from app.tables.models import Action, Hand

COOKIE_PREFIX = "mu_seat_"
# A browser with more seat cookies than this is not a friend's browser; don't replay them all.
MAX_TABLES = 50


@dataclass(frozen=True, slots=True)
class MyTable:
    history: TableHistory
    seat: int


@dataclass(slots=True, kw_only=True)
class Tally:
    """What a player's hands add up to (here and in a group's standings)."""

    hands: int = 0
    played: int = 0  # hands played to the end (card points were counted)
    chief: int = 0
    chief_won: int = 0
    card_points: int = 0

    def count(self, hand: engine.SheetRow | engine.HandResult, seat: int) -> bool:
        """Count one hand of ``seat``'s; whether it was played to the end."""
        self.hands += 1
        if hand.kind != engine.Outcome.PLAYED:
            return False
        self.played += 1
        self.card_points += hand.card_points[seat]
        if hand.chief == seat:
            self.chief += 1
            self.chief_won += bool(hand.success)
        return True

    @property
    def chief_rate(self) -> float | None:
        return self.chief_won / self.chief if self.chief else None

    @property
    def average_points(self) -> float | None:
        return self.card_points / self.played if self.played else None


@dataclass(slots=True)
class PlayerStats(Tally):
    name: str
    bonus_won: int = 0
    tables: set[str] = field(default_factory=set)


def seat_cookies(cookies: Mapping[str, str]) -> list[tuple[str, str]]:
    """(invite code, token) for each seat cookie, at most ``MAX_TABLES``."""
    found = [
        (name.removeprefix(COOKIE_PREFIX), token)
        for name, token in cookies.items()
        if name.startswith(COOKIE_PREFIX) and len(name) > len(COOKIE_PREFIX) and token
    ]
    return sorted(found)[:MAX_TABLES]


async def my_tables(
    *, session_factory: SessionFactory, cookies: Mapping[str, str]
) -> list[MyTable]:
    """The tables whose seat cookie holds a real seat, newest first; never a practice table
    (app/practice: one hand on another hand's deal, not a game)."""
    mine = []
    for code, token in seat_cookies(cookies):
        history = await service.load(session_factory=session_factory, invite_code=code)
        seat = history.seat_of_token(token) if history else None
        if history is not None and seat is not None and not history.practice:
            mine.append(MyTable(history, seat))
    mine.sort(key=lambda table: (table.history.created_at is None, table.history.created_at))
    mine.reverse()
    return mine


async def turns_began(
    *, session_factory: SessionFactory, table_ids: Sequence[int]
) -> dict[int, datetime]:
    """When each table's current turn began: its latest action, else its latest deal (UTC)."""
    if not table_ids:
        return {}
    ids = list(table_ids)
    acted = sa.select(Action.table_id, sa.func.max(Action.created_at)).where(
        Action.table_id.in_(ids)
    )
    dealt = sa.select(Hand.table_id, sa.func.max(Hand.created_at)).where(Hand.table_id.in_(ids))
    began: dict[int, datetime] = {}
    async with session_factory() as session:
        for query in (acted, dealt):
            for table_id, moment in (await session.execute(query.group_by("table_id"))).all():
                if moment is None:
                    continue
                moment = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
                began[table_id] = max(began.get(table_id, moment), moment)
    return began


def _key(name: str) -> str:
    # "Anna" and "anna " are the same friend; names are trimmed and NFC-normalised on entry.
    return unicodedata.normalize("NFC", name).strip().casefold()


def statistics(tables: list[MyTable]) -> list[PlayerStats]:
    """Per player name over the finished hands of ``tables`` (see docs/history.md)."""
    by_name: dict[str, PlayerStats] = {}
    for table in tables:
        names = table.history.names
        for row in table.history.game.rows:
            for seat, name in enumerate(names):
                stats = by_name.setdefault(_key(name), PlayerStats(name))
                stats.tables.add(table.history.invite_code)
                _count(stats, row, seat)
    return sorted(by_name.values(), key=lambda s: (-s.hands, s.name.casefold()))


def _count(stats: PlayerStats, row: engine.SheetRow, seat: int) -> None:
    if stats.count(row, seat):
        stats.bonus_won += max(row.bonus[seat], 0)
