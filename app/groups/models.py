"""Groups of friends: a group (its private link), the names claimed in it, and which seat of
its tables each name held."""

from __future__ import annotations

from typing import Annotated, Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base
from app.tables.models import CreatedAt, Id, JsonType, TableId


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


class GroupSeasonRule(Base):
    """How a group cuts its games into seasons (app/groups/seasons.py): ``year`` (the
    calendar year, the default when a group has no row), ``dates`` (``starts``: the ISO dates
    seasons start on, comma-separated) or ``games`` (every ``every`` games)."""

    __tablename__ = "group_seasons"

    group_id: Mapped[int] = mapped_column(
        sa.ForeignKey("groups.id", ondelete="CASCADE"), primary_key=True
    )
    kind: Mapped[str] = mapped_column(sa.String(8))
    starts: Mapped[str] = mapped_column(sa.String(400), default="")
    every: Mapped[int | None] = mapped_column(default=None)


class TableSummaryRow(Base):
    """What the group pages count of one table, as of its ``version`` (app/groups/summaries.py:
    the engine's results of its finished hands, its totals, names and status), in the stored
    form ``format``; made again when either changes. Deleted with the table."""

    __tablename__ = "table_summaries"

    table_id: Mapped[int] = mapped_column(
        sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    version: Mapped[int]
    format: Mapped[int]
    summary: Mapped[dict[str, Any]] = mapped_column(JsonType)


class GroupRatingStart(Base):
    """The all-time ratings of a group's players after the games before a season
    (app/groups/boards.py: what that season's ratings start from), for one filter and season
    start (``scope``), with the digest of what they were computed from (those games' ids and
    versions, the seat links); computed again when it differs."""

    __tablename__ = "group_rating_starts"

    group_id: Mapped[int] = mapped_column(
        sa.ForeignKey("groups.id", ondelete="CASCADE"), primary_key=True
    )
    scope: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    digest: Mapped[str] = mapped_column(sa.String(64))
    ratings: Mapped[dict[str, Any]] = mapped_column(JsonType)
