"""What Web Push stores: the server's VAPID key pair, each seat's subscriptions, and one row
per push sent (its unique key makes every push go out once across processes)."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base
from app.tables.models import CreatedAt, Id, TableId


class VapidKey(Base):
    """The server's VAPID key pair (one row, ``id`` 1), made on first start unless set."""

    __tablename__ = "vapid_keys"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    # base64url: the raw 32-byte private scalar, and the uncompressed public point (65 bytes).
    private_key: Mapped[str] = mapped_column(sa.String(64))
    public_key: Mapped[str] = mapped_column(sa.String(128))
    created_at: Mapped[CreatedAt]


class PushSubscription(Base):
    """A browser's PushSubscription for one seat; removed when the push service says 404/410."""

    __tablename__ = "push_subscriptions"
    __table_args__ = (sa.UniqueConstraint("table_id", "seat", "endpoint"),)

    id: Mapped[Id]
    table_id: Mapped[TableId]
    seat: Mapped[int]
    endpoint: Mapped[str] = mapped_column(sa.String(1024))
    p256dh: Mapped[str] = mapped_column(sa.String(128))
    auth: Mapped[str] = mapped_column(sa.String(64))
    # The subscriber's language (de, en): the push texts are written in it.
    lang: Mapped[str] = mapped_column(sa.String(8))
    created_at: Mapped[CreatedAt]


class PushSent(Base):
    """One push claimed for sending; the unique key is the exactly-once guard."""

    __tablename__ = "push_sent"
    __table_args__ = (sa.UniqueConstraint("subscription_id", "table_id", "version", "kind"),)

    id: Mapped[Id]
    subscription_id: Mapped[int] = mapped_column(
        sa.ForeignKey("push_subscriptions.id", ondelete="CASCADE")
    )
    table_id: Mapped[TableId]
    version: Mapped[int]
    kind: Mapped[str] = mapped_column(sa.String(16))
    created_at: Mapped[CreatedAt]
