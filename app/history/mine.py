""" "My tables": the tables this browser holds a seat at, and statistics per player name.

A browser's seats are its ``mu_seat_{invite_code}`` cookies; a cookie counts only when its
token's hash matches a seat of that table, so a forged cookie name reveals nothing.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field

import engine
from app.db import SessionFactory
from app.history import service
from app.history.service import TableHistory

COOKIE_PREFIX = "mu_seat_"
# A browser with more seat cookies than this is not a friend's browser; don't replay them all.
MAX_TABLES = 50


@dataclass(frozen=True, slots=True)
class MyTable:
    history: TableHistory
    seat: int


@dataclass(slots=True)
class PlayerStats:
    name: str
    hands: int = 0
    played: int = 0  # hands played to the end (card points were counted)
    chief: int = 0
    chief_won: int = 0
    card_points: int = 0
    bonus_won: int = 0
    tables: set[str] = field(default_factory=set)

    @property
    def chief_rate(self) -> float | None:
        return self.chief_won / self.chief if self.chief else None

    @property
    def average_points(self) -> float | None:
        return self.card_points / self.played if self.played else None


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
    """The tables whose seat cookie holds a real seat, newest first."""
    mine = []
    for code, token in seat_cookies(cookies):
        history = await service.load(session_factory=session_factory, invite_code=code)
        seat = history.seat_of_token(token) if history else None
        if history is not None and seat is not None:
            mine.append(MyTable(history, seat))
    mine.sort(key=lambda table: (table.history.created_at is None, table.history.created_at))
    mine.reverse()
    return mine


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
    stats.hands += 1
    if row.kind != engine.Outcome.PLAYED:
        return
    stats.played += 1
    stats.card_points += row.card_points[seat]
    stats.bonus_won += max(row.bonus[seat], 0)
    if row.chief == seat:
        stats.chief += 1
        stats.chief_won += bool(row.success)
