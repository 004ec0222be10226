"""A table's rows as plain values: what the writer writes and what the replay reads.

The ORM models (``models.py``) describe the database; these are the columns a game is made of,
without ids or timestamps, so one vocabulary serves the room (which builds new rows), the
writer (which stores them), the repository and the fan-out (which read them back) and the
replay (which turns them into a live table).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple


class SeatRow(NamedTuple):
    seat: int
    name: str
    token_hash: str  # SHA-256 of the seat token, never the token
    is_bot: bool = False
    bot_level: str | None = None


class HandRow(NamedTuple):
    number: int
    dealer: int
    seed: int  # the secret deal seed: it never leaves the server


class ActionRow(NamedTuple):
    seq: int  # the table's action counter: 1, 2, 3, ... across all hands
    hand_number: int
    seat: int
    action: Mapping[str, Any]  # the action's JSON form (engine.action_to_json)
