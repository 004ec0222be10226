"""Hand files (docs/notation.md): a finished hand or a table's game as text to download, and
imported files stored and shown with the history pages.

Writing and reading the notation is the engine's (``engine.notation``); an imported file is
stored as its text and replayed by the engine whenever it is shown, and becomes a
:class:`TableHistory` like a table's, so the score sheet and hand pages show it as they show any
game.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from sqlalchemy import select

from app.db import SessionFactory
from app.history.models import ImportedGame
from app.history.service import HandRecord, TableHistory
from app.tables.live import LiveTable, SeatInfo
from app.tables.options import TableOptions
from app.tables.replay import Move
from engine import notation

# A game of six players over 40 hands is about 30 KB; the server refuses any request body over
# 64 KB (HTTP_BODY_MAX_BYTES), so files are limited below it, where the page can say why.
MAX_BYTES = 48 * 1024
_CODE_BYTES = 24
EVENT = "Mü Online"


def _date(history: TableHistory) -> str:
    when = history.created_at or datetime.now(UTC)
    return f"{when:%Y.%m.%d}"


def filename(history: TableHistory, what: str) -> str:
    return f"mu-{what}-{_date(history).replace('.', '-')}.txt"


def hand_file(history: TableHistory, record: HandRecord) -> str:
    return notation.export_hand(
        record.final,
        players=history.names,
        event=EVENT,
        date=_date(history),
        number=record.number,
    )


def game_file(history: TableHistory) -> str:
    return notation.export_game(
        history.game.options,
        [record.final for record in history.hands],
        players=history.names,
        event=EVENT,
        date=_date(history),
    )


class TooLarge(ValueError):
    """The file is larger than :data:`MAX_BYTES`."""


def read_upload(data: bytes) -> str:
    """The text of an uploaded or pasted file (UTF-8, a BOM allowed)."""
    if len(data) > MAX_BYTES:
        raise TooLarge(f"larger than {MAX_BYTES // 1024} KB")
    return data.decode("utf-8-sig")


async def store(*, session_factory: SessionFactory, text: str) -> str:
    """Store a file that parsed; its private code."""
    code = secrets.token_urlsafe(_CODE_BYTES)
    async with session_factory() as session, session.begin():
        session.add(ImportedGame(code=code, text=text))
    return code


async def load(*, session_factory: SessionFactory, code: str) -> TableHistory | None:
    """An imported file as a history (replayed by the engine now), or None for an unknown code."""
    async with session_factory() as session:
        row = await session.scalar(select(ImportedGame).where(ImportedGame.code == code))
    if row is None:
        return None
    return history_of(notation.parse(row.text), code, row.created_at)


def history_of(parsed: notation.Notated, code: str, created_at: datetime | None) -> TableHistory:
    game = parsed.game
    options = TableOptions(
        players=len(parsed.players),
        variant=parsed.variant,
        target_score=game.options.target_score,
        hands=game.options.hands,
        takeover_seconds=None,
    )
    live = LiveTable(
        table_id=0,
        invite_code=code,
        options=options,
        version=0,
        seq=sum(len(hand.moves) for hand in parsed.hands),
        seats=tuple(SeatInfo(name, "") for name in parsed.players),
        game=game,
    )
    records = tuple(
        HandRecord(
            number,
            hand.dealer,
            hand.dealt,
            tuple(Move(m.seat, m.action) for m in hand.moves),
            hand.final,
        )
        for number, hand in enumerate(parsed.hands, start=1)
    )
    return TableHistory(live, created_at, records, None)
