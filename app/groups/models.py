"""Groups of friends: a group (its private link), the names claimed in it, and which seat of
its tables each name held."""

from __future__ import annotations

from typing import Annotated

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base
from app.tables.models import CreatedAt, Id, TableId


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
