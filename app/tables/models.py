"""Persistent tables: a table, its seats, its hands (with their secret deal seeds) and the
append-only log of accepted actions from which every game is rebuilt; the hints and chat lines
kept with a table.

The other packages keep their models beside them (``app/groups/models.py``,
``app/history/models.py``, ``app/notify/models.py``); ``app/models.py`` imports them all for
whoever needs the whole schema (Alembic)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, CreatedAt, Id, JsonType
from app.tables import tokens

__all__ = ["CreatedAt", "Id", "JsonType", "TableId"]

# The columns the models repeat (``JsonType``, ``Id`` and ``CreatedAt`` live in app/db.py, for
# the jobs table too, which sits below this package).
TableId = Annotated[int, mapped_column(sa.ForeignKey("tables.id", ondelete="CASCADE"))]
InviteCode = Annotated[str, mapped_column(sa.String(64), unique=True)]
# The group of friends a table was opened in (app/groups), if any.
GroupRef = Annotated[
    int | None,
    mapped_column(sa.ForeignKey("groups.id", ondelete="SET NULL"), default=None, index=True),
]


class OfTable:
    """A row kept with one table (its seats, hands, log, hints and chat), deleted with it.
    A mixin's columns would come after the class's own: ``sort_order`` puts them first."""

    id: Mapped[Id] = mapped_column(sort_order=-2)
    table_id: Mapped[TableId] = mapped_column(sort_order=-1)


class Decision(OfTable):
    """A decision of ``seat`` in hand ``hand_number``, ``seq`` being the table's action count
    before it, and an action's JSON: the action taken (the log) or suggested (a hint)."""

    seq: Mapped[int]
    hand_number: Mapped[int]
    seat: Mapped[int]
    action: Mapped[dict[str, Any]] = mapped_column(JsonType)
    created_at: Mapped[CreatedAt]


class Table(Base):
    __tablename__ = "tables"

    id: Mapped[Id]
    invite_code: Mapped[InviteCode]
    options: Mapped[dict[str, Any]] = mapped_column(JsonType)
    # Bumped by every accepted change under a compare-and-set guard (one writer per table).
    version: Mapped[int] = mapped_column(default=0, server_default="0")
    created_at: Mapped[CreatedAt]
    # SHA-256 of the creator's host token (adds bots); null for tables from before hosts.
    host_token_hash: Mapped[str | None] = mapped_column(sa.String(64), default=None)
    group_id: Mapped[GroupRef]
    # The invite code of the next game ("Play again"); set once (WHERE next_code IS NULL).
    next_code: Mapped[str | None] = mapped_column(sa.String(64), default=None)
    # The short code to type on the home page or after /j/ (the display shows it): unique,
    # made when the table is (tokens.new_short_code), lower case.
    short_code: Mapped[str] = mapped_column(
        sa.String(8), unique=True, default=tokens.new_short_code
    )
    # The deals a table is dealt from (issue 39, ``live.Branch.to_json``): a practice table's
    # (app/practice) or a group's game on an earlier game's deals (app/groups/duplicate.py).
    # Server-side only, like the hands' seeds; null for every other table.
    branch: Mapped[dict[str, Any] | None] = mapped_column(JsonType, default=None)
    # The id of the hand (``hands.id``) a practice table branched from, so that a hand page
    # finds the tables that played its deal again (an index, not a scan). No foreign key: a
    # hand deleted with its table's history leaves practice tables that simply find nothing.
    branched_from: Mapped[int | None] = mapped_column(default=None, index=True)
    # A group's game on the deals of an earlier game (issue 39, app/groups/duplicate.py): that
    # game's id, for the comparison page (an index). No foreign key, as above.
    deals_of: Mapped[int | None] = mapped_column(default=None, index=True)


class Seat(OfTable, Base):
    __tablename__ = "seats"
    __table_args__ = (sa.UniqueConstraint("table_id", "seat"),)

    seat: Mapped[int]
    name: Mapped[str] = mapped_column(sa.String(24))
    # SHA-256 of the seat token: a leaked database does not hand out seats.
    token_hash: Mapped[str] = mapped_column(sa.String(64), unique=True)
    is_bot: Mapped[bool] = mapped_column(default=False)
    bot_level: Mapped[str | None] = mapped_column(sa.String(32), default=None)
    # Since when the person in this seat has been away (no socket on any process), as the
    # table's driver saw it (app/bots/drivers.py): a new driver continues the takeover clock.
    away_since: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True), default=None)


class Hand(OfTable, Base):
    __tablename__ = "hands"
    __table_args__ = (sa.UniqueConstraint("table_id", "number"),)

    number: Mapped[int]
    dealer: Mapped[int]
    # The deal seed never leaves the server: views are built from engine.view only.
    seed: Mapped[int] = mapped_column(sa.BigInteger)
    # When the hand was dealt: its first turn began then (correspondence reminders).
    created_at: Mapped[CreatedAt]


class Action(Decision, Base):
    """An accepted action: the append-only log every game is rebuilt from."""

    __tablename__ = "actions"
    __table_args__ = (sa.UniqueConstraint("table_id", "seq"),)


class Hint(Decision, Base):
    """A beginner hint given to a seat (tables with the ``hints`` option), ``action`` the
    suggested one: one row per decision, so asking twice for the same move counts once. The
    score sheets mark the hands in which a seat took hints."""

    __tablename__ = "hints"
    __table_args__ = (sa.UniqueConstraint("table_id", "hand_number", "seat", "seq"),)


class ChatLine(OfTable, Base):
    """One line of a table's chat, kept with the table (shown at the table and in its
    history). Append-only; the text is stored as typed and escaped wherever it is shown."""

    __tablename__ = "chat"
    __table_args__ = (sa.Index("ix_chat_table_id_id", "table_id", "id"),)

    seat: Mapped[int]
    created_at: Mapped[CreatedAt]
    text: Mapped[str] = mapped_column(sa.String(400))


class DeletedTable(Base):
    """A table whose history was deleted (by its host, or by the operator's retention job):
    every row of the table went (hands, actions, chat, reviews, the score sheet); this is
    what remains, so its pages answer 410 Gone and its group's standings can say that a
    table was deleted (app/host/deletion.py)."""

    __tablename__ = "deleted_tables"

    id: Mapped[Id]
    invite_code: Mapped[InviteCode]
    group_id: Mapped[GroupRef]
    reason: Mapped[str] = mapped_column(sa.String(16))  # "host" or "retention"
    deleted_at: Mapped[CreatedAt]
