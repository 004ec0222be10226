"""The server's VAPID key pair: from the settings, else made once and kept in the database.

Several processes may start at once: each inserts a fresh pair with "do nothing on conflict"
and then reads the one row back, so all of them sign with the same key.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

import sqlalchemy as sa
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.db import Base
from app.notify.models import VapidKey
from app.notify.store import insert_ignoring_conflicts

_ROW_ID = 1


@dataclass(frozen=True, slots=True)
class VapidKeys:
    private_key: str  # base64url, raw 32 bytes
    public_key: str  # base64url, uncompressed point (what PushManager.subscribe wants)
    subject: str


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def new_key_pair() -> tuple[str, str]:
    """A fresh P-256 pair as (private, public), both base64url."""
    private = ec.generate_private_key(ec.SECP256R1())
    raw_private = private.private_numbers().private_value.to_bytes(32, "big")
    public = private.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return b64url(raw_private), b64url(public)


async def load_or_create(db_engine: AsyncEngine, settings: Settings) -> VapidKeys:
    """The keys from the settings if given, else the stored pair (made now if none is).

    Raises:
        ValueError: only one of VAPID_PRIVATE_KEY and VAPID_PUBLIC_KEY is set.
    """
    given = (settings.vapid_private_key, settings.vapid_public_key)
    if all(given):
        assert settings.vapid_private_key and settings.vapid_public_key  # for mypy
        return VapidKeys(
            settings.vapid_private_key, settings.vapid_public_key, settings.vapid_subject
        )
    if any(given):
        raise ValueError("set both VAPID_PRIVATE_KEY and VAPID_PUBLIC_KEY, or neither")
    private, public = new_key_pair()
    table = Base.metadata.tables[VapidKey.__tablename__]
    async with db_engine.begin() as conn:
        values = {"id": _ROW_ID, "private_key": private, "public_key": public}
        await conn.execute(insert_ignoring_conflicts(conn, table, values))
        row = (
            await conn.execute(
                sa.select(table.c.private_key, table.c.public_key).where(table.c.id == _ROW_ID)
            )
        ).one()
    return VapidKeys(row.private_key, row.public_key, settings.vapid_subject)
