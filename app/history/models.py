"""What the history keeps beside the tables: the search bot's hand reviews and imported hand
and game files."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base
from app.tables.models import CreatedAt, Id, JsonType, TableId


class HandReview(Base):
    """The search bot's review of one finished hand (``engine.review``), computed once.

    A row is ``pending`` once the hand is known to be over; one process claims it with a
    conditional UPDATE (``running``, ``claimed_by``/``claimed_at``), reports ``progress`` of
    ``total`` decisions while it works and stores the ``result`` (``done``), or ``failed``.
    A claim older than the worker's timeout is taken over (a process died while working)."""

    __tablename__ = "hand_reviews"
    __table_args__ = (sa.UniqueConstraint("table_id", "hand_number"),)

    id: Mapped[Id]
    table_id: Mapped[TableId]
    hand_number: Mapped[int]
    status: Mapped[str] = mapped_column(sa.String(16), default="pending")
    progress: Mapped[int] = mapped_column(default=0, server_default="0")
    total: Mapped[int] = mapped_column(default=0, server_default="0")
    result: Mapped[dict[str, Any] | None] = mapped_column(JsonType, default=None)
    claimed_by: Mapped[str | None] = mapped_column(sa.String(64), default=None)
    claimed_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True), default=None)
    created_at: Mapped[CreatedAt]


class ImportedGame(Base):
    """A hand file or game file someone imported (engine/notation.py): stored as the text, which
    is parsed (replayed by the engine) again whenever its pages are shown. ``code`` is the
    private link, from ``secrets``."""

    __tablename__ = "imported_games"

    id: Mapped[Id]
    code: Mapped[str] = mapped_column(sa.String(64), unique=True)
    text: Mapped[str] = mapped_column(sa.Text())
    created_at: Mapped[CreatedAt]
