"""The same deal played again (issue 39, point 2): a finished hand beside the practice tables
that played its deal from the start ("Play this deal again", ``app/practice`` with step 0).

Every seat held the same cards at each of them, so the hand pages show them side by side: who
bid what, the roles and trumps, the team's points and every seat's score. The tables are found
through the indexed ``tables.branched_from`` (the original hand's id), never a scan; each is
replayed alone from its own rows (``replay.load_hand``), the newest :data:`MAX_SHOWN` only, and
only once its hand is over (nothing of a hand in progress is shown).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

import engine
from app.history.service import TableHistory
from app.tables import replay
from app.tables.models import Hand, Seat, Table

MAX_SHOWN = 5  # plays of the deal again, beside the original
_LOOKED_AT = 50  # the newest branches read (most branch from a moment, not from the deal)


@dataclass(frozen=True, slots=True)
class Play:
    """One table's play of the deal."""

    code: str
    number: int
    names: list[str]
    result: engine.HandResult
    current: bool  # the hand whose page this is
    original: bool  # the hand the others played again


async def plays(*, db: AsyncEngine, history: TableHistory, number: int) -> list[Play]:
    """The original hand and the finished plays of its deal again, the original first; empty
    when nobody played this deal again."""
    origin = history.practice
    again = origin is not None and origin.step == 0 and number == 1
    async with db.connect() as conn:
        root = (
            sa.select(Hand.id, Hand.table_id, Hand.number, Table.invite_code)
            .join(Table, Table.id == Hand.table_id)
            .where(
                Table.invite_code == (origin.code if again and origin else history.invite_code),
                Hand.number == (origin.hand if again and origin else number),
            )
        )
        found = (await conn.execute(root)).first()
        if found is None:
            return []
        branches = (
            await conn.execute(
                sa.select(Table.id, Table.invite_code, Table.options)
                .where(Table.branched_from == found.id)
                .order_by(Table.id.desc())
                .limit(_LOOKED_AT)
            )
        ).all()
        wanted = [row for row in branches if _from_the_deal(row.options)][:MAX_SHOWN]
        if not wanted:
            return []
        ids = [found.table_id, *(row.id for row in wanted)]
        names = await _names(conn, ids)
    members = [(found.table_id, found.invite_code, found.number)]
    members += [(row.id, row.invite_code, 1) for row in reversed(wanted)]  # oldest first
    out = []
    for table_id, code, hand_number in members:
        hand = await replay.load_hand(db_engine=db, table_id=table_id, number=hand_number)
        result = engine.result(hand.final) if hand is not None else None
        if result is None:
            continue  # still being played
        current = code == history.invite_code and hand_number == number
        seats = names.get(table_id, {})
        labels = [seats.get(seat, f"#{seat + 1}") for seat in range(history.players)]
        out.append(Play(code, hand_number, labels, result, current, table_id == found.table_id))
    return out if len(out) > 1 else []


def _from_the_deal(options: Any) -> bool:
    practice = options.get("practice") if isinstance(options, dict) else None
    return isinstance(practice, dict) and practice.get("step") == 0


async def _names(conn: Any, table_ids: list[int]) -> dict[int, dict[int, str]]:
    rows = await conn.execute(
        sa.select(Seat.table_id, Seat.seat, Seat.name).where(Seat.table_id.in_(table_ids))
    )
    names: dict[int, dict[int, str]] = {}
    for table_id, seat, name in rows.all():
        names.setdefault(table_id, {})[seat] = name
    return names
