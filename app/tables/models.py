"""Persistent tables: a table, its seats, its hands (with their secret deal seeds) and the
append-only log of accepted actions from which every game is rebuilt."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base

JsonType = sa.JSON().with_variant(JSONB(), "postgresql")

# The columns every table repeats, declared once (SQLAlchemy's Annotated column types).
Id = Annotated[int, mapped_column(primary_key=True)]
TableId = Annotated[int, mapped_column(sa.ForeignKey("tables.id", ondelete="CASCADE"))]
CreatedAt = Annotated[
    datetime, mapped_column(sa.DateTime(timezone=True), server_default=sa.func.now())
]


class Table(Base):
    __tablename__ = "tables"

    id: Mapped[Id]
    invite_code: Mapped[str] = mapped_column(sa.String(64), unique=True)
    options: Mapped[dict[str, Any]] = mapped_column(JsonType)
    # Bumped by every accepted change under a compare-and-set guard (one writer per table).
    version: Mapped[int] = mapped_column(default=0, server_default="0")
    created_at: Mapped[CreatedAt]
    # SHA-256 of the creator's host token (adds bots); null for tables from before hosts.
    host_token_hash: Mapped[str | None] = mapped_column(sa.String(64), default=None)
    # The group of friends the table was opened in (app/groups), if any.
    group_id: Mapped[int | None] = mapped_column(
        sa.ForeignKey("groups.id", ondelete="SET NULL"), default=None, index=True
    )
    # The invite code of the next game ("Play again"); set once (WHERE next_code IS NULL).
    next_code: Mapped[str | None] = mapped_column(sa.String(64), default=None)


class Seat(Base):
    __tablename__ = "seats"
    __table_args__ = (sa.UniqueConstraint("table_id", "seat"),)

    id: Mapped[Id]
    table_id: Mapped[TableId]
    seat: Mapped[int]
    name: Mapped[str] = mapped_column(sa.String(24))
    # SHA-256 of the seat token: a leaked database does not hand out seats.
    token_hash: Mapped[str] = mapped_column(sa.String(64), unique=True)
    is_bot: Mapped[bool] = mapped_column(default=False)
    bot_level: Mapped[str | None] = mapped_column(sa.String(32), default=None)


class Hand(Base):
    __tablename__ = "hands"
    __table_args__ = (sa.UniqueConstraint("table_id", "number"),)

    id: Mapped[Id]
    table_id: Mapped[TableId]
    number: Mapped[int]
    dealer: Mapped[int]
    # The deal seed never leaves the server: views are built from engine.view only.
    seed: Mapped[int] = mapped_column(sa.BigInteger)
    # When the hand was dealt: its first turn began then (correspondence reminders).
    created_at: Mapped[CreatedAt]


class Action(Base):
    __tablename__ = "actions"
    __table_args__ = (sa.UniqueConstraint("table_id", "seq"),)

    id: Mapped[Id]
    table_id: Mapped[TableId]
    seq: Mapped[int]
    hand_number: Mapped[int]
    seat: Mapped[int]
    action: Mapped[dict[str, Any]] = mapped_column(JsonType)
    created_at: Mapped[CreatedAt]


class Hint(Base):
    """A beginner hint given to a seat (tables with the ``hints`` option): one row per
    decision (``seq``: the table's action count when it was asked), so asking twice for the
    same move counts once. The score sheets mark the hands in which a seat took hints."""

    __tablename__ = "hints"
    __table_args__ = (sa.UniqueConstraint("table_id", "hand_number", "seat", "seq"),)

    id: Mapped[Id]
    table_id: Mapped[TableId]
    hand_number: Mapped[int]
    seat: Mapped[int]
    seq: Mapped[int]
    action: Mapped[dict[str, Any]] = mapped_column(JsonType)  # the suggested action's JSON
    created_at: Mapped[CreatedAt]


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


class Group(Base):
    """A circle of friends (app/groups): a private link (``code``, from ``secrets``) that
    gathers tables and the names of the people who play at them."""

    __tablename__ = "groups"

    id: Mapped[Id]
    code: Mapped[str] = mapped_column(sa.String(64), unique=True)
    name: Mapped[str] = mapped_column(sa.String(60))
    created_at: Mapped[CreatedAt]


GroupId = Annotated[int, mapped_column(sa.ForeignKey("groups.id", ondelete="CASCADE"))]


class GroupMember(Base):
    """One device's claim of a name in a group: the browser holds the claim token in a
    cookie, the database its hash. Several devices may claim the same name: the player is the
    name (``name_key``: trimmed, NFC, case-folded), so games show up on every such device."""

    __tablename__ = "group_members"

    id: Mapped[Id]
    group_id: Mapped[GroupId]
    name: Mapped[str] = mapped_column(sa.String(24))
    name_key: Mapped[str] = mapped_column(sa.String(24), index=True)
    claim_token_hash: Mapped[str] = mapped_column(sa.String(64), unique=True)
    created_at: Mapped[CreatedAt]


class GroupSeat(Base):
    """A seat at one of the group's tables linked to a player of the group: written when a
    browser that claimed the name holds that seat's token (its seat cookie)."""

    __tablename__ = "group_seats"
    __table_args__ = (sa.UniqueConstraint("table_id", "seat"),)

    id: Mapped[Id]
    group_id: Mapped[GroupId]
    table_id: Mapped[TableId]
    seat: Mapped[int]
    name_key: Mapped[str] = mapped_column(sa.String(24))


class ImportedGame(Base):
    """A hand file or game file someone imported (engine/notation.py): stored as the text, which
    is parsed (replayed by the engine) again whenever its pages are shown. ``code`` is the
    private link, from ``secrets``."""

    __tablename__ = "imported_games"

    id: Mapped[Id]
    code: Mapped[str] = mapped_column(sa.String(64), unique=True)
    text: Mapped[str] = mapped_column(sa.Text())
    created_at: Mapped[CreatedAt]


class ChatLine(Base):
    """One line of a table's chat, kept with the table (shown at the table and in its
    history). Append-only; the text is stored as typed and escaped wherever it is shown."""

    __tablename__ = "chat"
    __table_args__ = (sa.Index("ix_chat_table_id_id", "table_id", "id"),)

    id: Mapped[Id]
    table_id: Mapped[TableId]
    seat: Mapped[int]
    created_at: Mapped[CreatedAt]
    text: Mapped[str] = mapped_column(sa.String(400))
