"""Beginner hints at the table: the search bot's suggestion for the seat to move.

Only at tables created with the ``hints`` option, only for a seated player on their turn and on
the version they see. The suggestion (``engine.review.suggest``) reads that seat's own view,
never the state, and runs in a worker thread so the table's event loop does not wait for it.
Every hint given is stored (``app.tables.hints``, once per decision) before it is sent, so the
score sheets can mark the hands in which a player took hints.
"""

from __future__ import annotations

import asyncio
import random
import secrets
from collections import OrderedDict

import engine
from app.protocol import messages
from app.protocol.inbound import ErrorCode
from app.room.connection import Connection
from app.room.room import Room
from app.tables import hints as stored
from engine.review import Suggestion, suggest

# Suggestions by (table, version, seat): asking again for the same decision costs nothing.
_CACHE_SIZE = 512
_cache: OrderedDict[tuple[int, int, int], Suggestion] = OrderedDict()


async def give(room: Room, connection: Connection, version: int) -> None:
    """Answer a ``hint`` message with a ``hint`` or a typed ``error``."""
    seat = connection.seat
    live = room.live
    refusal = _refusal(live.options.hints, seat, version, live.version, live.hand)
    if refusal is not None:
        connection.push(messages.error_message(*refusal))
        return
    assert seat is not None and live.hand is not None  # _refusal checked both
    key = (live.table_id, version, seat)
    suggestion = _cache.get(key)
    if suggestion is None:
        seen = engine.view(live.hand, seat)
        rng = random.Random(secrets.randbits(64))
        suggestion = await asyncio.to_thread(suggest, seen, rng)
        _remember(key, suggestion)
    if room.live.version != version:  # the table moved on while the bot thought
        connection.push(messages.error_message(*_stale(version, room.live.version)))
        return
    await stored.record(
        db=room.store.db,
        table_id=live.table_id,
        hand_number=live.hand_number,
        seat=seat,
        seq=live.seq,
        action=engine.action_to_json(suggestion.action),
    )
    connection.push(messages.hint_message(version, suggestion))


def _refusal(
    enabled: bool, seat: int | None, version: int, current: int, hand: engine.HandState | None
) -> tuple[ErrorCode, str] | None:
    if seat is None:
        return ErrorCode.SPECTATOR, "spectators get no hints"
    if not enabled:
        return ErrorCode.HINTS_OFF, "this table plays without hints"
    if version != current:
        return _stale(version, current)
    if hand is None or hand.to_move != seat:
        return ErrorCode.NOT_YOUR_TURN, "a hint is given on your turn"
    return None


def _stale(sent: int, current: int) -> tuple[ErrorCode, str]:
    return ErrorCode.STALE_VERSION, f"the table is at version {current}, not {sent}"


def _remember(key: tuple[int, int, int], suggestion: Suggestion) -> None:
    _cache[key] = suggestion
    while len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
